#!/bin/sh
# demo.sh - what `make demo` shows a new user, on the bundled divergence example
# (examples/divergence.cu, its nvcc PTX examples/divergence.ptx and examples/divergence.launch):
#   1. the microcode listing warpc makes of the PTX
#   2. warpc --explain: what it decided for every conditional branch, and why
#   3. a predication sweep: the same launch at several if-conversion thresholds
#   4. a Perfetto trace and an SVG warp timeline under traces/, and how to open them
#   5. a complete workload (tests/workloads/bfs: breadth-first search) on both engines
# Usage: sh examples/demo.sh BIN   (BIN holds warpc and warpsim; run from the top directory)
BIN=${1:-bin}
EX=examples
OUT=traces
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-demo.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

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

step "1. The kernel" "$EX/divergence.cu: a short if with a store, an if/else with real work on both
sides, a data-dependent loop with a rare early break. nvcc -ptx made $EX/divergence.ptx."
sed -n '/__global__/,$p' "$EX/divergence.cu"

step "2. warpc $EX/divergence.ptx: the microcode listing" "Fermi/Kepler-style SASS: SSY/.S reconvergence points, guarded (predicated) instructions,
EXIT for the early return. docs/isa.md explains every op."
if ! "$BIN/warpc" "$EX/divergence.ptx" -o "$T/divergence.sass"; then
	echo "demo: warpc could not translate the example (see above)"
	exit 1
fi
cat "$T/divergence.sass"

step "3. warpc --explain: the decision for every conditional branch" "Where each branch is, its shape, whether its condition can differ between the threads of a
warp, and what the translator chose (predicate it, or branch with an SSY reconvergence point)."
if ! "$BIN/warpc" --explain "$EX/divergence.ptx" 2>"$T/explain.err"; then
	if grep -q "unknown option\|unrecognized" "$T/explain.err"; then
		echo "warpc --explain: not available yet in this build"
	else
		cat "$T/explain.err"
	fi
fi

step "4. warpsim --sweep predicate-max=...: predication against branching" "The same launch ($EX/divergence.launch) translated and simulated once per if-conversion
threshold (ptxas uses 7), in parallel processes. Every run must produce identical output
buffers; speedup is against the first value."
"$BIN/warpsim" "$EX/divergence.ptx" --launch "$EX/divergence.launch" --out "1:$T/out.txt" \
	--out "2:$T/odd.txt" --sweep predicate-max=0,1,2,4,7,12,inf -j 2 \
	--sweep-csv "$OUT/demo-sweep.csv" --sweep-svg "$OUT/demo-sweep.svg" ||
	echo "demo: the sweep failed (see the messages above)"
if [ -f "$OUT/demo-sweep.csv" ] &&
   [ "$(sed 1d "$OUT/demo-sweep.csv" | cut -d, -f2 | sort -u | wc -l)" = 1 ]; then
	echo
	echo "note: every threshold gave the same cycles: the translator made the same code at each"
	echo "      setting for this kernel (warpc --explain above says what it chose for each branch)."
fi

step "5. A timing trace and a warp timeline" "One run at the default threshold, written as a Chrome trace-event file, an SVG picture and
per-source-line statistics."
if "$BIN/warpsim" "$EX/divergence.ptx" --launch "$EX/divergence.launch" --out "1:$T/out.txt" \
	--out "2:$T/odd.txt" --trace "$OUT/demo.json" --quiet &&
   "$BIN/warpsim" "$EX/divergence.ptx" --launch "$EX/divergence.launch" --out "1:$T/out.txt" \
	--out "2:$T/odd.txt" --trace "$OUT/demo.svg" --line-stats "$OUT/demo-lines.txt" --quiet; then
	echo "Where divergence cost time, per CUDA source line (the first rows of $OUT/demo-lines.txt):"
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
step "6. A complete workload: breadth-first search" "$WL/bfs.cu (one of the five Rodinia/Parboil-style workloads in $WL/, README.md there): a random
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
