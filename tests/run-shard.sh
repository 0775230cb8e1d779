#!/bin/sh
# run-shard.sh - a sweep past one process (issue 17 part 3): the demo's predication sweep run
# once in one process and once as three slices through GNU parallel (the line of
# docs/sharding.md) and through examples/sweep.slurm (its array tasks run by hand), then
# merged with warpsim --merge: the merged table, CSV, plot and JSON must equal the
# single-process ones, and each point's --out buffers too. Then what a merge refuses (a
# missing or repeated slice, a slice of another sweep, a file that is not a slice) and what
# it reports (a point whose buffers differ: exit 3; a failed point: exit 1), and bad --shard
# and --merge command lines (exit 2). Run by `make check` with BIN and BUILD set.
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
ROOT=$(pwd)
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
W=$BIN/warpsim
T=$(mktemp -d "${TMPDIR:-/tmp}/run-shard.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
command -v parallel >/dev/null 2>&1 || { echo "FAIL: GNU parallel is missing (apt-get install parallel)"; exit 1; }

DEMO="examples/divergence.ptx --launch examples/divergence.launch"
SWEEP="--sweep predicate-max=0,1,2,4,7,12,inf"

# one process: every point, with its table, CSV, plot and JSON. Each way runs in a folder of
# its own with a copy of examples/, so that every point gets the same arguments
for d in one par slurm; do mkdir "$T/$d" && cp -r examples "$T/$d/"; done
# shellcheck disable=SC2086
(cd "$T/one" && "$W" $DEMO --out 1:out.txt $SWEEP -j 2 --sweep-csv s.csv --sweep-svg s.svg --sweep-json s.json \
	>table 2>err) && ok || { bad "single-process sweep"; cat "$T/one/err"; }

# compare DIR: DIR's merged table, CSV, plot, JSON and per-point buffers equal the single run's
compare() {
	tail -n +2 "$T/one/table" >"$T/t1"
	tail -n +2 "$1/table" >"$T/t2"
	head -n 1 "$1/table" | grep -q ': 7 runs, merged from 3 slices$' && diff -u "$T/t1" "$T/t2" &&
		cmp "$T/one/s.csv" "$1/s.csv" && cmp "$T/one/s.svg" "$1/s.svg" && cmp "$T/one/s.json" "$1/s.json" &&
		ok || bad "$1: the merged sweep differs from the single-process one"
	for v in 0 1 2 4 7 12 inf; do
		cmp -s "$T/one/out.predicate-max-$v.txt" "$1/out.predicate-max-$v.txt" || bad "$1: buffer of point $v"
	done
}

# GNU parallel: three slices, two at a time, each one process
(cd "$T/par" && PATH="$BIN:$PATH" parallel --will-cite -j 2 \
	warpsim examples/divergence.ptx --launch examples/divergence.launch --out 1:out.txt \
	$SWEEP -j 1 --shard {}/3 --sweep-json slice{}.json '>' slice{}.table ::: 1 2 3) 2>"$T/par/err" &&
	ok || { bad "GNU parallel slices"; cat "$T/par/err"; }
# the slices hold the points round-robin (7 over 3: 3, 2, 2), the first alone has the speed-up base
# (the rows of the table's first part: those before "where the cycles went")
pts() { sed '/^where the cycles went/,$d' "$T/par/slice$1.table" | tail -n +"$2" | cut -d' ' -f1 | tr '\n' ' '; }
[ "$(pts 1 2)" = "predicate-max 0 4 inf " ] && [ "$(pts 2 3)" = "1 7 " ] && [ "$(pts 3 3)" = "2 12 " ] &&
	ok || { bad "the slices' points"; cat "$T/par/"slice*.table; }
(cd "$T/par" && "$W" --merge slice3.json slice1.json slice2.json --sweep-csv s.csv --sweep-svg s.svg \
	--sweep-json s.json >table 2>err) && ok || { bad "merge of the parallel slices"; cat "$T/par/err"; }
compare "$T/par"

# examples/sweep.slurm, its three array tasks run one after the other as Slurm would run them
for i in 1 2 3; do
	(cd "$T/slurm" && PATH="$BIN:$PATH" SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 \
		sh examples/sweep.slurm >"slice-$i.log" 2>&1) || { bad "sweep.slurm task $i"; cat "$T/slurm/slice-$i.log"; }
done
(cd "$T/slurm" && "$W" --merge slice-*.json --sweep-csv s.csv --sweep-svg s.svg --sweep-json s.json >table 2>err) &&
	ok || { bad "merge of the Slurm slices"; cat "$T/slurm/err"; }
compare "$T/slurm"
# the docs show the script and the parallel line as they are run here
awk '/^    #!\/bin\/sh/,/--sweep-json "slice-\$SLURM_ARRAY_TASK_ID.json"$/' docs/sharding.md | sed 's/^    //' |
	cmp -s - examples/sweep.slurm && ok || bad "docs/sharding.md does not show examples/sweep.slurm as it is"
grep -q -- '--shard {}/3 --sweep-json slice{}.json ::: 1 2 3' docs/sharding.md && ok ||
	bad "docs/sharding.md lacks the GNU parallel line"

# merge FILE...: exit status and a message
merge() {
	want=$1 msg=$2; shift 2
	(cd "$T/par" && "$W" --merge "$@" >"$T/m.out" 2>"$T/m.err")
	rc=$?
	[ $rc = "$want" ] && grep -q -- "$msg" "$T/m.err" && ok ||
		{ bad "warpsim --merge $*: expected exit $want and '$msg' (exit $rc)"; cat "$T/m.err"; }
}
merge 1 "no slice holds the run with --predicate-max 2" slice1.json slice2.json
merge 1 "slice1.json: the run with --predicate-max 0 is also in slice1.json" slice1.json slice2.json slice3.json slice1.json
merge 1 "cannot read 'none.json'" slice1.json none.json
merge 1 "slice1.table:1:7: '\[' or '{' expected" slice1.table
sed 's/"--launch"/"--config"/' "$T/par/slice2.json" >"$T/par/other.json"
merge 1 "other.json: a slice of another sweep than slice1.json (its \"args\" differs)" slice1.json other.json slice3.json
# a point whose buffer differs (its hash changed): reported loudly, marked, exit 3
awk '/"value": "7"/ { p = 1 } p && /fnv1a64/ { sub(/"[0-9a-f]+"$/, "\"0000000000000000\""); p = 0 } 1' \
	"$T/par/slice2.json" >"$T/par/differ.json"
merge 3 "output buffers differ between --predicate-max 0 and --predicate-max 7" slice1.json differ.json slice3.json
grep -q '^7 .*OUTPUTS DIFFER$' "$T/m.out" && [ "$(grep -c 'OUTPUTS DIFFER' "$T/m.out")" = 1 ] && ok ||
	{ bad "the differing point's row"; cat "$T/m.out"; }
# a failed point: its row says so, exit 1
for i in 1 2; do
	"$W" traces/branchy.sass --grid 2 --block 40 --arg buf:s32:80 --sweep max-cycles=5,100000 --shard $i/2 \
		--sweep-json "$T/par/f$i.json" >/dev/null 2>&1
done
merge 1 "the run with --max-cycles 5 failed; the slice that wrote f1.json showed why" f1.json f2.json
grep -q '^5  *failed$' "$T/m.out" && ok || { bad "the failed point's row"; cat "$T/m.out"; }

# bad command lines: exit 2 before any run
errcase() {
	want=$1; shift
	"$W" "$@" >"$T/e.out" 2>"$T/e.err"
	rc=$?
	[ $rc = 2 ] && grep -q -- "$want" "$T/e.err" && ok || { bad "warpsim $*: expected exit 2 and '$want' (exit $rc)"; cat "$T/e.err"; }
}
# shellcheck disable=SC2086
{
errcase "--shard: expected I/N, slice I of N counted from 1" $DEMO $SWEEP --shard 0/3 --sweep-json x.json
errcase "--shard: expected I/N" $DEMO $SWEEP --shard 4/3 --sweep-json x.json
errcase "--shard: expected I/N" $DEMO $SWEEP --shard 1/x --sweep-json x.json
errcase "--shard writes its points with --sweep-json FILE" $DEMO $SWEEP --shard 1/3
errcase "the whole sweep's CSV and plot come from --merge" $DEMO $SWEEP --shard 1/3 --sweep-json x.json --sweep-csv x.csv
errcase "--shard and --sweep-json need --sweep" $DEMO --shard 1/3 --sweep-json x.json
errcase "--merge runs nothing: it takes no '--grid'" --merge "$T/par/slice1.json" --grid 2
errcase "--merge runs nothing: besides the slices' files" --merge "$T/par/slice1.json" $SWEEP
errcase "--merge: no --sweep-json files given" --merge
errcase "cannot be swept" $DEMO --sweep shard=1/2,2/2
errcase "more than one program given" $DEMO examples/atomic_loop.sass
}
[ ! -e x.json ] && [ ! -e x.csv ] && ok || bad "a refused command line wrote a file"

echo "run-shard: $pass passed, $fail failed"
[ "$fail" = 0 ]
