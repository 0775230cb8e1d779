#!/bin/sh
# threads.sh BIN BUILD - `--threads N` scaling (issue 17 part 2): on fermi.cfg (15 SMs), a
# compute kernel (bench/sim/intloop, 120 CTAs of 256 threads) and a divergent one (the
# corpus's divergence kernel, 1920 CTAs of 128 threads) with 1, 2, 3, 4 and 8 threads; best
# wall time of three, the CPU time (user + system) of that run, the speed-up over one thread,
# and whether the statistics equal one thread's (they must: tests/run-threads.sh). The
# host's cores bound the speed-up: on a machine with fewer cores than threads the extra
# threads only take turns; on a loaded host more threads also win a larger share of it. A
# benchmark, not a test (nothing here asserts a time).
BIN=${1:-bin}
BUILD=${2:-build}
CPUTIME=$BUILD/tests/tools/cputime   # times to the microsecond (tests/tools/cputime.c)
[ -x "$CPUTIME" ] || { echo "threads.sh: $CPUTIME missing (make bench builds it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/threads-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
run() { # name program args...
	n=$1; p=$2; shift 2
	base=""
	for th in 1 2 3 4 8; do
		best=""
		for i in 1 2 3; do
			"$CPUTIME" "$T/time" "$BIN/warpsim" "$p" --config sim/configs/fermi.cfg \
				"$@" --threads $th --quiet --stats-json "$T/s$th.json" || { echo "threads.sh: $n failed" >&2; return 1; }
			read -r u us sy _ <"$T/time"
			if [ -z "$best" ] || awk "BEGIN { exit !($u < $best) }"; then
				best=$u; cpu=$(awk "BEGIN { print $us + $sy }")
			fi
		done
		[ -z "$base" ] && base=$best
		same=yes
		cmp -s "$T/s1.json" "$T/s$th.json" || same=NO
		wi=$(sed -n 's/^  "gpgpu_n_tot_w_icount": \([0-9]*\),$/\1/p' "$T/s$th.json")
		awk -v n="$n" -v th="$th" -v t="$best" -v c="$cpu" -v b="$base" -v wi="$wi" -v s="$same" 'BEGIN {
			printf "| %s | %d | %.3f s | %.3f s | %.2f M/s | %.2fx | %s |\n", n, th, t, c, (t > 0 ? wi / t / 1e6 : 0), (t > 0 ? b / t : 0), s }'
	done
}
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| kernel | threads | wall time | CPU time | warp insts/s | speed-up | statistics = 1 thread's |"
echo "|---|---|---|---|---|---|---|"
run intloop bench/sim/intloop.sass --grid 120 --block 256 --arg buf:u32:30720 --arg u32:2000
run divergence tests/sim/stats/k/divergence.sm75.sass --grid 1920 --block 128 \
	--arg buf:s32:245760:random:9:0:200 --arg buf:s32:245760:const:-7 --arg s32:245760
