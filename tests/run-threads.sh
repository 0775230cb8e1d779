#!/bin/sh
# run-threads.sh - `--threads N` gives the results of one thread, byte for byte (issue 17
# part 2; docs/timing.md, "Threads"). Each case runs under fermi.cfg and kepler.cfg with
# --threads 1, 2, 3 and 8, with --stats-json, a --trace and the buffers saved with --out;
# the exit status, standard output (printf's lines), standard error (a fault's message),
# the statistics, the trace and every buffer must equal those of --threads 1. The cases have
# more CTAs than SMs, so that every thread simulates SMs that work: the bench kernels, and
# corpus kernels with atomics, a histogram (shared and global atomics), bitonic sort and a
# reduction (barriers), divergence, printf, an out-of-bounds store in every CTA (the fault
# reported must be the earliest by cycle and SM), a trap after stores (the memory before
# it is kept), and tests/sim/window.ptx, whose values show the window rule: a load sees
# memory as of its window's start with its own SM's stores over it. Run by `make check`
# with BIN set.
BIN=${BIN:-bin}
R=$(pwd)
case $BIN in /*) ;; *) BIN=$R/$BIN ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/run-threads.XXXXXX") || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$T"' EXIT
pass=0 fail=0
K=$R/tests/sim/stats/k

cat >"$T/cases" <<EOF
intloop $R/bench/sim/intloop.sass --grid 60 --block 128 --arg buf:u32:7680 --arg u32:60 --out 0:o0.txt
ffma $R/bench/sim/ffma.sass --grid 60 --block 96 --arg buf:f32:5760 --arg u32:30 --out 0:o0.txt
atomics $K/atomics.sm75.sass --grid 40 --block 64 --arg buf:s32:16:const:0 --arg buf:u64:2:zero --arg buf:s32:2560:random:12:-500:500 --out 0:o0.txt --out 1:o1.txt
histogram $K/histogram.sm75.sass --grid 40 --block 128 --arg buf:u8:30000:random:3:0:255 --arg buf:u32:64:zero --arg s32:30000 --out 1:o1.txt
bitonic $K/bitonic.sm75.sass --grid 32 --block 256 --arg buf:s32:8192:random:11:-1000:1000 --out 0:o0.txt
reduce $K/reduce.sm75.sass --grid 40 --block 256 --arg buf:s32:10240:iota --arg buf:s32:40:zero --arg s32:10240 --out 1:o1.txt
divergence $K/divergence.sm75.sass --grid 40 --block 64 --arg buf:s32:2560:random:9:0:200 --arg buf:s32:2560:const:-7 --arg s32:2560 --out 1:o1.txt
printf $R/tests/sim/printf.ptx --kernel show --grid 32 --block 8 --arg buf:s32:256:random:4:-500:500 --arg buf:s32:256:zero --printf-tag --out 1:o1.txt
oob $R/tests/sim/oob.sass --grid 45 --block 32 --arg buf:u32:32
trap $R/tests/ptx/cf_trap.ptx --kernel cf_trap --grid 45 --block 64 --arg buf:u32:64 --out 0:o0.txt
window $R/tests/sim/window.ptx --grid 2 --block 1 --arg buf:u32:4 --out 0:o0.txt
EOF

# one DIR ARGS...: the run's results, in DIR/got
one() {
	d=$1; shift
	rm -rf "$d" && mkdir -p "$d" || exit 1
	(cd "$d" && "$BIN/warpsim" "$@" --quiet --stats-json s.json --trace t.txt >out 2>err
	 echo "exit $?"; cat out err s.json t.txt 2>/dev/null; for f in o*.txt; do [ -f "$f" ] && echo "$f" && cat "$f"; done) >"$d.got"
}

while read -r n prog args; do
	for cfg in fermi kepler; do
		# shellcheck disable=SC2086
		one "$T/$n-$cfg-1" "$prog" $args --config "$R/sim/configs/$cfg.cfg" --threads 1
		for t in 2 3 8; do
			# shellcheck disable=SC2086
			one "$T/$n-$cfg-$t" "$prog" $args --config "$R/sim/configs/$cfg.cfg" --threads $t
			if cmp -s "$T/$n-$cfg-1.got" "$T/$n-$cfg-$t.got"; then
				pass=$((pass + 1))
			else
				echo "FAIL: $n on $cfg: --threads $t differs from --threads 1"
				diff "$T/$n-$cfg-1.got" "$T/$n-$cfg-$t.got" | head -n 10
				fail=$((fail + 1))
			fi
		done
	done
done <"$T/cases"

# the cases must exercise what they are for: several SMs busy, a fault, a trap with its
# memory kept, printf lines, atomics that moved memory
g() { grep -c "$2" "$T/$1.got"; }
chk() { if eval "$2"; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi; }
chk "intloop ran on every SM" '[ "$(sed -n "s/^ *\"gpgpu_n_tot_w_icount\": \([0-9]*\),/\1/p" "$T/intloop-fermi-1.got")" -gt 50000 ]'
chk "oob faults" '[ "$(g oob-fermi-1 "^exit 1")" = 1 ] && [ "$(g oob-fermi-1 "outside every allocation")" = 1 ]'
chk "trap keeps its stores" '[ "$(g trap-kepler-1 "^exit 1")" = 1 ] && grep -q "^o0.txt" "$T/trap-kepler-1.got"'
chk "printf prints" '[ "$(g printf-fermi-1 "^\[block")" -ge 256 ]'
# --threads is no no-op: while a run of --threads 3 goes, its process has 3 host threads or
# more (read from /proc; only the largest count seen is asserted, never a time)
if [ -d /proc/self/task ]; then
	"$BIN/warpsim" "$R/bench/sim/intloop.sass" --grid 120 --block 256 --arg buf:u32:30720 \
		--arg u32:1000 --threads 3 --quiet &
	pid=$! most=0
	while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
		n=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.01
	done
	wait "$pid"
	chk "--threads 3 runs on 3 host threads (saw $most)" '[ "$most" -ge 3 ]'
fi
chk "a load sees its window's start and its own stores (tests/sim/window.ptx)" \
	'[ "$(sed -n "/^o0.txt/,\$p" "$T/window-fermi-1.got" | tr "\n" " ")" = "o0.txt 1 0 7 7 " ]'
chk "atomics moved memory" '! grep -A1 "^o0.txt" "$T/atomics-fermi-1.got" | tail -1 | grep -qx "0"'
echo "run-threads: $pass passed, $fail failed"
[ "$fail" = 0 ]
