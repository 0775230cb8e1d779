#!/bin/sh
# tests/real/compile.sh GITDIR REPO NAME DIR COMPILER [PATHS]: compile the CUDA sources of the
# repository snapshot in GITDIR to PTX, one file per .cu, into DIR/NAME/ (its path's slashes
# made '_'), and print SOURCES.tsv's rows for them (file, repository REPO, the .cu's path, the
# commit). The PTX stays on this machine, like collect.sh's.
# COMPILER is one of
#   nvcc118   CUDA 11.8's nvcc for sm_35 (Kepler), from $CUDA118 (tests/ptxas-ref/generate.sh
#             unpacks it and writes its profile)
#   clang     clang's NVPTX back end for sm_35 ($CLANG, default clang), with CUDA 11.8's
#             headers and libdevice
#   nvcc      the installed nvcc ($NVCC, default nvcc) for its oldest target ($NVCC_ARCH,
#             default sm_75)
# PATHS is an extended regular expression over the snapshot's paths (default: every .cu).
# Each .cu is compiled alone, at -O2 (clang) or nvcc's default -O3, with its own folder and
# its parent on the include path; one that does not compile (a missing SDK header, host code
# the compiler refuses) or yields no kernel is left out, as is a PTX file whose content is
# already under DIR. Env INC: more include folders, relative to the snapshot's root
# (NVIDIA/cuda-samples needs INC=Common).
set -eu
git=${1:?usage: compile.sh GITDIR REPO NAME DIR nvcc118|clang|nvcc [PATHS]} repo=${2:?} name=${3:?}
dir=${4:?} compiler=${5:?} paths=${6:-'\.cu$'}
CUDA118=${CUDA118:-/work/cache/cuda118}
src=$(mktemp -d) && trap 'rm -rf "$src"' EXIT
case $compiler in
nvcc118)
	[ -x "$CUDA118/warpsim-nvcc/nvcc" ] || { echo "compile.sh: no $CUDA118/warpsim-nvcc/nvcc (run tests/ptxas-ref/generate.sh's set-up)" >&2; exit 2; } ;;
clang)
	# clang finds CUDA in a folder with include/, bin/, lib64/ and nvvm/libdevice: the unpacked
	# Debian package has them elsewhere, so link them together
	root=$src/.cudaroot
	mkdir -p "$root/nvvm"
	ln -s "$CUDA118/usr/include" "$root/include"
	ln -s "$CUDA118/usr/lib/nvidia-cuda-toolkit/bin" "$root/bin"
	ln -s "$CUDA118/usr/lib/nvidia-cuda-toolkit/libdevice" "$root/nvvm/libdevice"
	ln -s "$CUDA118/usr/lib/x86_64-linux-gnu" "$root/lib64" ;;
nvcc) ;;
*) echo "compile.sh: COMPILER is nvcc118, clang or nvcc, not '$compiler'" >&2; exit 2 ;;
esac
mkdir -p "$dir/$name"
seen=$src/.seen
find "$dir" -type f -name '*.ptx' -exec git hash-object {} + > "$seen"
commit=$(git -C "$git" rev-parse HEAD)
# the sources and the headers they include (a large file absent from the snapshot is skipped)
git -C "$git" ls-tree -r --name-only HEAD | grep -E '\.(cu|cuh|h|hpp|hh|inc|c|cpp)$' | while read -r p; do
	mkdir -p "$src/$(dirname "$p")"
	git -C "$git" cat-file blob "HEAD:$p" > "$src/$p" 2> /dev/null || rm -f "$src/$p"
done
out=$src/.out.ptx
inc=
for i in ${INC:-}; do inc="$inc -I$src/$i"; done
git -C "$git" ls-tree -r --name-only HEAD | grep '\.cu$' | grep -E "$paths" | LC_ALL=C sort | while read -r p; do
	[ -f "$src/$p" ] || continue
	d=$src/$(dirname "$p")
	rm -f "$out"
	case $compiler in
	nvcc118) timeout 300 "$CUDA118/warpsim-nvcc/nvcc" -ptx -arch=sm_35 -Wno-deprecated-gpu-targets \
		-ccbin "$(command -v gcc)" -allow-unsupported-compiler -I"$d" -I"$d/.." $inc "$src/$p" -o "$out" ;;
	clang) timeout 300 "${CLANG:-clang}" -x cuda --cuda-device-only -S --cuda-gpu-arch=sm_35 \
		--cuda-path="$root" -Wno-unknown-cuda-version -O2 -I"$d" -I"$d/.." $inc "$src/$p" -o "$out" ;;
	nvcc) timeout 300 "${NVCC:-nvcc}" -ptx -arch="${NVCC_ARCH:-sm_75}" -I"$d" -I"$d/.." $inc "$src/$p" -o "$out" ;;
	esac > /dev/null 2>&1 || continue
	grep -q '\.entry' "$out" || continue
	blob=$(git hash-object "$out")
	grep -qx "$blob" "$seen" && continue
	echo "$blob" >> "$seen"
	local_name=$name/$(printf '%s' "$p" | sed 's/\.cu$//' | tr / _).ptx
	[ -e "$dir/$local_name" ] && continue
	cp "$out" "$dir/$local_name"
	printf '%s\t%s\t%s\t%s\n' "$local_name" "$repo" "$p" "$commit"
done
