#!/bin/sh
# fixtures.sh NVCC - regenerate tests/ptx/NAME.sm75.ptx and NAME.sm80.ptx (with -lineinfo)
# and examples/NAME.ptx and tests/workloads/NAME.ptx
# from tests/cuda/NAME.cu, with NAME.launch copied beside each. `make fixtures` runs it; it
# does nothing where nvcc is absent. CUDA 13's nvcc accepts sm_75 and newer only (no
# sm_52/sm_6x). Absolute paths in .file lines are rewritten relative to the repository
# so the output does not depend on where it was built.
nvcc=$1
if [ -z "$nvcc" ] || ! command -v "$nvcc" >/dev/null 2>&1; then
	echo "fixtures: nvcc not found; tests/ptx left unchanged"
	exit 0
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
for cu in tests/cuda/*.cu; do
	name=$(basename "$cu" .cu)
	for arch in 75 80; do
		out=tests/ptx/$name.sm$arch.ptx
		extra=
		[ $arch = 80 ] && extra=-lineinfo
		"$nvcc" -ptx -arch=sm_$arch $extra "$cu" -o "$out.tmp" || { rm -f "$out.tmp"; exit 1; }
		sed -e "s|\"$top/|\"|" -e 's|"/usr/local/cuda[^"]*/include/|"cuda/include/|' \
			"$out.tmp" > "$out" && rm -f "$out.tmp"
		cp "tests/cuda/$name.launch" "tests/ptx/$name.sm$arch.launch"
		echo "fixtures: $out"
	done
done
# the workloads: tests/workloads/NAME.cu -> NAME.ptx (sm_75, launch and C reference beside)
for cu in tests/workloads/*.cu; do
	out=${cu%.cu}.ptx
	"$nvcc" -ptx -arch=sm_75 "$cu" -o "$out.tmp" || { rm -f "$out.tmp"; exit 1; }
	sed -e "s|\"$top/|\"|" -e 's|"/usr/local/cuda[^"]*/include/|"cuda/include/|' \
		"$out.tmp" > "$out" && rm -f "$out.tmp"
	echo "fixtures: $out"
done
# the bundled examples: examples/NAME.cu -> examples/NAME.ptx (sm_75, with -lineinfo so
# warpc --explain and --line-stats can name CUDA source lines)
for cu in examples/*.cu; do
	out=${cu%.cu}.ptx
	"$nvcc" -ptx -arch=sm_75 -lineinfo "$cu" -o "$out.tmp" || { rm -f "$out.tmp"; exit 1; }
	sed -e "s|\"$top/|\"|" -e 's|"/usr/local/cuda[^"]*/include/|"cuda/include/|' \
		"$out.tmp" > "$out" && rm -f "$out.tmp"
	echo "fixtures: $out"
done
