#!/bin/sh
# run-sim-stats.sh - the simulator's results must not move when its speed work changes how
# it computes them: every case of tests/sim/stats/cases.txt, and every corpus kernel
# (tests/sim/stats/k/NAME.sass: warpc's listing of tests/ptx/NAME.ptx, frozen so that
# translator changes do not move these results; NAME.launch its launch, or the CUDA
# kernel's tests/cuda/NAME.launch; a kernel's sm80 listing is the same as its sm75 one, so
# only the sm75 listing is kept) under fermi.cfg,
# kepler.cfg and teaching.cfg, runs with
# --stats-json; the whole JSON (cycles, stalls, every counter) and the buffers saved with --out
# (or the exit status and message of a run that fails) must equal tests/sim/stats/CASE.expect
# byte for byte. RECORD=1 rewrites the .expect files (only from a build whose results are
# trusted). Then, on the single-issue configurations, that the warp instructions and the
# stall counts add up to the schedulers times the cycles. Run by `make check` with BIN set.
BIN=${BIN:-bin}
R=$(pwd)
case $BIN in /*) ;; *) BIN=$R/$BIN ;; esac
D=$R/tests/sim/stats
T=$(mktemp -d "${TMPDIR:-/tmp}/run-sim-stats.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

# one NAME ARGS...: runs warpsim in an empty directory and compares (or records) the result
one() {
	n=$1; shift
	rm -rf "$T/run" && mkdir "$T/run" || exit 1
	# a run that fails (a CTA that does not fit, say) must fail the same way
	(cd "$T/run" && "$BIN/warpsim" "$@" --quiet --stats-json s.json >out 2>err
	 echo "exit $?" && cat err && cat s.json 2>/dev/null && for f in $(ls | grep -v '^s\.json$\|^out$\|^err$'); do
		echo "out $f $(cksum <"$f")"; done) >"$T/got"
	if [ -n "$RECORD" ]; then
		cp "$T/got" "$D/$n.expect"; pass=$((pass + 1))
	elif [ ! -f "$D/$n.expect" ]; then
		echo "FAIL: $n: no $D/$n.expect (record with RECORD=1)"; fail=$((fail + 1))
	elif ! cmp -s "$T/got" "$D/$n.expect"; then
		echo "FAIL: $n: results differ from the recorded ones"
		diff "$D/$n.expect" "$T/got" | head -n 20; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

grep -v '^#' "$D/cases.txt" | while read -r n prog args; do
	# shellcheck disable=SC2086
	echo "$n $R/$prog $(echo " $args" | sed "s| --launch | --launch $R/|; s| --config | --config $R/|g")"
done >"$T/list"
for p in "$D"/k/*.sass; do
	b=$(basename "$p" .sass)
	l=$D/k/$b.launch                       # or the kernel's own: tests/cuda/NAME.launch
	[ -f "$l" ] || l=$R/tests/cuda/${b%%.*}.launch
	for cfg in fermi kepler teaching; do
		echo "k-$b-$cfg $p --launch $l --config $R/sim/configs/$cfg.cfg"
	done
done >>"$T/list"
while read -r n args; do
	# shellcheck disable=SC2086
	one "$n" $args
done <"$T/list"

# every scheduler-cycle of a run is an issue or a stall (docs/timing.md, "Statistics"): on the
# single-issue configurations the warp instructions and the stall_* counts add up to the
# schedulers (fermi.cfg 15 x 2, teaching.cfg 1 x 1) times gpu_sim_cycle
for e in "$D"/*-fermi.expect "$D"/*-teaching.expect; do
	case $e in *-fermi.expect) ns=30 ;; *) ns=1 ;; esac
	r=$(awk -v ns=$ns '/"gpu_sim_cycle"|"gpgpu_n_tot_w_icount"|"stall_/ {
		v = $2; sub(/,$/, "", v)
		if ($1 ~ /gpu_sim_cycle/) c = v; else s += v } END { print (s == ns * c) ? "ok" : s " != " ns " x " c }' "$e")
	if [ "$r" = ok ]; then pass=$((pass + 1)); else echo "FAIL: $(basename "$e"): $r"; fail=$((fail + 1)); fi
done

echo "run-sim-stats: $pass passed, $fail failed"
[ "$fail" = 0 ]
