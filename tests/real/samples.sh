#!/bin/sh
# samples.sh DIR [BIN] - CUDA samples whose host code launches several kernels on the same
# device memory, run as that code launches them (docs/warpsim.md, "Several launches";
# tests/real/README.md, "Several launches"), from the PTX a compiler made of each sample
# (tests/real/compile.sh: DIR/samples-nvcc13, DIR/samples-clang, ...; never committed):
#   newdelete (3_CUDA_Features): main()'s three tests. "Container = Vector": a 128 MB heap,
#     d_container = cudaMalloc(8), vectorCreate<<<1,1>>>(d_container, 128*128) (a Vector<int>
#     and its array made with new), containerFill<<<128,128>>> (push through the vtable),
#     containerConsume<<<128,128>>>(d_container, d_result), containerDelete<<<1,1>>>; then
#     placementNew<<<1,1024>>> and complexVector<<<1,1024>>> (a Vector in shared memory).
#     Checked as its checkResult does: the results sorted are -1s, then 0, 1, 2, ... no gap.
#   scan (2_Concepts_and_Techniques): scanExclusiveLarge of 8 arrays of 2048 (its smallest
#     large size; main() scans 13 Mi elements): scanExclusiveShared<<<16,256>>>,
#     scanExclusiveShared2<<<1,256>>> into initScan's d_Buf, uniformUpdate<<<16,256>>>;
#     checked against scanExclusiveHost's exclusive sums of each array.
#   histogram (2_Concepts_and_Techniques): histogram64 and histogram256 of 1 MiB (main()
#     takes 64 MiB): histogram64Kernel<<<69,64>>> into the partial histograms of
#     initHistogram64, mergeHistogram64Kernel<<<64,256>>>; histogram256Kernel<<<240,192>>>,
#     mergeHistogram256Kernel<<<256,256>>>; checked against histogram64CPU and
#     histogram256CPU.
# Every sample runs on the oracle and on the SM model at every setting of tests/settings.sh;
# each engine's results must pass the sample's check, and the SM model's (sorted, for
# newdelete, whose pops race) must equal the oracle's. One line per sample, compiler and
# engine, then the SM model's cycles and warp instructions at the default setting; exit 1
# when a check fails.
dir=$1
BIN=${2:-bin}
top=$(cd "$(dirname "$0")/../.." && pwd)
ws=$(cd "$BIN" && pwd)/warpsim
[ -d "$dir" ] || { echo "usage: samples.sh CORPUS-DIR [BIN]" >&2; exit 2; }
. "$top/tests/settings.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-samples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# ---- the launches (the mangled names are the kernels of the samples' .cu files)
cat >"$tmp/newdelete-container.launch" <<'L'
heap-bytes 134217728
buf d_container=u64:1
buf d_result=s32:16384
kernel _Z12vectorCreatePP9ContainerIiEi
arg buf:d_container
arg s32:16384
kernel _Z13containerFillPP9ContainerIiE
grid 128
block 128
arg buf:d_container
kernel _Z16containerConsumePP9ContainerIiEPi
grid 128
block 128
arg buf:d_container
arg buf:d_result
kernel _Z15containerDeletePP9ContainerIiE
arg buf:d_container
out d_result:result.txt
L
for k in placementNew complexVector; do
	printf 'kernel _Z%d%sPi\nblock 1024\narg buf:s32:1024\nout 0:result.txt\n' ${#k} $k >"$tmp/newdelete-$k.launch"
done
cat >"$tmp/scan.launch" <<'L'
buf src=u32:16384:random:2009:0:65535
buf dst=u32:16384
buf d_Buf=u32:65536
kernel _Z19scanExclusiveSharedP5uint4S0_j
grid 16
block 256
arg buf:dst
arg buf:src
arg u32:1024
kernel _Z20scanExclusiveShared2PjS_S_jj
grid 1
block 256
arg buf:d_Buf
arg buf:dst
arg buf:src
arg u32:16
arg u32:2
kernel _Z13uniformUpdateP5uint4Pj
grid 16
block 256
arg buf:dst
arg buf:d_Buf
out src:src.txt
out dst:result.txt
L
# histo_launch BINS KERNEL MERGE PARTIALS BLOCK PARTIAL-WORDS DATA-ELEMENTS: histogramBINS of
# 1 MiB, a kernel filling the partial histograms, then their merge
histo_launch() {
	printf '%s\n' "buf data=u8:1048576:random:2009:0:255" "buf partial=u32:$6" "buf hist=u32:$1" \
		"kernel $2" "grid $4" "block $5" "arg buf:partial" "arg buf:data" "arg u32:$7" \
		"kernel $3" "grid $1" "block 256" "arg buf:hist" "arg buf:partial" "arg u32:$4" \
		"out data:src.bin" "out hist:result.txt" >"$tmp/histogram$1.launch"
}
histo_launch 64 _Z17histogram64KernelPjP5uint4j _Z22mergeHistogram64KernelPjS_j 69 64 2097152 65536
histo_launch 256 _Z18histogram256KernelPjS_j _Z23mergeHistogram256KernelPjS_j 240 192 61440 262144

# ---- the samples' checks: check_T DIR (0: as the sample's host code accepts it)
check_newdelete() {
	sort -n "$1/result.txt" >"$1/cmp" &&
	awk '$1 != -1 { t = 1 } t && $1 != v++ { bad = 1 } END { exit bad || !t }' "$1/cmp"
}
check_scan() {
	cp "$1/result.txt" "$1/cmp" &&
	awk 'NR == FNR { s[NR - 1] = $1; next }
	     { i = FNR - 1; if (i % 2048 == 0) acc = 0; if ($1 != acc) bad = 1; acc = (acc + s[i]) % 4294967296 }
	     END { exit bad || FNR != 16384 }' "$1/src.txt" "$1/result.txt"
}
# histo DIR SHIFT BINS: the bins of each byte >> SHIFT (histogram64CPU: (b >> 2) & 63)
histo() {
	cp "$1/result.txt" "$1/cmp" &&
	od -An -v -tu1 "$1/src.bin" | tr -s ' ' '\n' | sed '/^$/d' |
	awk -v sh="$2" -v n="$3" '{ h[int($1 / 2 ^ sh)]++ } END { for (i = 0; i < n; i++) print h[i] + 0 }' >"$1/want" &&
	cmp -s "$1/want" "$1/result.txt"
}
check_histogram64() { histo "$1" 2 64; }
check_histogram256() { histo "$1" 0 256; }

# run T CHECK PTX COMPILER: the oracle, then the SM model at every setting
run() {
	t=$1 ck=$2 ptx=$3 cc=$4
	d=$tmp/$cc-$t-oracle
	mkdir -p "$d"
	if (cd "$d" && "$ws" --oracle "$ptx" --launch "$tmp/$t.launch" --quiet) >"$d.err" 2>&1 && "$ck" "$d"; then
		echo "$t ($cc): oracle OK"
	else
		echo "$t ($cc): oracle NOT OK: $(head -1 "$d.err")"
		fail=1
	fi
	ok=0 all=0
	for s in $settings; do
		e=$tmp/$cc-$t-$s
		mkdir -p "$e"
		all=$((all + 1))
		# shellcheck disable=SC2086
		if (cd "$e" && "$ws" $(popts "$s") "$ptx" --launch "$tmp/$t.launch" --quiet) >"$e.err" 2>&1 &&
		   "$ck" "$e" && cmp -s "$d/cmp" "$e/cmp"; then
			ok=$((ok + 1))
		else
			printf '%s (%s): SM model at %s NOT OK%s\n' "$t" "$cc" "$s" \
			       "$(head -1 "$e.err" | sed 's/^./: &/')"
			fail=1
		fi
	done
	e=$tmp/$cc-$t-stats
	mkdir -p "$e"
	(cd "$e" && "$ws" "$ptx" --launch "$tmp/$t.launch" --stats-json s.json) >/dev/null 2>&1
	echo "$t ($cc): SM model OK at $ok of $all settings;" \
	     "$(sed -n 's/^  "\(gpu_sim_cycle\|gpgpu_n_tot_w_icount\)": \([0-9]*\),$/\1 \2/p' "$e/s.json" | tr '\n' ' ')"
}

for cdir in "$dir"/samples-*; do
	cc=$(basename "$cdir")
	cc=${cc#samples-}
	f=$cdir/Samples_3_CUDA_Features_newdelete_newdelete.ptx
	if [ -f "$f" ]; then
		for t in container placementNew complexVector; do run newdelete-$t check_newdelete "$f" "$cc"; done
	fi
	f=$cdir/Samples_2_Concepts_and_Techniques_scan_scan.ptx
	[ -f "$f" ] && run scan check_scan "$f" "$cc"
	for h in 64 256; do
		f=$cdir/Samples_2_Concepts_and_Techniques_histogram_histogram$h.ptx
		[ -f "$f" ] && run histogram$h check_histogram$h "$f" "$cc"
	done
done
exit $fail
