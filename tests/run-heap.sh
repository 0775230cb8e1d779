#!/bin/sh
# run-heap.sh - in-kernel malloc and free on both engines (issue 15 part 3), with
# tests/ptx/heap.ptx (nvcc 11.8's PTX of tests/ptx/heap.cu; its heap_list kernel is
# tests/ptx/heap.launch, which run-diff.sh runs at every threshold):
#   1. heap_exhaust: 80 threads asking for 8 blocks of 100 bytes each get 36 in all under
#      --heap-bytes 4096 (4096 / 112: blocks round to 16 bytes), every one 16-byte aligned,
#      on the oracle and on the SM model at predicate-max 0, 4 and inf, with --functional and
#      with --threads 2; all 640 with the default heap (8 MiB); none with --heap-bytes 0;
#   2. heap_aligned: __nv_aligned_device_malloc (nvcc's __cuda_syscall_aligned_malloc) at
#      alignments 16, 64 and 256 gives aligned blocks, and NULL at 48 and 3 (not powers of
#      two) on both engines; free(NULL) does nothing; an alignment of 64 asked where NULL is
#      expected makes every thread report -1 (the check can fail);
#   3. free of an address inside a block (heap_badfree, thread 3) and a second free of a
#      block (heap_twice, thread 5) stop the kernel with a located error on both engines
#      (exit 1), as a memory fault does (the SM model timed, where the calls are made at the
#      window's end, and with --functional, where they are made at issue).
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-heap.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=tests/ptx/heap.ptx
X="--kernel heap_exhaust --grid 2 --block 40 --arg buf:s32:2:zero --arg s32:8 --arg s32:100 --quiet"

# exhaust HEAP WANT ENGINE-OPTIONS...: granted and aligned blocks are both WANT
exhaust() {
	h=$1 want=$2
	shift 2
	# shellcheck disable=SC2086
	if "$BIN/warpsim" "$@" $P $X $h --out 0:"$T/x.txt" >"$T/x.err" 2>&1 &&
	   [ "$(tr '\n' ' ' <"$T/x.txt")" = "$want $want " ]; then
		ok
	else
		bad "heap_exhaust $h $*: got '$(tr '\n' ' ' <"$T/x.txt" 2>/dev/null)', want $want twice; $(head -1 "$T/x.err")"
	fi
}
exhaust "--heap-bytes 4096" 36 --oracle
for s in 0 4 inf; do
	exhaust "--heap-bytes 4096" 36 --predicate-max $s --predicate-max-uniform $s
done
exhaust "--heap-bytes 4096" 36 --functional
exhaust "--heap-bytes 4096" 36 --threads 2
exhaust "" 640 --oracle
exhaust "" 640
exhaust "--heap-bytes 0" 0 --oracle
exhaust "--heap-bytes 0" 0

# aligned ALIGN BAD KEEP WANT: thread t stores t (WANT ok) or -1 (WANT bad) on every engine
aligned() {
	for e in --oracle "" --functional; do
		# shellcheck disable=SC2086
		"$BIN/warpsim" $e $P --kernel heap_aligned --grid 1 --block 40 --arg buf:s32:40:zero \
			--arg s32:$1 --arg s32:$2 --arg s32:$3 --quiet --out 0:"$T/a.txt" >"$T/a.err" 2>&1
		rc=$?
		if [ "$4" = ok ]; then want=$(seq 0 39 | tr '\n' ' '); else want=$(yes -- -1 | head -40 | tr '\n' ' '); fi
		[ $rc = 0 ] && [ "$(tr '\n' ' ' <"$T/a.txt")" = "$want" ] && ok ||
			bad "heap_aligned $1 $2 $3 ($e): exit $rc, $(tr '\n' ' ' <"$T/a.txt" | cut -c1-40); $(head -1 "$T/a.err")"
	done
}
aligned 16 48 0 ok
aligned 64 3 0 ok
aligned 256 48 1 ok
aligned 64 64 0 bad

# badfree KERNEL THREAD: exit 1 with the located message on both engines
badfree() {
	for e in --oracle "" --functional; do
		# shellcheck disable=SC2086
		"$BIN/warpsim" $e $P --kernel $1 --grid 1 --block 32 --arg buf:s32:32:zero --quiet \
			>"$T/b.err" 2>&1
		rc=$?
		if [ "$e" != --oracle ]; then where="lane $2 (thread $2), pc 0x[0-9a-f]*: FREE"
		else where="thread ($2,0,0)"; fi
		if [ $rc = 1 ] && grep -q "error: free of 0x[0-9a-f]*, an address malloc did not return (or one freed already)" "$T/b.err" &&
		   grep -q "$where" "$T/b.err"; then
			ok
		else
			bad "$1 ($e): exit $rc: $(head -3 "$T/b.err")"
		fi
	done
}
badfree heap_badfree 3
badfree heap_twice 5
echo "run-heap: $pass passed, $fail failed"
[ "$fail" = 0 ]
