#!/bin/sh
# sim.sh BIN BUILD - simulator speed with the timing model on: each bench/sim/*.sass kernel
# runs on fermi.cfg (15 SMs, 48 warps each, GTO), best user time of five (the host's other
# work only ever adds time), and the line printed is: kernel, warp instructions, simulated
# cycles, seconds, warp instructions per host second; then the corpus's divergent kernel
# (tests/sim/stats/k/divergence.sm75.sass, bench/threads.sh's row at one thread) the same way. Then memory: peak RSS of intloop (one
# iteration) on a small and a large grid; warp state exists only for resident CTAs, so the
# difference should be about the larger output buffer alone. A benchmark, not a test
# (nothing here asserts a time). Times are read to the microsecond (tests/tools/cputime.c,
# built by make bench into BUILD/tests/tools) and printed to the millisecond.
BIN=${1:-bin}
BUILD=${2:-build}
CPUTIME=$BUILD/tests/tools/cputime
[ -x "$CPUTIME" ] || { echo "sim.sh: $CPUTIME missing (make bench builds it)" >&2; exit 1; }
run() { # name args...: bench/sim/NAME.sass, or the corpus kernel for divergence
	n=$1; shift
	k=bench/sim/$n.sass
	[ "$n" = divergence ] && k=tests/sim/stats/k/divergence.sm75.sass
	best=""
	for i in 1 2 3 4 5; do
		"$CPUTIME" "$T/time" "$BIN/warpsim" "$k" --config sim/configs/fermi.cfg \
			"$@" --quiet --stats-json "$T/s.json" || { echo "sim.sh: $n failed" >&2; return 1; }
		read -r _ u _ _ <"$T/time"
		if [ -z "$best" ] || awk "BEGIN { exit !($u < $best) }"; then best=$u; fi
	done
	wi=$(sed -n 's/^  "gpgpu_n_tot_w_icount": \([0-9]*\),$/\1/p' "$T/s.json")
	cy=$(sed -n 's/^  "gpu_sim_cycle": \([0-9]*\),$/\1/p' "$T/s.json")
	f=""
	case "$*" in *--functional*) f=" --functional" ;; esac
	awk -v n="$n" -v f="$f" -v wi="$wi" -v cy="$cy" -v t="$best" 'BEGIN {
		printf "| %s%s | %d | %d | %.3f s | %.2f M/s |\n", n, f, wi, cy, t, (t > 0 ? wi / t / 1e6 : 0) }'
}
T=$(mktemp -d "${TMPDIR:-/tmp}/sim-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "| kernel | warp instructions | cycles | host time | warp insts/s |"
echo "|---|---|---|---|---|"
run intloop --grid 120 --block 256 --arg buf:u32:30720 --arg u32:2000
run ffma --grid 120 --block 256 --arg buf:f32:30720 --arg u32:500
# the same without the timing model
run intloop --grid 120 --block 256 --arg buf:u32:30720 --arg u32:2000 --functional
run ffma --grid 120 --block 256 --arg buf:f32:30720 --arg u32:500 --functional
DIV="--grid 1920 --block 128 --arg buf:s32:245760:random:9:0:200 --arg buf:s32:245760:const:-7 --arg s32:245760"
# shellcheck disable=SC2086
run divergence $DIV
# shellcheck disable=SC2086
run divergence $DIV --functional

# rss CTAS: peak RSS in KiB of intloop with one iteration over CTAS x 256 threads
rss() {
	"$CPUTIME" "$T/rss" "$BIN/warpsim" bench/sim/intloop.sass --config sim/configs/fermi.cfg \
		--grid "$1" --block 256 --arg "buf:u32:$(($1 * 256))" --arg u32:1 --quiet ||
		{ echo "sim.sh: rss $1 failed" >&2; return 1; }
	read -r _ _ _ r <"$T/rss"
	echo "$r"
}
echo
echo "| grid (x 256 threads) | output buffer | peak RSS | RSS - buffer |"
echo "|---|---|---|---|"
for g in 120 40000; do
	r=$(rss $g) || exit 1
	awk -v g="$g" -v r="$r" 'BEGIN { b = g * 256 * 4 / 1024;
		printf "| %d | %.0f KiB | %d KiB | %.0f KiB |\n", g, b, r, r - b }'
done
