#!/bin/sh
# generate.sh - `make ptxas-reference`: NVIDIA's ptxas 11.8 listings for sm_35 of our corpus.
#
# 1. Unpacks NVIDIA's CUDA 11.8 toolkit (Debian 12 non-free: nvidia-cuda-toolkit and
#    nvidia-cuda-dev) into a cache folder, once, without installing anything: apt-get download
#    through a private sources list that adds non-free to this machine's own Debian mirror, then
#    dpkg-deb -x. CUDA118=DIR overrides the folder (default ~/.cache/warpsim/cuda118).
# 2. Compiles tests/cuda/*.cu with that toolkit's nvcc for sm_35 into tests/ptx/NAME.sm35.ptx
#    (the PTX a Kepler-era user had), with NAME.launch beside it.
# 3. Retargets every tests/ptx/*.ptx and tests/workloads/*.ptx (and tests/ptxas-ref/families/*.ptx,
#    the generated hammock families, whose listings go beside them) to `.target sm_35` and
#    `.version 7.8`, compiles it with
#    `ptxas -arch sm_35 -v`, disassembles it with `cuobjdump -sass`, and writes
#    tests/ptxas-ref/NAME.sass: the disassembly as cuobjdump printed it, the ptxas -v lines as
#    comments, and after each `.headerflags` line what a run needs that -sass does not print
#    (elfinfo.awk: parameters, register count, literal pool, globals and their relocations).
#    Files ptxas refuses are listed with its first error in tests/ptxas-ref/refused.txt; files
#    whose cubin elfinfo.awk cannot carry over get no listing and a line with the reason in
#    tests/ptxas-ref/uncarried.txt (the run goes on). Each listing is written whole, then moved
#    in: a run that stops partway leaves the listings it did not remake untouched.
#    tests/sass/*.ptx (small kernels written for one construct of ptxas's sm_35 code each;
#    tests/sass/README.md) are compiled likewise, their listings beside them.
#
# `generate.sh FILE.ptx...` does step 3 for those files only (their listings, no refused.txt,
# uncarried.txt or removal of stale listings): how a new tests/sass fixture gets its listing.
#
# Only ptxas's output for our own kernels is written into the tree; NVIDIA's files stay in the
# cache. Never part of `make check` (which needs no NVIDIA tool). tests/ptxas-ref/README.md.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
cache=${CUDA118:-${XDG_CACHE_HOME:-$HOME/.cache}/warpsim/cuda118}
ref=tests/ptxas-ref

# ---------------------------------------------------------------- 1. the toolkit
. tests/ptxas-ref/listing.sh
ptxas_toolkit

# nvcc reads nvcc.profile beside itself; the package's is a link to /etc/nvcc.profile, so a
# copy of nvcc gets its own profile pointing into the cache
nvdir=$cache/warpsim-nvcc
if [ ! -x "$nvdir/nvcc" ]; then
	mkdir -p "$nvdir"
	cp "$cache/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$nvdir/nvcc"
	cat > "$nvdir/nvcc.profile" <<EOF
TOP = $cache/usr
NVVMIR_LIBRARY_DIR = \$(TOP)/lib/nvidia-cuda-toolkit/libdevice
PATH += \$(TOP)/lib/nvidia-cuda-toolkit/bin:\$(TOP)/bin:
INCLUDES += "-I\$(TOP)/include" \$(_SPACE_)
LIBRARIES =+ \$(_SPACE_) "-L\$(TOP)/lib/x86_64-linux-gnu"
CUDAFE_FLAGS +=
PTXAS_FLAGS +=
EOF
fi

tmp=$(mktemp -d)
new=
trap 'rm -rf "$tmp"; [ -z "$new" ] || rm -f "$new"' EXIT
trap 'exit 1' INT TERM
only=$#

# ---------------------------------------------------------------- 2. Kepler-era PTX
[ $only != 0 ] || for cu in tests/cuda/*.cu; do
	name=$(basename "$cu" .cu)
	out=tests/ptx/$name.sm35.ptx
	if "$nvdir/nvcc" -ptx -arch=sm_35 -Wno-deprecated-gpu-targets -ccbin "$(command -v gcc)" \
	    -allow-unsupported-compiler "$cu" -o "$tmp/$name.ptx" 2> "$tmp/$name.err"; then
		cp "$tmp/$name.ptx" "$out"
		echo "ptxas-reference: $out"
	else
		echo "ptxas-reference: nvcc 11.8 refuses $cu for sm_35: $(grep -m 1 -i error "$tmp/$name.err")"
	fi
done

# ---------------------------------------------------------------- 3. ptxas's listings
# Each listing is made whole in $tmp and only then moved over the checked-in one, so a run
# that stops partway leaves every listing it did not remake as it was. A kernel whose cubin
# elfinfo.awk cannot carry over (a relocation it does not know, ...) is no listing: it is
# reported with the reason, kept in uncarried.txt and named in the summary, and the run goes on.
: > "$tmp/refused"
: > "$tmp/uncarried"
: > "$tmp/written"
[ $only != 0 ] || set -- tests/ptx/*.ptx tests/workloads/*.ptx "$ref"/families/*.ptx tests/sass/*.ptx
for ptx in "$@"; do
	[ -f "$ptx" ] || continue
	name=$(basename "$ptx" .ptx)
	out=$ref/$name.sass
	case $ptx in "$ref"/families/*|tests/sass/*) out=${ptx%.ptx}.sass ;; esac
	st=0
	ptxas_listing "$ptx" "$name" || st=$?
	if [ "$st" = 1 ]; then
		echo "${ptx#tests/}: $why" >> "$tmp/refused"
		echo "ptxas-reference: ptxas refuses $ptx"
		continue
	fi
	if [ "$st" != 0 ]; then
		echo "${ptx#tests/}: $why" >> "$tmp/uncarried"
		echo "ptxas-reference: no listing of $ptx: $why"
		continue
	fi
	new=$out.new
	cp "$tmp/$name.listing" "$new"
	mv -f "$new" "$out"
	new=
	echo "$out" >> "$tmp/written"
	echo "ptxas-reference: $out"
done
if [ $only != 0 ]; then      # the files named: each has a listing, or the run fails
	! [ -s "$tmp/refused" ] && ! [ -s "$tmp/uncarried" ]
	exit
fi
# the whole corpus went through: a listing this run did not write (its PTX is gone, ptxas now
# refuses it, or it can no longer be carried over) is stale
for s in "$ref"/*.sass "$ref"/families/*.sass tests/sass/*.sass; do
	[ -f "$s" ] || continue
	grep -qxF "$s" "$tmp/written" || { rm -f "$s"; echo "ptxas-reference: removed stale $s"; }
done
{
	echo "# corpus files ptxas ($version) refuses for sm_35, with its first error"
	echo "# (written by make ptxas-reference; tests/ptxas-ref/README.md explains each)"
	cat "$tmp/refused"
} > "$ref/refused.txt"
{
	echo "# corpus files ptxas ($version) compiles for sm_35 whose cubin generate.sh cannot carry"
	echo "# over into a listing, with why (written by make ptxas-reference; README.md)"
	cat "$tmp/uncarried"
} > "$ref/uncarried.txt"
echo "ptxas-reference: $(wc -l < "$tmp/written") listings written, $(wc -l < "$tmp/refused") files refused by ptxas (refused.txt), $(wc -l < "$tmp/uncarried") without a listing (uncarried.txt)"
if [ -s "$tmp/uncarried" ]; then
	echo "ptxas-reference: compiled but not carried over, so without a listing:"
	sed 's/^/    /' "$tmp/uncarried"
fi
