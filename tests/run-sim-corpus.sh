#!/bin/sh
# run-sim-corpus.sh - every corpus kernel (tests/ptx/NAME.ptx with NAME.launch) runs under
# fermi.cfg and kepler.cfg with the timing model, and its statistics must be plausible:
# cycles >= warp instructions / (SMs x schedulers x issue width), thread instructions <= 32
# x warp instructions, SIMD efficiency in (0, 1], gpu_ipc = gpu_sim_insn / gpu_sim_cycle,
# at least one CTA, occupancy in (0, 1]. A kernel the translator does not support yet is
# PENDING (its message is shown), not a failure. Run by `make check` with BIN set.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-sim-corpus.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 pending=0
top=$(pwd)
. tests/launch.sh
case $BIN in /*) W=$BIN/warpsim ;; *) W=$top/$BIN/warpsim ;; esac
mkdir "$T/run"   # the runs' directory: a launch's relative --out paths land there

# slots CFG: the config's issue slots per cycle (SMs x schedulers x issue width)
slots() {
	awk '$1 == "--sms" { a = $2 } $1 == "--schedulers" { b = $2 } $1 == "--issue-width" { c = $2 }
	     END { print a * b * c }' "sim/configs/$1.cfg"
}

for p in "$top"/tests/ptx/*.ptx; do
	n=$(basename "$p" .ptx)
	l=$(launch_of "$p")
	[ -n "$l" ] || continue
	for cfg in fermi kepler; do
		if ! (cd "$T/run" && "$W" "$p" --launch "$l" --config "$top/sim/configs/$cfg.cfg" --quiet \
			--stats-json "$T/s.json") >"$T/out" 2>"$T/err"; then
			if grep -q "unsupported" "$T/err"; then
				echo "PENDING $n on $cfg: $(head -n 1 "$T/err")"; pending=$((pending + 1))
			else
				echo "FAIL: $n on $cfg: warpsim failed"; cat "$T/err"; fail=$((fail + 1))
			fi
			continue
		fi
		why=$(awk -v slots="$(slots $cfg)" '
			/^  "[a-z_]*": / { k = $1; gsub(/[":]/, "", k); v = $2; sub(/,$/, "", v); s[k] = v + 0 }
			END {
			cy = s["gpu_sim_cycle"]; wi = s["gpgpu_n_tot_w_icount"]; ti = s["gpu_sim_insn"]
			eff = s["simd_efficiency"]; ipc = s["gpu_ipc"]; ctas = s["ctas"]; occ = s["gpu_occupancy"]
			if (wi <= 0) { print "no warp instruction"; exit }
			if (cy * slots < wi) { print "cycles " cy " < warp insts " wi " / " slots; exit }
			if (ti > 32 * wi) { print "thread insts " ti " > 32 x " wi; exit }
			if (!(eff > 0 && eff <= 1)) { print "SIMD efficiency " eff; exit }
			d = ti / cy - ipc; if (d < -0.0001 || d > 0.0001) { print "gpu_ipc " ipc " != " ti / cy; exit }
			if (ctas < 1) { print "no CTA"; exit }
			if (!(occ > 0 && occ <= 1)) { print "occupancy " occ; exit }
		}' "$T/s.json")
		if [ -n "$why" ]; then
			echo "FAIL: $n on $cfg: $why"; fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	done
done

echo "run-sim-corpus: $pass passed, $pending pending, $fail failed"
[ "$fail" = 0 ]
