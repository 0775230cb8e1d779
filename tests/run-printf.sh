#!/bin/sh
# run-printf.sh - device printf on both engines (issue 15 part 2). tests/sim/printf.ptx (nvcc's
# PTX of tests/sim/printf.cu: every conversion with flags, widths, precisions and lengths,
# under divergence and in a loop) with --printf-tag:
#   1. the oracle's lines (thread order) equal tests/sim/printf.expect, read and checked by hand;
#   2. the SM model's lines at predicate-max 0, 4, 7 and inf are the same lines in the order its
#      warps ran them (sorted, they equal the oracle's), and printf's results (the --out
#      buffer: arguments consumed) equal the oracle's;
#   3. --printf-out FILE holds what standard output would;
#   4. a format the engines refuse ('%n') is a located error on both.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-printf.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=tests/sim/printf.ptx
args="--kernel show --grid 2 --block 8 --arg buf:s32:16:random:4:-500:500 --arg buf:s32:16:zero --quiet --printf-tag"

# shellcheck disable=SC2086
"$BIN/warpsim" --oracle $P $args --out 1:"$T/or.txt" >"$T/or.log" || bad "the oracle failed"
cmp -s "$T/or.log" tests/sim/printf.expect && ok || { bad "oracle lines differ from printf.expect"; diff tests/sim/printf.expect "$T/or.log" | head -5; }
sort "$T/or.log" >"$T/or.sorted"
for s in 0 4 7 inf; do
	# shellcheck disable=SC2086
	"$BIN/warpsim" $P $args --predicate-max $s --predicate-max-uniform $s --out 1:"$T/sm.txt" >"$T/sm.log" ||
		bad "SM model failed at $s"
	sort "$T/sm.log" | cmp -s - "$T/or.sorted" && cmp -s "$T/sm.txt" "$T/or.txt" && ok ||
		bad "SM model at predicate-max $s: lines or results differ from the oracle's"
done
# shellcheck disable=SC2086
"$BIN/warpsim" $P $args --out 1:"$T/sm.txt" --printf-out "$T/file.log" >"$T/stdout.log" &&
	[ ! -s "$T/stdout.log" ] && sort "$T/file.log" | cmp -s - "$T/or.sorted" && ok || bad "--printf-out"

# %n is refused, with the location, on both engines
sed 's/\$str\[59\]/$str[61]/' $P >"$T/n.ptx"
sed -i 's/116, 61, 37, 100, 32, 105, 61/37, 110, 116, 61, 37, 100, 32, 105, 61/' "$T/n.ptx"
for e in "" --oracle; do
	# shellcheck disable=SC2086
	"$BIN/warpsim" $e "$T/n.ptx" $args >/dev/null 2>"$T/n.err"
	rc=$?
	[ $rc = 1 ] && grep -q "printf: '%n' is not supported" "$T/n.err" && ok || bad "%n ($e): exit $rc: $(head -1 "$T/n.err")"
done
echo "run-printf: $pass passed, $fail failed"
[ "$fail" = 0 ]
