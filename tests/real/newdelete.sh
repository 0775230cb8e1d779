#!/bin/sh
# newdelete.sh PTX [BIN] - CUDA sample 3_CUDA_Features/newdelete (NVIDIA/cuda-samples,
# Samples/3_CUDA_Features/newdelete) run as its main() runs it, from the PTX a compiler made
# of newdelete.cu (tests/real/README.md, "Several launches"; the PTX is never committed):
#   1. "Container = Vector": a 128 MB heap, d_container = cudaMalloc(8), then four launches on
#      that memory: vectorCreate<<<1,1>>>(d_container, 128*128) (new Vector<int>, its data
#      array new int[16384]), containerFill<<<128,128>>> (push through the vtable),
#      containerConsume<<<128,128>>>(d_container, d_result), containerDelete<<<1,1>>>;
#   2. placementNew<<<1,1024>>>(d_result), a Vector placed in shared memory;
#   3. complexVector<<<1,1024>>>(d_result), the same with a struct element.
# Each test is checked as the sample's checkResult does (the results sorted: after the -1s,
# 0, 1, 2, ... with no gap) on the oracle and on the SM model at every setting of
# tests/settings.sh, and the SM model's sorted results must equal the oracle's. Prints one
# line per test and engine, then the SM model's cycles at the default setting; exits 1 when
# any check fails.
ptx=$1
BIN=${2:-bin}
top=$(cd "$(dirname "$0")/../.." && pwd)
ws=$(cd "$BIN" && pwd)/warpsim
[ -f "$ptx" ] || { echo "usage: newdelete.sh NEWDELETE.ptx [BIN]" >&2; exit 2; }
ptx=$(cd "$(dirname "$ptx")" && pwd)/$(basename "$ptx")
. "$top/tests/settings.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-newdelete.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

cat >"$tmp/container.launch" <<'L'
# main(): cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 MB); cudaMalloc(&d_container, 8)
heap-bytes 134217728
buf d_container=u64:1
# testContainer's cudaMalloc(&d_result, blocks * threads * 4)
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
	printf 'kernel _Z%d%sPi\nblock 1024\narg buf:s32:1024\nout 0:result.txt\n' ${#k} $k >"$tmp/$k.launch"
done

# check DIR: the sample's checkResult on DIR/result.txt (sorted: -1s, then 0, 1, 2, ...)
check() {
	sort -n "$1/result.txt" >"$1/sorted" &&
	awk '$1 != -1 { t = 1 } t && $1 != v++ { bad = 1 } END { exit bad || !t }' "$1/sorted"
}

for t in container placementNew complexVector; do
	d=$tmp/$t-oracle
	mkdir -p "$d"
	if (cd "$d" && "$ws" --oracle "$ptx" --launch "$tmp/$t.launch" --quiet) >"$d.err" 2>&1 && check "$d"; then
		echo "$t: oracle OK ($(grep -vc '^-1$' "$d/sorted") values)"
	else
		echo "$t: oracle NOT OK: $(head -1 "$d.err")"
		fail=1
	fi
	for s in $settings; do
		e=$tmp/$t-$s
		mkdir -p "$e"
		# shellcheck disable=SC2086
		if (cd "$e" && "$ws" $(popts "$s") "$ptx" --launch "$tmp/$t.launch" --quiet) >"$e.err" 2>&1 &&
		   check "$e" && cmp -s "$d/sorted" "$e/sorted"; then
			printf '%s: SM model at %s OK\n' "$t" "$s"
		else
			printf '%s: SM model at %s NOT OK: %s\n' "$t" "$s" "$(head -1 "$e.err")"
			fail=1
		fi
	done
	e=$tmp/$t-stats
	mkdir -p "$e"
	(cd "$e" && "$ws" "$ptx" --launch "$tmp/$t.launch" --stats-json s.json) >/dev/null 2>&1
	echo "$t: $(sed -n 's/^  "\(gpu_sim_cycle\|gpgpu_n_tot_w_icount\)": \([0-9]*\),$/\1 \2/p' "$e/s.json" | tr '\n' ' ')"
done
exit $fail
