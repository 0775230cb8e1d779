#!/bin/sh
# run-gen-shrink.sh - the shrinker's own test: with a deliberately broken SM model
# (fuzzdiff/fake-sm.sh: outputs differ whenever the program holds bfe.s32), shrink.sh must
# cut a large generated program down to the single statement holding bfe.s32 (plus the
# blocks around it), and save .ptx, .launch and .note; drop lists must reproduce it.
BIN=${BIN:-bin}; BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-shrink.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
GEN=$BUILD/tests/tools/gen
[ -x "$GEN" ] || { echo "run-gen-shrink.sh: $GEN is missing: build the test tools first (make tests)" >&2; exit 1; }
fail() { echo "run-gen-shrink: FAIL: $*"; exit 1; }

# a seed whose program holds bfe.s32 more than once
seed=1
while [ $seed -lt 200 ]; do
	[ "$("$GEN" --seed $seed | grep -c 'bfe\.s32')" -ge 2 ] && break
	seed=$((seed + 1))
done
[ $seed -lt 200 ] || fail "no seed with two bfe.s32 in 1..199"
before=$("$GEN" --seed $seed --count)
WARPSIM_SM=$here/fuzzdiff/fake-sm.sh FAKE_BUG=bfe.s32 REGRESS=$tmp BIN=$BIN BUILD=$BUILD \
	sh "$here/fuzzdiff/shrink.sh" $seed 7 gto >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "shrink.sh failed"; }
p=$tmp/gen-$seed.ptx
[ -f "$p" ] && [ -f "$tmp/gen-$seed.launch" ] && [ -f "$tmp/gen-$seed.note" ] || fail "nothing saved"
[ "$(grep -c 'bfe\.s32' "$p")" = 1 ] || fail "the shrunk program should hold one bfe.s32"
kept=$(sed -n 's/^shrunk: [0-9]* nodes to \([0-9]*\) .*/\1/p' "$tmp/gen-$seed.note")
[ -n "$kept" ] && [ "$kept" -le 7 ] || fail "kept $kept of $before nodes (expected at most 7)"
drop=$(sed -n 's/^drop: //p' "$tmp/gen-$seed.note")
"$GEN" --seed $seed --drop "$drop" | cmp -s - "$p" || fail "the drop list does not reproduce the program"
bin=$(cd "$BIN" && pwd)
(cd "$tmp" && "$bin/warpsim" --oracle --quiet "$p" --launch "$tmp/gen-$seed.launch") >/dev/null 2>&1 ||
	fail "the shrunk program does not run on the oracle"
echo "run-gen-shrink: ok (seed $seed: $(sed -n 's/^shrunk: //p' "$tmp/gen-$seed.note"))"
