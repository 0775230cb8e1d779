#!/bin/sh
# run-explore.sh - warpsim --explore (issue 18 part 2): the program as compiled and each
# branch with only its decision flipped.
#   1. on the demo: a row per executed branch with its executions, divergence and lanes; the
#      flips' cycle and warp-instruction deltas equal those of separate runs with --decide;
#      the branches that cannot flip say why; every variant leaves the same memory;
#   2. -j 1 and -j 2 print the same table; --explore-json holds the same numbers;
#   3. the best decision vector and the rules' regret, by every combination and by coordinate
#      descent; a branch that never runs is listed as such (tests/explain/nested.ptx, n = 0);
#   4. sharded: --shard I/N slices merged with --explore-merge give one process's table and JSON;
#      a missing, doubled, unreadable or foreign slice is refused;
#   5. what --explore refuses: a listing, sweep options beside it, --explore-json alone, a
#      slice without its --sweep-json, --explore-merge alone or with an empty name.
# env: BIN (warpsim), BUILD (tests/tools/exploresum)
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-explore.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
name=run-explore
. "$(dirname "$0")/expect.sh"
D=examples/divergence
W="$BIN/warpsim"
cyc() { statistic gpu_sim_cycle "$W" $D.ptx --launch $D.launch "$@"; }
wi() { statistic gpgpu_n_tot_w_icount "$W" $D.ptx --launch $D.launch "$@"; }

# 1.
"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --explore -j 2 \
	--explore-json "$T/x.json" > "$T/x1.txt" 2> "$T/err" || bad "--explore failed: $(head -3 "$T/err")"
base=$(cyc) bw=$(wi)
grep -q "as compiled: $base cycles, $bw warp instructions" "$T/x1.txt" && ok || bad "the compiled run's figures"
for r in "2 predicated branch" "3 ssy pred"; do
	set -- $r
	c=$(cyc --decide "#$1=$3") w=$(wi --decide "#$1=$3")
	dc=$((c - base)) dw=$((w - bw))
	[ $dc -ge 0 ] && dc="\\+$dc"     # (escaped for grep -E)
	[ $dw -ge 0 ] && dw="\\+$dw"
	if grep -E "^  #$1 +[0-9]+:[0-9]+ +divergence.cu:[0-9]+ +$2 +$3 +8 +100.0% +[0-9.]+/[0-9.]+ +$dc \([-+][0-9.]+%\) +$dw " "$T/x1.txt" >/dev/null; then
		ok
	else
		bad "branch #$1: expected d.cycles $dc, d.warp-insts $dw"; grep "^  #$1 " "$T/x1.txt"
	fi
done
# where each flip's cycles went: its run's warp instructions and stall_* counts less the
# program as compiled's, as separate runs with --decide count them, in the table, the JSON and
# adding up to fermi.cfg's 30 schedulers times d.cycles
stalls="stall_raw_alu stall_raw_mem stall_pipe_busy stall_control stall_barrier stall_idle"
sdiff() {   # sdiff ARGS...: the run's warp instructions and stalls less the compiled run's
	"$W" $D.ptx --launch $D.launch "$@" --quiet --stats-json "$T/st.json" > /dev/null 2>&1
	for k in gpgpu_n_tot_w_icount $stalls; do
		v=$(sed -n "s/.*\"$k\": \([0-9]*\).*/\1/p" "$T/st.json") b=$(sed -n "s/.*\"$k\": \([0-9]*\).*/\1/p" "$T/st0.json")
		printf ' %+d' $((v - b))
	done
}
"$W" $D.ptx --launch $D.launch --quiet --stats-json "$T/st0.json" > /dev/null 2>&1
grep -q "^  where d.cycles went, in scheduler-cycles" "$T/x1.txt" &&
	grep -q '^    #    issued raw_alu raw_mem pipe_busy control barrier *idle$' "$T/x1.txt" && ok ||
	bad "the where table's head: $(grep -A4 'where d.cycles' "$T/x1.txt")"
for r in "2 branch" "3 pred"; do
	set -- $r
	i=$1 want=$(sdiff --decide "#$1=$2")
	got=$(grep "^    #$1 " "$T/x1.txt" | sed "s/^    #$1 *//" | tr -s ' ' | sed 's/^/ /')
	dc=$(( $(cyc --decide "#$1=$2") - base ))
	sum=$(echo "$got" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }')
	set -- $want
	js="\"delta_stalls\": {\"raw_alu\": $(($2)), \"raw_mem\": $(($3)), \"pipe_busy\": $(($4)), \"control\": $(($5)), \"barrier\": $(($6)), \"idle\": $(($7))}"
	[ "$got" = "$want" ] && [ "$sum" = $((30 * dc)) ] && grep -q "\"index\": $i,.*$js, \"pays\"" "$T/x.json" &&
		ok || bad "where #$r's cycles went: expected '$want' (30 x $dc), got '$got' (sum $sum)"
done
grep -q '^  #4 .* the branch cannot be predicated: a side holds a loop$' "$T/x1.txt" && ok || bad "#4's reason"
grep -q '^  #1 .* became a guarded EXIT; neither decision applies$' "$T/x1.txt" && ok || bad "#1's reason"
grep -q 'every variant left the same memory as the program as compiled (2 buffers compared)' "$T/x1.txt" && ok ||
	bad "the memory line"
[ ! -e "$T/a.decide-#3=pred.txt" ] && ok || bad "--explore kept the variants' buffers"

# 2.
"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --explore -j 1 > "$T/x2.txt" 2>&1 &&
	cmp -s "$T/x1.txt" "$T/x2.txt" && ok || bad "-j 1 and -j 2 differ"
grep -q '"schema": "warpsim-explore/1"' "$T/x.json" &&
	grep -q "\"index\": 3, .*\"flip\": \"pred\", .*\"delta_cycles\": $(( $(cyc --decide '#3=pred') - base )), " "$T/x.json" &&
	[ "$(grep -c '"index"' "$T/x.json")" = 5 ] && ok || bad "--explore-json"

# the search: every combination of #2 and #3 (4 vectors), the best one's cycles as a direct
# run gives them, the regret of the rules against the best run; coordinate descent (with
# --explore-exhaustive 1) reaches the same vector here
best=$(cyc --decide '#2=pred,#3=pred') inf=$(cyc --predicate-max inf --predicate-max-uniform inf)
b=$best; [ "$inf" -lt "$b" ] && b=$inf
reg=$(awk -v c="$base" -v b="$b" 'BEGIN { printf "%+.2f%%", 100 * (c - b) / b }')
grep -q "^  best decisions (every combination over 2 branches, 4 vectors translated, 4 feasible): #2=pred,#3=pred: $best cycles" "$T/x1.txt" &&
	grep -q "^    as compiled $reg  fermi $reg  kepler " "$T/x1.txt" && grep -q ' inf: +0.00%$' "$T/x1.txt" && ok ||
	bad "the search: best $best, regret $reg: $(grep -A5 'best decisions' "$T/x1.txt")"
"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --explore --explore-exhaustive 1 > "$T/x3.txt" 2>&1 &&
	grep -q "^  best decisions (coordinate descent over 2 branches, [0-9]* vectors translated, [0-9]* feasible): #2=pred,#3=pred: $best cycles" "$T/x3.txt" &&
	ok || bad "coordinate descent: $(grep 'best decisions' "$T/x3.txt")"
grep -q '"search": {"method": "exhaustive", "branches": \[2, 3\], "tried": 4, "feasible": 4, "best": "#2=pred,#3=pred"' "$T/x.json" &&
	[ "$(grep -c '"regret_pct"' "$T/x.json")" = 20 ] && ok || bad "--explore-json's search and rules"

# the static cost model: --explain's cycles per warp execution (fermi.cfg: issue 2, ctrl 10:
# #2 predicated 2*7 = 14, branched 2*(7+3) + 2*10 = 40; kepler.cfg: issue 1, ctrl 6), and
# how it fares against the two flips
"$BIN/warpc" --explain $D.ptx | grep -q '^  #2 55:7 .* 0    7   14/40 divergent' &&
	"$BIN/warpc" --explain $D.ptx --config sim/configs/kepler.cfg | grep -q '^  #2 55:7 .* 0    7    7/22 divergent' &&
	grep -q '^  static cost model (--explain.s, times the executions): right about whether the flip pays for 2 of 2 branches; correlation with d.cycles 1.00$' "$T/x1.txt" &&
	grep -E -q '"cost_pred": 14, "cost_branch": 40, "predicted_delta_cycles": 208, "listing_delta": -?[0-9]+, "model_delta_warp_insts": -?[0-9]+, "model_delta_cycles": -?[0-9]+, "model_account": "[^"]*", "delta_cycles": 9,' "$T/x.json" && ok ||
	bad "the cost model: $(grep 'cost model' "$T/x1.txt")"

# the model (docs/explore.md, "The model"): #2 is a predicated if-then; its listing as a
# branch has D more instructions (warpc's listings of both forms); a warp that jumps whole
# skips its fall-through side of 7, so the branch issues e * D - w * 7 more, from its counts
# in the JSON; in cycles at the run's cycles per warp instruction; the table's model column
# and line agree
nins() { "$BIN/warpc" $D.ptx "$@" | grep -c '^ *\/\*[0-9a-f]*\*\/ '; }
D2=$(( $(nins --decide '#2=branch') - $(nins) ))
line=$(grep '"index": 2,' "$T/x.json")
e=$(echo "$line" | sed -n 's/.*"execs": \([0-9]*\).*/\1/p')
w=$(echo "$line" | sed -n 's/.*"whole_jumps": \([0-9]*\).*/\1/p')
mw=$(( e * D2 - w * 7 ))
mc=$(awk -v m=$mw -v c=$base -v n=$bw 'BEGIN { printf "%.0f", m * c / n }')
[ -n "$e" ] && [ -n "$w" ] && [ "$D2" -gt 0 ] &&
	echo "$line" | grep -q "\"listing_delta\": $D2, \"model_delta_warp_insts\": $mw, \"model_delta_cycles\": $mc," &&
	grep -E -q "^  #2 .* \+$mc no$" "$T/x1.txt" &&
	grep -q "^  model (this run.s branch counts and both listings, at $(awk -v c=$base -v n=$bw 'BEGIN { printf "%.2f", c / n }') cycles a warp instruction): right about whether the flip pays for 2 of 2 branches" "$T/x1.txt" &&
	ok || bad "the model: expected $D2 more instructions, $mw warp instructions, $mc cycles: $line"
# and its account of them: the executions that split, jumped whole and fell through whole, and
# what each issues more as a branch
d=$(echo "$line" | sed -n 's/.*"diverged": \([0-9]*\).*/\1/p')
acc=
[ "$d" -gt 0 ] && acc="$d split, +$D2 each"
[ "$w" -gt 0 ] && acc="${acc:+$acc; }$w jumped whole, $(printf '%+d' $((D2 - 7))) each"
[ $((e - d - w)) -gt 0 ] && acc="${acc:+$acc; }$((e - d - w)) fell through whole, +$D2 each"
echo "$line" | grep -q "\"model_account\": \"$acc\"" && ok || bad "the model's account: expected '$acc': $line"

# a .func called by two kernels, both launched: each kernel's listing holds a copy of it, and
# a warp of either issues one copy's difference, so listing_delta is one kernel's (not the sum
# of both), and here the model counts the measured d.warp-insts exactly
S=tests/explore/shared_func.ptx
sa="--buf o=u32:256:zero --kernel k1 --grid 2 --block 64 --arg buf:o --kernel k2 --grid 2 --block 64 --arg buf:o --out o:$T/o.bin"
"$W" $S $sa --explore -j 1 --explore-json "$T/sf.json" > /dev/null 2>&1 || bad "--explore of $S failed"
D1=$(( $("$BIN/warpc" $S --kernel k1 --decide '#1=branch' | grep -c '^ *\/\*[0-9a-f]*\*\/ ') - $("$BIN/warpc" $S --kernel k1 | grep -c '^ *\/\*[0-9a-f]*\*\/ ') ))
line=$(grep '"index": 1,' "$T/sf.json")
mw=$(echo "$line" | sed -n 's/.*"model_delta_warp_insts": \(-*[0-9]*\).*/\1/p')
dw=$(echo "$line" | sed -n 's/.*"delta_warp_insts": \(-*[0-9]*\).*/\1/p')
[ "$D1" -gt 0 ] && echo "$line" | grep -q "\"kernel\": \"k1\".*\"listing_delta\": $D1," &&
	[ -n "$mw" ] && [ "$mw" = "$dw" ] && ok ||
	bad "a .func in two kernels: expected listing_delta $D1 and the model's warp instructions the measured $dw: $line"

# more branches than a machine word: a generated kernel of 40 one-instruction ifs, each on a
# different bit of the thread index, searched by coordinate descent over all 40
{
	printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry many(.param .u64 out)\n{\n'
	printf '\t.reg .pred %%p<41>;\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<3>;\n\tld.param.u64 %%rd1, [out];\n'
	printf '\tcvta.to.global.u64 %%rd1, %%rd1;\n\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, 0;\n'
	for i in $(seq 1 40); do
		printf '\tand.b32 %%r3, %%r1, %d;\n\tsetp.eq.u32 %%p%d, %%r3, 0;\n\t@%%p%d bra $L_%d;\n' $i $i $i $i
		printf '\tadd.s32 %%r2, %%r2, %d;\n$L_%d:\n' $i $i
	done
	printf '\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd2, %%rd1, %%rd2;\n\tst.global.u32 [%%rd2], %%r2;\n\tret;\n}\n'
} > "$T/many.ptx"
"$W" "$T/many.ptx" --grid 1 --block 32 --arg buf:u32:32:zero --out 0:"$T/m.txt" --explore \
	--explore-json "$T/m.json" > "$T/m.out" 2>&1 &&
	grep -q '^  best decisions (coordinate descent over 40 branches, ' "$T/m.out" &&
	[ "$(grep -o '"best": "[^"]*"' "$T/m.json" | tr ',' '\n' | grep -c '#[0-9]*=')" = 40 ] && ok ||
	bad "40 branches: $(grep 'best decisions' "$T/m.out" | cut -c1-100)"

# make explore's table maker reads the JSON: the demo's row
cp "$T/x.json" "$T/demo.json"
"${BUILD:-build}/tests/tools/exploresum" "$T/demo.json" > "$T/sum.md" &&
	grep -q "^| demo | 2 | all | $base | $best | -0.72% | 0.72% | 0.72% |" "$T/sum.md" && ok ||
	bad "exploresum: $(head -3 "$T/sum.md")"

# 3.
"$W" tests/explain/nested.ptx --kernel nested_uniform_outer --grid 2 --block 64 --arg buf:u32:128:zero \
	--arg u32:0 --out 0:"$T/n.txt" --explore > "$T/n.out" 2>&1 && grep -q '^  never executed: #8$' "$T/n.out" &&
	grep -q '^  1 executed branch; flipping pays for 1$' "$T/n.out" && ok || bad "nested, n = 0: $(cat "$T/n.out")"

# 4. sharded: three slices, each writing its runs with --sweep-json, then --explore-merge of
# their files: the same table and JSON as one process; what a merge refuses
for i in 1 2 3; do
	"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --explore --shard $i/3 \
		--sweep-json "$T/s$i.json" > "$T/s$i.out" 2>&1 || bad "slice $i: $(cat "$T/s$i.out")"
done
grep -q "^warpsim: explore $D.ptx, slice 2 of 3: 1 of the 3 runs (the program as compiled and 2 variants) in $T/s2.json$" "$T/s2.out" &&
	[ "$(grep -c '"point"' "$T/s1.json")" = 1 ] && grep -q '"extra": "' "$T/s3.json" && ok ||
	bad "the slices: $(cat "$T/s2.out")"
"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --explore \
	--explore-merge "$T/s3.json,$T/s1.json,$T/s2.json" --explore-json "$T/xm.json" > "$T/xm.txt" 2>&1 &&
	cmp -s "$T/x1.txt" "$T/xm.txt" && cmp -s "$T/x.json" "$T/xm.json" && ok ||
	bad "the merged exploration differs from one process's: $(diff "$T/x1.txt" "$T/xm.txt" | head -5)"
"$W" --merge "$T/s1.json" "$T/s2.json" "$T/s3.json" > "$T/sm.txt" 2>&1 &&
	grep -q "^warpsim: sweep of argument lists (--explore's runs) over $D.ptx: 3 runs, merged from 3 slices$" "$T/sm.txt" &&
	grep -q '^--decide #3=pred ' "$T/sm.txt" && ok || bad "--merge of --explore's slices: $(head -2 "$T/sm.txt")"
emerge() {   # emerge PATTERN SLICES [ARGS...]: --explore-merge fails with PATTERN
	pat=$1 sl=$2; shift 2
	"$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --explore --explore-merge "$sl" "$@" \
		> /dev/null 2> "$T/e"
	r=$?
	[ "$r" = 1 ] && grep -q -- "$pat" "$T/e" && ok || bad "--explore-merge $sl $*: status $r, $(head -1 "$T/e")"
}
emerge "no slice holds the run with --decide #3=pred" "$T/s1.json,$T/s2.json"
emerge "the run with --decide #2=branch is also in $T/s2.json" "$T/s1.json,$T/s2.json,$T/s3.json,$T/s2.json"
emerge "the slices are of another exploration" "$T/s1.json,$T/s2.json,$T/s3.json" --max-cycles 1000000
emerge "cannot read '$T/none.json'" "$T/s1.json,$T/none.json"

# 5.
refuse() {   # refuse STATUS PATTERN ARGS...
	st=$1 pat=$2; shift 2
	"$W" "$@" > /dev/null 2> "$T/e"
	r=$?
	[ "$r" = "$st" ] && grep -q -- "$pat" "$T/e" && ok || bad "warpsim $*: status $r, $(head -1 "$T/e")"
}
refuse 1 "it translates the program once per branch, so it needs PTX" tests/sim/divloop.sass --launch tests/sim/divloop.launch --explore
refuse 2 "--explore runs its own variants" $D.ptx --launch $D.launch --explore --sweep predicate-max=0,inf
refuse 2 "--explore-json needs --explore" $D.ptx --launch $D.launch --explore-json "$T/y.json"
refuse 2 "--explore-merge needs --explore" $D.ptx --launch $D.launch --explore-merge "$T/s1.json"
refuse 2 "writes them with --sweep-json FILE (nothing else)" $D.ptx --launch $D.launch --explore --shard 1/2
refuse 2 "writes them with --sweep-json FILE (nothing else)" $D.ptx --launch $D.launch --explore --shard 1/2 \
	--sweep-json "$T/y.json" --explore-json "$T/z.json"
refuse 2 "expected FILE,FILE,..., got 'a,,b'" $D.ptx --launch $D.launch --explore --explore-merge a,,b

echo "run-explore: $pass passed, $fail failed"
[ "$fail" = 0 ]
