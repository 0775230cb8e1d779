#!/bin/sh
# run-explain.sh - if-conversion and warpc --explain (issue 5) on the hand-made shapes of
# tests/explain/*.ptx:
#   1. `warpc --explain FILE` equals the golden FILE.explain (UPDATE=1 rewrites it; review
#      the diff) and the listing translates; the listing's guards, PSETPs and missing
#      branches are checked by tests/unit/test_ifconv.c, not pinned here, so that selection
#      and register-allocation changes elsewhere in backend/ do not break this test;
#   2. `warpc --explain=json` is accepted by the listing's own checks (well-formed, one
#      entry per text row);
#   3. every kernel runs on the SM model with the same output buffer as the PTX oracle at
#      thresholds 0, 1, 4, 7, 12 and inf (both --predicate-max and --predicate-max-uniform),
#      for a parameter n that takes and one that skips the uniform branches.
# The corpus side (tests/ptx) is covered by tests/run-diff.sh at the same thresholds and by
# tests/unit/test_ifconv.c (predicated branches are exactly the ones without a branch).
# env: BIN (warpc, warpsim)
BIN=${BIN:-bin}
top=$(cd "$(dirname "$0")/.." && pwd)
wc=$(cd "$BIN" && pwd)/warpc
ws=$(cd "$BIN" && pwd)/warpsim
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-explain.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

bad() {
	echo "FAIL $1: $2"
	[ -n "$3" ] && sed 's/^/    /' "$3" | head -20
	fail=$((fail + 1))
}

for ptx in "$top"/tests/explain/*.ptx; do
	name=$(basename "$ptx" .ptx)
	rel=tests/explain/$name.ptx
	# 1. golden report and listing (run from the top so the report names the file the same)
	if ! (cd "$top" && "$wc" --explain "$rel") > "$tmp/$name.explain" 2> "$tmp/$name.err"; then
		bad "$name" "warpc --explain failed" "$tmp/$name.err"; continue
	fi
	if ! (cd "$top" && "$wc" "$rel") > "$tmp/$name.sass" 2> "$tmp/$name.err"; then
		bad "$name" "warpc failed" "$tmp/$name.err"; continue
	fi
	for kind in explain; do
		gold=$top/tests/explain/$name.$kind
		if [ "${UPDATE:-0}" = 1 ]; then
			cp "$tmp/$name.$kind" "$gold"
		elif ! diff -u "$gold" "$tmp/$name.$kind" > "$tmp/$name.$kind.diff" 2>&1; then
			bad "$name" "$kind output changed:" "$tmp/$name.$kind.diff"; continue 2
		fi
	done
	# 2. JSON: one object per branch, every text row has one
	if ! (cd "$top" && "$wc" --explain=json "$rel") > "$tmp/$name.json" 2> "$tmp/$name.err"; then
		bad "$name" "warpc --explain=json failed" "$tmp/$name.err"; continue
	fi
	nj=$(grep -c '"ptx_line"' "$tmp/$name.json")
	nt=$(grep -c '^  #[0-9][0-9]* *[0-9][0-9]*:[0-9]' "$tmp/$name.explain")
	if [ "$nj" != "$nt" ] || ! head -1 "$tmp/$name.json" | grep -q '"schema": "warpsim-explain/1"'; then
		bad "$name" "JSON has $nj branches, the report $nt"; continue
	fi
	# 3. results never depend on the threshold
	why=""
	for k in $(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' "$ptx"); do
		for n in 3 20; do
			launch="--kernel $k --grid 2 --block 64 --arg buf:u32:128:zero --arg u32:$n --quiet"
			"$ws" --oracle "$ptx" $launch --out "0:$tmp/o.txt" > "$tmp/o.err" 2>&1 ||
				{ why="the oracle failed on $k"; break 2; }
			for t in 0 1 4 7 12 inf; do
				if ! "$ws" "$ptx" $launch --predicate-max $t --predicate-max-uniform $t \
				     --out "0:$tmp/s.txt" > "$tmp/s.err" 2>&1; then
					why="$k fails on the SM model at threshold $t: $(head -1 "$tmp/s.err")"; break 3
				fi
				cmp -s "$tmp/o.txt" "$tmp/s.txt" ||
					{ why="$k (n=$n) differs from the oracle at threshold $t"; break 3; }
			done
		done
	done
	if [ -n "$why" ]; then
		bad "$name" "$why"
		continue
	fi
	echo "PASS $name"
	pass=$((pass + 1))
done
echo "run-explain: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
