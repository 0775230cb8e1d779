#!/bin/sh
# demo.sh - what `make demo` shows a new user, on the bundled demo kernel
# (examples/hammocks.cu, its nvcc PTX examples/hammocks.ptx and examples/hammocks.launch: four
# hammocks, two that should be predicated and two that should not):
#   1. the kernel
#   2. the microcode listing warpc makes of the PTX
#   3. warpc --explain: what it decided for every conditional branch, and why
#   4. a predication sweep: the same launch at several if-conversion thresholds, and its plot
#   5. warpsim --explore: every branch's decision flipped alone, the best decisions, the rules'
#      regret
#   6. a Perfetto trace and an SVG warp timeline under traces/, and how to open them
#   7. a complete workload (tests/workloads/bfs: breadth-first search) on both engines
#   8. warpsim --report: one page that shows all of it, traces/demo-report.html
# Usage: sh examples/demo.sh BIN   (BIN holds warpc and warpsim; run from the top directory)
# tests/run-demo.sh checks that the kernel is what this says.
BIN=${1:-bin}
EX=examples
K=$EX/hammocks
OUT=traces
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-demo.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# the sweep's thresholds: where this kernel's hammocks change decision (3, 4, 22, 26 under the
# Guide's count), the Guide's 7 and ptxas's 8 for sm_35
SWEEP=predicate-max=0,2,3,4,7,8,12,16,24,32,inf
RUN="$K.ptx --launch $K.launch --out 1:$T/out.txt --out 2:$T/seen.txt"

step() {
	printf '\n==== %s\n' "$1"
	[ -n "$2" ] && printf '%s\n' "$2"
	echo
}

for p in warpc warpsim; do
	if [ ! -x "$BIN/$p" ]; then
		echo "demo: $BIN/$p is missing; run 'make' first" >&2
		exit 1
	fi
done
mkdir -p "$OUT"

step "1. The kernel" "$K.cu: each thread draws 32 pseudo-random numbers and runs four hammocks on each. Two
should be predicated (short or balanced, and they split nearly every warp), two should stay
branches (one is rare, one is the same for the whole warp in practice). nvcc -ptx made $K.ptx."
sed -n '/__global__/,$p' "$K.cu"

step "2. warpc $K.ptx: the microcode listing" "Fermi/Kepler-style SASS: SSY/.S reconvergence points, guarded (predicated) instructions.
docs/isa.md explains every op."
if ! "$BIN/warpc" "$K.ptx" -o "$T/hammocks.sass"; then
	echo "demo: warpc could not translate the example (see above)"
	exit 1
fi
cat "$T/hammocks.sass"

step "3. warpc --explain: the decision for every conditional branch" "Where each branch is, its shape, whether its condition can differ between the threads of a
warp, and what the translator chose by the CUDA Programming Guide's rule (predicate when both
sides together hold at most 7 instructions). It cannot know that #4 is rare or that #5 is the
same for every lane of a warp: only a run tells."
"$BIN/warpc" --explain "$K.ptx" || echo "demo: warpc --explain failed (see above)"

step "4. warpsim --sweep predicate-max=...: predication against branching" "The same launch ($K.launch) translated and simulated once per if-conversion threshold,
in parallel processes. Every run must leave identical output buffers; speedup is against the
first value. The plot's cycle axis is fitted to the data and the best threshold is ringed."
"$BIN/warpsim" $RUN --sweep $SWEEP -j 2 \
	--sweep-csv "$OUT/demo-sweep.csv" --sweep-svg "$OUT/demo-sweep.svg" ||
	echo "demo: the sweep failed (see the messages above)"
if [ -f "$OUT/demo-sweep.csv" ]; then
	echo
	sed 1d "$OUT/demo-sweep.csv" | awk -F, '$2 != "" && (best == "" || $2 + 0 < min) { best = $1; min = $2 + 0 }
		$2 != "" && $2 + 0 > max { worst = $1; max = $2 + 0 }
		END { if (best != "") printf "Best threshold here: %s (%d cycles); the worst, %s, takes %.1f%% more.\n",
			best, min, worst, 100 * (max - min) / min }'
	echo "No single threshold is right for every branch: one that predicates #3 also predicates the"
	echo "rare #4, and inf predicates the warp-uniform #5 as well."
fi

step "5. warpsim --explore: what each decision is worth" "One run as compiled, then one per branch with only that branch's decision flipped (--decide),
every variant's memory checked against the program as compiled; then every combination of the
flippable branches for the best decisions, and each rule's regret (% cycles above the best)."
if "$BIN/warpsim" $RUN --explore -j 2 > "$T/explore.txt"; then
	cat "$T/explore.txt"
	echo
	awk '$1 ~ /^#[0-9]+$/ && $NF == "yes" { printf "%s%s to %s", n++ ? ", " : "Flipping pays for ", $1, $5 }
		END { if (n) print "." }' "$T/explore.txt"
	echo "The best decisions beat every rule (the regret lines). The cost model's prediction (column"
	echo "'model') assumes that a branch which may diverge splits every warp: wrong for the rare #4"
	echo "and the warp-uniform #5 (docs/explore.md)."
else
	cat "$T/explore.txt"
	echo "demo: --explore failed (see the messages above)"
fi

step "6. A timing trace and a warp timeline" "One run at the default threshold, written as a Chrome trace-event file, an SVG picture and
per-source-line statistics."
if "$BIN/warpsim" $RUN --trace "$OUT/demo.json" --quiet &&
   "$BIN/warpsim" $RUN --trace "$OUT/demo.svg" --line-stats "$OUT/demo-lines.txt" --quiet; then
	echo "Where the time went, per CUDA source line (the first rows of $OUT/demo-lines.txt):"
	echo
	sed -n '/^By CUDA source line/,/^$/p' "$OUT/demo-lines.txt" | cut -c1-160
	echo
	echo "Written:"
	echo "  $OUT/demo.json         open https://ui.perfetto.dev -> 'Open trace file' (or chrome://tracing -> Load):"
	echo "                           a process per SM, a track per warp, a slice per instruction,"
	echo "                           stalls and barrier waits, divergence marks, active-lane counters;"
	echo "                           1 trace microsecond = 1 SM cycle"
	echo "  $OUT/demo.svg          open in any web browser: the warp timeline (x cycles, y warps,"
	echo "                           colour = issuing / stalled by reason / at barrier / done)"
	echo "  $OUT/demo-lines.txt    per-line statistics (CUDA, PTX and listing lines)"
	echo "  $OUT/demo-sweep.csv    the sweep table as CSV;  $OUT/demo-sweep.svg  its plot (any browser)"
	echo
	echo "traces/README.md describes every format and column; docs/traces.md the options."
else
	echo "demo: the traced run failed (see the messages above)"
	exit 1
fi

WL=tests/workloads
step "7. A complete workload: breadth-first search" "$WL/bfs.cu (one of the five Rodinia/Parboil-style workloads in $WL/, README.md there): a random
graph of 600 nodes, two out-edges each, searched level by level by one CTA. The SM model and
the PTX oracle run the same launch ($WL/bfs.launch); their levels must be identical."
if "$BIN/warpsim" "$WL/bfs.ptx" --launch "$WL/bfs.launch" --out "1:$T/bfs.txt" --stats 2>"$T/bfs.stats" &&
   "$BIN/warpsim" --oracle "$WL/bfs.ptx" --launch "$WL/bfs.launch" --out "1:$T/bfs-oracle.txt" --quiet &&
   cmp -s "$T/bfs.txt" "$T/bfs-oracle.txt"; then
	echo "The SM model's levels equal the oracle's. Nodes per level (-1: not reachable from node 0):"
	sort -n "$T/bfs.txt" | uniq -c | awk '{ printf "  level %3s: %4d nodes\n", $2, $1 }'
	echo
	grep -E '^(gpu_sim_cycle|simd_efficiency|divergent_branches|gpgpu_n_mem_read_global) ' "$T/bfs.stats"
else
	echo "demo: the workload failed or the engines disagree (see the messages above)"
	exit 1
fi

step "8. warpsim --report: one page that shows it" "The demo kernel's run, a card per branch (decision, reason, what flipping it did, the cost
model against the measurement), the best decisions and the rules' regret, the PTX beside its
listing shaded by cycles and idle lanes, the warp timeline and the sweep chart: one
self-contained HTML file (docs/report.md)."
if "$BIN/warpsim" $K.ptx --launch $K.launch --out "1:$OUT/demo-out.txt" --out "2:$OUT/demo-seen.txt" \
	--quiet --report "$OUT/demo-report.html" -j 2; then
	echo
	echo "Open it in any web browser (it needs no network and no server):"
	echo "  xdg-open $OUT/demo-report.html      (or: firefox / chromium $OUT/demo-report.html)"
else
	echo "demo: warpsim --report failed (see the messages above)"
	exit 1
fi
