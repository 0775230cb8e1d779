#!/bin/sh
# run-assert.sh - device-side assert and trap keep what the kernel wrote (issue 15 part 4):
# tests/sim/assert.ptx (nvcc's PTX of tests/sim/assert.cu: every thread stores its slot, then
# thread 100 fails an assert) on the SM model and the oracle exits 1 with CUDA's message
# (tests/sim/assert*.errcase pin the whole of it) and still writes the --out buffer, which
# holds all 128 stores and is the same on both engines, at every predication threshold.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-assert.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
args="tests/sim/assert.ptx --kernel check --grid 1 --block 128 --arg buf:s32:128:zero --arg s32:100 --quiet"
msg='assert.cu:13: void check(int *, int): block: [0,0,0], thread: [100,0,0] Assertion `t < limit` failed.'
awk 'BEGIN { for (t = 0; t < 128; t++) print t * 3 }' >"$T/want"

for e in oracle 0 4 7 inf; do
	case $e in
	oracle) opt=--oracle ;;
	*) opt="--predicate-max $e --predicate-max-uniform $e" ;;
	esac
	# shellcheck disable=SC2086
	"$BIN/warpsim" $opt $args --out 0:"$T/got.txt" 2>"$T/err"
	rc=$?
	if [ $rc = 1 ] && grep -qF "$msg" "$T/err" && cmp -s "$T/want" "$T/got.txt"; then
		pass=$((pass + 1))
	else
		echo "FAIL: assert ($e): exit $rc"; head -3 "$T/err"; fail=$((fail + 1))
	fi
	rm -f "$T/got.txt"
done
echo "run-assert: $pass passed, $fail failed"
[ "$fail" = 0 ]
