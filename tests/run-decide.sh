#!/bin/sh
# run-decide.sh - `--decide LOC=pred|branch` (issue 18 part 1): one branch's decision forced.
#   1. every LOC form (#N, a PTX line, PTX FILE:LINE, CUDA FILE:LINE, a label) names the
#      branch --explain lists, and the report says the decision was forced;
#   2. forcing either way on every hammock of the demo and of tests/explain/nested.ptx leaves
#      the PTX oracle's memory on the SM model (warpsim takes the option for PTX input, also
#      as a line of a --launch file) and changes the listing;
#   3. what cannot be forced is a located error with --explain's reason (exit 1): a side
#      that holds a loop, a branch fold_exits made a guarded EXIT, a LOC that names no branch,
#      a branch forced both ways; a malformed value is a command-line error (exit 2).
# env: BIN (warpc, warpsim)
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-decide.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
D=examples/divergence
# row N: the --explain row of branch #N
row() { "$BIN/warpc" --explain $D.ptx "$@" | grep "^  #$N "; }

# 1. the forms: #3 is PTX line 70, divergence.cu:26, the bra to $L__BB0_5
for loc in '#3' 70 divergence.ptx:70 examples/divergence.ptx:70 divergence.cu:26 '$L__BB0_5'; do
	N=3
	if row --decide "$loc=pred" | grep -q "predicated by --decide $loc (cost 30, --predicate-max 7)"; then
		ok
	else
		bad "--decide $loc=pred does not predicate branch #3"
	fi
done
N=2
row --decide '#2=branch' | grep -q ' ssy  *kept by --decide #2 (cost 7, --predicate-max 7); SSY at' && ok ||
	bad "--decide #2=branch does not keep branch #2"
"$BIN/warpc" --explain=json $D.ptx | grep -q '"index": 3, "ptx_line": 70,' && ok || bad "--explain=json has no index"

# 2. memory against the oracle, forced both ways
"$BIN/warpsim" --oracle $D.ptx --launch $D.launch --out 1:"$T/o1.txt" --out 2:"$T/o2.txt" --quiet ||
	bad "the oracle failed on the demo"
"$BIN/warpc" $D.ptx > "$T/plain.sass"
for dec in '#2=branch' '#3=pred' '#2=branch --decide #3=pred'; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $D.ptx --launch $D.launch --decide $dec --out 1:"$T/s1.txt" --out 2:"$T/s2.txt" --quiet &&
	   cmp -s "$T/o1.txt" "$T/s1.txt" && cmp -s "$T/o2.txt" "$T/s2.txt" &&
	   "$BIN/warpc" $D.ptx --decide $dec > "$T/forced.sass" && ! cmp -s "$T/plain.sass" "$T/forced.sass"; then
		ok
	else
		bad "--decide $dec: the SM model differs from the oracle, or the listing did not change"
	fi
done
# as a line of a launch file: the same cycles as on the command line
{ cat $D.launch; echo "--decide 70=pred"; } > "$T/d.launch"   # ('#' starts a comment there)
a=$("$BIN/warpsim" $D.ptx --launch "$T/d.launch" --quiet --stats-json /dev/stdout | grep gpu_sim_cycle)
b=$("$BIN/warpsim" $D.ptx --launch $D.launch --decide '#3=pred' --quiet --stats-json /dev/stdout | grep gpu_sim_cycle)
c=$("$BIN/warpsim" $D.ptx --launch $D.launch --quiet --stats-json /dev/stdout | grep gpu_sim_cycle)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ] && ok || bad "--decide in a launch file: '$a' '$b' '$c'"
# every hammock of nested.ptx forced each way, on its own kernel: the oracle's memory
P=tests/explain/nested.ptx
"$BIN/warpc" --explain $P | awk '/^[a-z_0-9]+ \(/ { k = $1 } /^  #[0-9]/ { print k, substr($1, 2) }' > "$T/pairs"
[ -s "$T/pairs" ] || bad "nested.ptx: no branch listed"
while read -r kern k; do
	args="--kernel $kern --grid 1 --block 64 --arg buf:s32:64:zero --arg s32:5"
	# shellcheck disable=SC2086
	"$BIN/warpsim" --oracle $P $args --out 0:"$T/no.txt" --quiet || bad "nested $kern: the oracle failed"
	for how in pred branch; do
		if ! "$BIN/warpc" $P --decide "#$k=$how" > /dev/null 2> "$T/e"; then
			grep -q "error: --decide #$k=pred: the branch cannot be predicated: " "$T/e" && ok ||
				bad "nested #$k=$how: $(head -1 "$T/e")"
			continue
		fi
		# shellcheck disable=SC2086
		"$BIN/warpsim" $P $args --decide "#$k=$how" --out 0:"$T/ns.txt" --quiet &&
			cmp -s "$T/no.txt" "$T/ns.txt" && ok || bad "nested $kern #$k=$how differs from the oracle"
	done
done < "$T/pairs"

# 3. what cannot be forced
err() {   # err STATUS PATTERN ARGS...: warpc fails with STATUS and the message matches
	st=$1 pat=$2; shift 2
	"$BIN/warpc" "$@" > /dev/null 2> "$T/e"
	r=$?
	[ "$r" = "$st" ] && grep -q -- "$pat" "$T/e" && ok || bad "warpc $*: status $r, $(head -1 "$T/e")"
}
err 1 "examples/divergence.ptx:125:7: error: --decide 125=pred: the branch cannot be predicated: a side holds a loop" $D.ptx --decide 125=pred
err 1 "examples/divergence.ptx:39:7: error: --decide #1: the branch only ends the thread and became a guarded EXIT" $D.ptx --decide '#1=branch'
err 1 "error: --decide 99=pred: no conditional branch of the module is at '99'" $D.ptx --decide 99=pred
err 1 "error: --decide 40=pred: no conditional branch" $D.ptx --decide 40=pred
err 1 "examples/divergence.ptx:70:7: error: --decide #3 and --decide divergence.cu:26 force this branch both ways" $D.ptx --decide '#3=pred' --decide divergence.cu:26=branch
err 2 "expected LOC=pred or LOC=branch, got '70=yes'" $D.ptx --decide 70=yes
err 2 "expected #N=... with a branch number N from 1, got '#0=pred'" $D.ptx --decide '#0=pred'
err 2 "expected LOC=pred or LOC=branch, got 'pred'" $D.ptx --decide pred
"$BIN/warpsim" $D.ptx --launch $D.launch --decide 125=pred --quiet 2> "$T/e"
[ $? = 1 ] && grep -q "125:7: error: --decide 125=pred: the branch cannot be predicated" "$T/e" && ok ||
	bad "warpsim --decide 125=pred: $(head -1 "$T/e")"

echo "run-decide: $pass passed, $fail failed"
[ "$fail" = 0 ]
