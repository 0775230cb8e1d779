#!/bin/sh
# run-report.sh - warpsim --report FILE.html (issue 18 part 5), on the bundled divergence example:
#   1. the page is written, byte for byte the same at -j 1 and -j 2; it needs nothing beside it
#      (no external URL, stylesheet or script; the two pictures are data: URLs); it holds one
#      card per branch --explain lists, each with its decision and reason, and the what-if
#      figures equal separate runs with --decide; the run's cycles; the best vector and the
#      rules; a row per PTX line with the listing beside it; --trace and --line-stats given
#      beside it are still written;
#   2. --report-budget too small for the extra runs: the page says what did not run and why,
#      and still holds every card;
#   3. what --report refuses (a listing, --oracle, --functional, --explore, --merge, a name
#      not .html) and a page that cannot be written.
# env: BIN (warpc, warpsim)
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-report.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
name=run-report
. "$(dirname "$0")/expect.sh"
D=examples/divergence
W="$BIN/warpsim"
stat() { statistic "$S" "$W" $D.ptx --launch $D.launch "$@"; }
has() { grep -q -- "$1" "$2" && ok || bad "$3"; }

# 1.
run() { "$W" $D.ptx --launch $D.launch --out 1:"$T/a.txt" --out 2:"$T/b.txt" --quiet "$@"; }
run --report "$T/r1.html" -j 2 --trace "$T/t.json" --line-stats "$T/l.txt" 2> "$T/err" &&
	grep -q "wrote $T/r1.html (5 branch cards)" "$T/err" && ok || bad "--report failed: $(head -3 "$T/err")"
[ -s "$T/t.json" ] && grep -q '^By PTX line' "$T/l.txt" && ok || bad "--trace and --line-stats beside --report"
run --report "$T/r2.html" -j 1 2>/dev/null && run --report "$T/r3.html" -j 1 2>/dev/null &&
	for i in 1 2 3; do grep -v '^<p class="mono">' "$T/r$i.html" > "$T/r$i.txt"; done &&
	cmp -s "$T/r1.txt" "$T/r2.txt" && cmp -s "$T/r2.txt" "$T/r3.txt" && ok ||
	bad "the page is not the same twice, or at -j 1 and -j 2 (besides the command line)"
P="$T/r1.html"
if grep -Eq '(src|href)="(https?:|//|file:)|<link |<script src' "$P"; then bad "the page refers to something outside it"; else ok; fi
[ "$(grep -o 'src="data:image/svg+xml;base64,' "$P" | wc -l)" = 2 ] && ok || bad "two pictures as data: URLs"
n=$("$BIN/warpc" --explain $D.ptx | grep -c '^  #[0-9]')
[ "$n" = 5 ] && [ "$(grep -o '<div class="card [a-z]*" id="b[0-9]*">' "$P" | wc -l)" = "$n" ] &&
	grep -q "data-cards=\"$n\"" "$P" && ok || bad "a card per branch ($n)"
"$BIN/warpc" --explain $D.ptx | sed -n 's/^  #\([0-9]*\) \([0-9]*\):.* \(predicated\|ssy\|shared-ssy\|exit\) .*/\1 \2 \3/p' > "$T/br"
[ "$(wc -l < "$T/br")" = 5 ] || bad "warpc --explain's branches: $(cat "$T/br")"
while read -r i l d; do
	grep -q "<div class=\"card [a-z]*\" id=\"b$i\">" "$P" &&
		grep -A1 "id=\"b$i\"" "$P" | grep -q "href=\"#ptx$l\">PTX line $l</a>" &&
		grep -A3 "id=\"b$i\"" "$P" | grep -q "<dt>as compiled</dt><dd>$d</dd>" &&
		grep -q "<tr id=\"ptx$l\"[^>]*><td class=\"n\"><a href=\"#b$i\">#$i</a> $l</td>" "$P" && ok ||
		bad "card #$i (PTX line $l, $d) and its source row"
done < "$T/br"
grep -A4 'id="b4"' "$P" | grep -q '<dt>reason</dt><dd>not predicable: a side holds a loop; SSY at the immediate post-dominator</dd>' &&
	grep -A12 'id="b4"' "$P" | grep -q 'no variant: the branch cannot be predicated: a side holds a loop' && ok ||
	bad "#4's reason and why it has no variant"
S=gpu_sim_cycle base=$(stat)
S=gpgpu_n_tot_w_icount bw=$(stat)
has "<tr><td>cycles</td><td>$base</td></tr>" "$P" "the run's cycles ($base)"
has "<tr><td>warp instructions</td><td>$bw</td></tr>" "$P" "the run's warp instructions"
for r in "2 branch as.a.branch" "3 pred predicated"; do
	set -- $r
	S=gpu_sim_cycle c=$(stat --decide "#$1=$2")
	S=gpgpu_n_tot_w_icount w=$(stat --decide "#$1=$2")
	dc=$(printf '%+d' $((c - base))) dw=$(printf '%+d' $((w - bw)))
	grep -A14 "id=\"b$1\"" "$P" | grep -q "<dt>what if flipped</dt><dd>$3: $dc cycles ([-+][0-9.]*%), $dw warp instructions" &&
		ok || bad "card #$1: expected $dc cycles, $dw warp instructions"
	# where the cycles went: the flip's control waits less the program as compiled's
	S=stall_control sc=$(stat --decide "#$1=$2") S=stall_control s0=$(stat)
	grep -A15 "id=\"b$1\"" "$P" | grep -q "<dt>where the cycles went (scheduler-cycles)</dt><dd>.*$(printf '%+d' $((sc - s0))) control waits" &&
		ok || bad "card #$1: expected $(printf '%+d' $((sc - s0))) control waits"
done
grep -A16 'id="b3"' "$P" | grep -q '<dd class="verdict">flipping pays</dd>' &&
	grep -A16 'id="b2"' "$P" | grep -q '<dd class="verdict">the decision as compiled holds</dd>' && ok || bad "the verdicts"
S=gpu_sim_cycle best=$(stat --decide '#2=pred,#3=pred')
has "<code>--decide #2=pred,#3=pred</code>: $best cycles" "$P" "the best vector ($best cycles)"
S=gpu_sim_cycle inf=$(stat --predicate-max inf --predicate-max-uniform inf)
grep '<tr><th>cycles</th>' "$P" | grep -q "<td>$inf</td></tr>\$" && ok || bad "the rules' inf column ($inf)"
has 'Every variant left the same memory as the program as compiled (2 buffers compared)' "$P" "the memory line"
[ "$(grep -c '^<tr id="ptx[1-9]' "$P")" = "$(wc -l < $D.ptx)" ] && ok || bad "a row per PTX line"
grep -q '<tr id="ptx49"><td class="n">49</td><td style="background:rgba(255,140,0,[0-9.]*)">    and.b32 *%r18, %r2, 1;</td>.*/\*0060\*/ LOP.AND R4, R1, 0x1;' "$P" &&
	ok || bad "PTX line 49 beside its instruction, shaded"
has '<tr class="cuda"><td class="n"></td><td colspan="5">divergence.cu:20      if (x &amp; 1) {' "$P" "the CUDA line above its PTX"
has '<table class="sweep"><tr><th>--predicate-max</th>' "$P" "the sweep's table"
# where each point's cycles went: a bar a point, its segments the point's counts
[ "$(grep -c '^<tr><td>[0-9inf]*</td><td>[0-9]*</td>.*<td class="wb">' "$P")" = \
	"$(grep -c '^<tr><td>[0-9inf]*</td><td>[0-9]*</td>' "$P")" ] && ok || bad "a where-the-cycles-went bar a sweep point"
S=stall_control c7=$(stat --predicate-max 7) S=stall_idle i7=$(stat --predicate-max 7)
grep '^<tr><td>7</td>' "$P" | grep -q "title=\"control $c7 ([0-9.]*%)\".*title=\"idle $i7 ([0-9.]*%)\"" &&
	has '<p class="key">Where the cycles went, in scheduler-cycles' "$P" "the bars' key" ||
	bad "the bar of --predicate-max 7: control $c7, idle $i7"
has '<p id="status" data-cards="5" data-ready="no" data-errors="0">' "$P" "the status line for the browser check"

# 2.
run --report "$T/small.html" --report-budget 1000 2>/dev/null || bad "--report-budget 1000 failed"
has 'The what-if runs (the program as compiled and each branch flipped) did not run: 3 runs of about' "$T/small.html" "the what-ifs' note"
has 'The sweep of --predicate-max did not run' "$T/small.html" "the sweep's note"
[ "$(grep -o '<div class="card [a-z]*" id="b[0-9]*">' "$T/small.html" | wc -l)" = 5 ] &&
	grep -A14 'id="b3"' "$T/small.html" | grep -q 'predicated: not run (see the note above)' && ok || bad "cards without the runs"

# 3.
refuse() {   # STATUS PATTERN ARGS...
	st=$1 pat=$2
	shift 2
	"$W" "$@" > /dev/null 2> "$T/e"
	r=$?
	[ "$r" = "$st" ] && grep -q -- "$pat" "$T/e" && ok || bad "warpsim $*: status $r, $(head -1 "$T/e")"
}
refuse 2 "it needs a .ptx program run on the SM model" tests/sim/divloop.sass --launch tests/sim/divloop.launch --report "$T/x.html"
refuse 2 "it needs a .ptx program run on the SM model, not --oracle" $D.ptx --launch $D.launch --oracle --report "$T/x.html"
refuse 2 "--functional runs without the timing model: --report needs it" $D.ptx --launch $D.launch --functional --report "$T/x.html"
refuse 2 "--report runs its own exploration and sweep" $D.ptx --launch $D.launch --explore --report "$T/x.html"
refuse 2 "--merge runs nothing" --merge "$T/a.json" --report "$T/x.html"
refuse 2 "the name must end in .html" $D.ptx --launch $D.launch --report "$T/x.htm"
refuse 1 "--report: cannot write '$T/no/x.html'" $D.ptx --launch $D.launch --quiet --report "$T/no/x.html" --report-budget 0
[ ! -e "$T/x.html" ] && ok || bad "a refused command wrote a page"

echo "run-report: $pass passed, $fail failed"
[ "$fail" = 0 ]
