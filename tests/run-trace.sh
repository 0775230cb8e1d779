#!/bin/sh
# run-trace.sh - the trace module end to end (issue 8): golden traces and line statistics of
# the examples (traces/*), the trace-event invariants checked by a real JSON parser
# (tests/tools/tracecheck), well-formed and small SVG timelines (xmllint), zlib traces,
# --trace-window, sweeps (table, CSV, plot, differing outputs reported), bad options.
# Run by `make check` with BIN and BUILD set; `make golden-traces` (UPDATE=1) rewrites the
# golden files, to be reviewed in the diff.
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
W=$BIN/warpsim
CHK=$BUILD/tests/tools/tracecheck
[ -x "$CHK" ] || { echo "run-trace.sh: $CHK is missing: build the test tools first (make tests)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/run-trace.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

ATOM="examples/atomic_loop.sass --kernel atomic_add_shared --grid 1 --block 64 --arg buf:u32:64:iota --arg buf:u32:1"
BR="traces/branchy.sass --grid 2 --block 40 --arg buf:s32:80"
BIG="examples/atomic_loop.sass --kernel atomic_add_shared --grid 8 --block 256 --arg buf:u32:256:iota --arg buf:u32:1 --sms 2"

# golden NAME OUTFILE-OPTION ARGS...: runs warpsim, compares $T/NAME with traces/NAME
golden() {
	name=$1 opt=$2; shift 2
	# shellcheck disable=SC2068
	if ! "$W" $@ "$opt" "$T/$name" --quiet 2>"$T/err"; then
		bad "$name: warpsim failed"; cat "$T/err"; return
	fi
	if [ -n "$UPDATE" ]; then
		cp "$T/$name" "traces/$name" && echo "updated traces/$name"
	elif diff -u "traces/$name" "$T/$name" >"$T/diff"; then
		ok
	else
		bad "$name differs from traces/$name"; head -n 40 "$T/diff"
	fi
}

# shellcheck disable=SC2086
{
golden atomic_loop.txt --trace $ATOM
golden atomic_loop.svg --trace $ATOM
golden branchy.txt --trace $BR
golden branchy.json --trace $BR
golden branchy.svg --trace $BR
golden branchy.window.txt --trace $BR --trace-window 300:360
golden branchy.lines.txt --line-stats $BR
golden branchy.lines.csv --line-stats $BR
golden atomic_loop.lines.txt --line-stats $ATOM
}
[ -n "$UPDATE" ] && exit 0

# the trace-event invariants: the golden, a windowed trace, 64 warps on 2 SMs with dual issue
# shellcheck disable=SC2086
{
"$CHK" traces/branchy.json --tracks 4 >/dev/null && ok || bad "tracecheck traces/branchy.json"
"$W" $BIG --issue-width 2 --trace "$T/big.json" --quiet && "$CHK" "$T/big.json" --tracks 64 >"$T/chk" &&
	ok || { bad "64-warp dual-issue trace"; cat "$T/chk"; }
grep -q '"dur":0.5' "$T/big.json" && ok || bad "dual issue does not split a cycle"
"$W" $BIG --issue-width 2 --trace "$T/big.txt" --quiet &&
	awk '!/^#/ && $8 > 100000 { exit 1 }' "$T/big.txt" &&
	ok || bad "dual issue: a stall of more cycles than the run took (the second issue of a cycle)"
"$W" $BIG --trace "$T/win.json" --trace-window 1000:2000 --quiet &&
	"$CHK" "$T/win.json" --window 1000:2000 --tracks 64 >/dev/null && ok || bad "windowed JSON trace"
}

# text and zlib traces are the same bytes; the window keeps exactly the cycles asked for
# shellcheck disable=SC2086
{
"$W" $BR --trace "$T/b.txt.gz" --quiet && gzip -t "$T/b.txt.gz" && gzip -dc "$T/b.txt.gz" | cmp -s - traces/branchy.txt &&
	ok || bad "branchy.txt.gz is not branchy.txt compressed"
awk '!/^#/ && ($1 < 300 || $1 > 360) { exit 1 }' traces/branchy.window.txt &&
	[ "$(grep -vc '^#' traces/branchy.window.txt)" = "$(awk '!/^#/ && $1 >= 300 && $1 <= 360' traces/branchy.txt | wc -l)" ] &&
	ok || bad "--trace-window 300:360 does not keep exactly cycles 300..360"
}

# SVG: well-formed, one row per warp, small for long runs
# shellcheck disable=SC2086
{
for f in traces/atomic_loop.svg traces/branchy.svg; do
	xmllint --noout "$f" && ok || bad "$f is not well-formed XML"
done
"$W" $BIG --trace "$T/big.svg" --quiet && xmllint --noout "$T/big.svg" &&
	[ "$(grep -c '<title>' "$T/big.svg")" = 64 ] && [ "$(wc -c <"$T/big.svg")" -lt 200000 ] &&
	ok || bad "64-warp SVG (rows $(grep -c '<title>' "$T/big.svg"), $(wc -c <"$T/big.svg") bytes)"
"$W" examples/atomic_loop.sass --kernel atomic_add_shared --grid 16 --block 1024 --arg buf:u32:1024:iota \
	--arg buf:u32:1 --sms 2 --trace "$T/long.svg" --quiet && xmllint --noout "$T/long.svg" &&
	[ "$(wc -c <"$T/long.svg")" -lt 400000 ] && ok || bad "long-run SVG ($(wc -c <"$T/long.svg") bytes)"
}

# sweeps: a simulator option over a listing, two processes at a time
# shellcheck disable=SC2086
{
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" "$W" $BIG --out 1:"$T/sum.txt" --sweep scheduler=lrr,gto,two-level -j 2 --sweep-csv "$T/s.csv" \
	--sweep-svg "$T/s.svg" >"$T/sweep.out" 2>"$T/sweep.err" &&
	[ "$(grep -c '^lrr\|^gto\|^two-level' "$T/sweep.out")" = 3 ] && grep -q speedup "$T/sweep.out" &&
	[ "$(wc -l <"$T/s.csv")" = 4 ] && grep -q '^gto,[0-9]*,' "$T/s.csv" && ! cut -d, -f11 "$T/s.csv" | grep -qx no &&
	xmllint --noout "$T/s.svg" && ok || { bad "scheduler sweep"; cat "$T/sweep.out" "$T/sweep.err"; }
# where the cycles went: the CSV's stall columns are the point's --stats-json, and the table's
# second part shows the first point's counts whole and the others' less the first's
"$W" $BIG --scheduler gto --stats-json "$T/gto.json" >/dev/null 2>&1
want=$(for k in warp_insts raw_alu raw_mem pipe_busy control barrier idle; do
	[ $k = warp_insts ] && k=gpgpu_n_tot_w_icount || k=stall_$k
	sed -n "s/^ *\"$k\": \([0-9]*\),*$/\1/p" "$T/gto.json"; done | paste -sd' ')
got=$(awk -F, '$1 == "gto" { print $3, $12, $13, $14, $15, $16, $17 }' "$T/s.csv")
[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "the sweep CSV's gto counts '$got', --stats-json's '$want'"
csvrows=$(awk -F, 'NR == 2 { split($0, b) } NR > 1 { printf "%s", $1
	for (c = 11; c <= 17; c++) { k = c == 11 ? 3 : c; d = $k - (NR > 2) * b[k]
		printf " %s%d", (NR > 2 && d >= 0 ? "+" : ""), d }
	print "" }' "$T/s.csv")
tabrows=$(sed -n '/^where the cycles went/,$p' "$T/sweep.out" | grep '^    [a-z]' | sed 1d | awk '{ $1 = $1; print }')
[ "$(grep -c '^where the cycles went, in scheduler-cycles' "$T/sweep.out")" = 1 ] && [ -n "$tabrows" ] &&
	[ "$tabrows" = "$csvrows" ] && ok ||
	{ bad "the sweep's where table against its CSV"; echo "$tabrows"; echo "--"; echo "$csvrows"; }
ls "$T/tmp" | grep -q "^warpsim-sweep-" && bad "sweep left temporary directories" || ok
# a setting that changes results is reported loudly, exit status 3
"$W" tests/trace/clock.sass --grid 1 --block 64 --arg buf:u32:64 --out 0:"$T/c.txt" \
	--sweep alu-latency=22,30 >"$T/c.out" 2>"$T/c.err"
[ $? = 3 ] && grep -q "output buffers differ" "$T/c.err" && grep -q "OUTPUTS DIFFER" "$T/c.out" &&
	ok || { bad "differing outputs not reported"; cat "$T/c.out" "$T/c.err"; }
# each point's --out buffer is kept under a per-point name
# shellcheck disable=SC2086
"$W" $BR --out 0:"$T/pt.txt" --sweep scheduler=lrr,gto -j 1 >/dev/null 2>"$T/k.err"
[ -s "$T/pt.scheduler-lrr.txt" ] && cmp -s "$T/pt.scheduler-lrr.txt" "$T/pt.scheduler-gto.txt" && [ ! -e "$T/pt.txt" ] &&
	ok || { bad "per-point --out files of a sweep"; ls "$T"; cat "$T/k.err"; }
# a failing point shows the child's message (here a runaway stopped by --max-cycles)
"$W" $BR --sweep max-cycles=5,100000 >"$T/f.out" 2>"$T/f.err"
[ $? = 1 ] && grep -q "did not finish within --max-cycles 5" "$T/f.err" && grep -q failed "$T/f.out" &&
	ok || { bad "failing sweep point"; cat "$T/f.out" "$T/f.err"; }
}

# bad options: exit status 2 and a clear message
errcase() {
	want=$1; shift
	"$W" "$@" >"$T/e.out" 2>"$T/e.err"
	if [ $? = 2 ] && grep -q -- "$want" "$T/e.err"; then ok; else bad "warpsim $*: expected '$want'"; cat "$T/e.err"; fi
}
errcase "must end in .txt, .txt.gz, .json or .svg" traces/branchy.sass --trace x.bmp
errcase "expected a cycle range A:B with A <= B" traces/branchy.sass --trace x.txt --trace-window 9:3
errcase "expected a cycle range A:B" traces/branchy.sass --trace x.txt --trace-window 12
errcase "needs --trace FILE" traces/branchy.sass --trace-window 1:2
errcase "expected KEY=V1,V2" traces/branchy.sass --sweep predicate-max
errcase "no empty value" traces/branchy.sass --sweep predicate-max=1,,2
errcase "expected a number of processes" traces/branchy.sass --sweep scheduler=lrr -j 0
errcase "need --sweep" traces/branchy.sass --sweep-csv x.csv
errcase "expected a value" traces/branchy.sass --trace
errcase "they need --trace FILE.svg" traces/branchy.sass --trace x.json --trace-sms 0
errcase "--trace-sms: expected a list of numbers and ranges from 0 to 1023" traces/branchy.sass --trace x.svg --trace-sms 5-2
errcase "--trace-warps: expected a list of numbers and ranges from 0 to 63" traces/branchy.sass --trace x.svg --trace-warps 64
# a sweep checks every key and value before the first run
errcase "--sweep: unknown option '--predicat-max'" traces/branchy.sass --sweep predicat-max=0,7
errcase "--sweep: --predicate-max: expected a non-negative integer or 'inf', got 'seven'" traces/branchy.sass --sweep predicate-max=0,seven
errcase "--sweep: --sms: expected an integer from 1 to" traces/branchy.sass --sweep sms=1,0
errcase "cannot be swept" traces/branchy.sass --sweep quiet=1,2
errcase "cannot be swept" traces/branchy.sass --sweep trace=a.txt,b.txt

# the SVG timeline: --trace-sms/--trace-warps choose the rows; every row keeps its label
# shellcheck disable=SC2086
"$W" $BIG --trace "$T/sel.svg" --trace-sms 1 --trace-warps 0-2,5 --quiet 2>"$T/e.err"
rows=$(grep -c '^<g><title>sm' "$T/sel.svg")
other=$(grep '^<g><title>sm' "$T/sel.svg" | grep -cv '^<g><title>sm1 ')
labels=$(grep -c '<text class="l"' "$T/sel.svg")
[ "$rows" = 4 ] && [ "$other" = 0 ] && [ "$labels" = 4 ] && xmllint --noout "$T/sel.svg" && ok ||
	bad "--trace-sms/--trace-warps: $rows rows, $other of other SMs, $labels labels"
# shellcheck disable=SC2086
"$W" $BIG --trace "$T/all.svg" --quiet 2>"$T/e.err"
[ "$(grep -c '^<g><title>sm' "$T/all.svg")" = "$(grep -c '<text class="l"' "$T/all.svg")" ] &&
	grep -q '<text class="g" x="8" y="[0-9]*">SM 1</text>' "$T/all.svg" && grep -q 'class="a3"' "$T/all.svg" &&
	ok || bad "SVG rows unlabelled, ungrouped or without active-lane shades"

# the sweep's divergence column moves when a branch changes from SSY branching to
# predication: the demo's short if (divergence.cu:20) is predicated from predicate-max 7 on
"$W" examples/divergence.ptx --launch examples/divergence.launch --sweep predicate-max=4,7 \
	--sweep-csv "$T/sd.csv" -j 2 >/dev/null 2>"$T/e.err"
d4=$(awk -F, '$1 == 4 { print $7 }' "$T/sd.csv")
d7=$(awk -F, '$1 == 7 { print $7 }' "$T/sd.csv")
[ -n "$d4" ] && [ -n "$d7" ] && [ "$d4" -gt "$d7" ] && ok ||
	bad "the sweep's divergence column does not move: $d4 at predicate-max 4, $d7 at 7"

# the JSON trace's unit: one SM cycle is one nanosecond (displayTimeUnit "ns", ts in
# microseconds = cycles / 1000): branchy's first stall, 21 cycles from cycle 1
grep -q '^{"displayTimeUnit":"ns",' traces/branchy.json &&
	grep -q '"ts":0.001,"dur":0.021,"name":"stall: raw_alu"' traces/branchy.json && ok ||
	bad "the JSON trace's time unit"

# divergence is charged to the branch's own line at every level (the demo kernel): at the
# CUDA level (no line) has no event and the if/else of divergence.cu:26 has its 8
"$W" examples/divergence.ptx --launch examples/divergence.launch --line-stats "$T/demo-lines.csv" --quiet 2>"$T/e.err"
nl=$(awk -F, '$1 == "cuda" && $3 == 0 { print $9 }' "$T/demo-lines.csv")
l26=$(awk -F, '$1 == "cuda" && $3 == 26 { print $9 }' "$T/demo-lines.csv")
[ "$nl" = 0 ] && [ "$l26" = 8 ] && ok || { bad "demo divergence lines: (no line) $nl, :26 $l26"; head -5 "$T/demo-lines.csv"; }

# one option table: the trace and sweep options also work as lines of a --launch file, and a
# sweep's points do not sweep again (they re-read the file)
# shellcheck disable=SC2086
"$W" $BR --trace "$T/cmd.txt" --quiet 2>/dev/null
printf 'trace %s\n--trace-window 0:40\n' "$T/file.txt" > "$T/obs.launch"
"$W" $BR --trace-window 0:40 --trace "$T/cmd40.txt" --quiet 2>/dev/null
# shellcheck disable=SC2086
if "$W" $BR --launch "$T/obs.launch" --quiet 2>"$T/e.err" && cmp -s "$T/cmd40.txt" "$T/file.txt" &&
   ! cmp -s "$T/cmd.txt" "$T/file.txt"; then ok; else bad "--trace in a --launch file"; cat "$T/e.err"; fi
printf 'sweep scheduler=lrr,gto\njobs 1\n' > "$T/sweep.launch"
# shellcheck disable=SC2086
"$W" $BR --launch "$T/sweep.launch" >"$T/s.out" 2>"$T/s.err"
[ $? = 0 ] && grep -q "^gto" "$T/s.out" && grep -q "^lrr" "$T/s.out" &&
	ok || { bad "--sweep in a --launch file"; cat "$T/s.out" "$T/s.err"; }

echo "run-trace: $pass passed, $fail failed"
[ "$fail" = 0 ]
