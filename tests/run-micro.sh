#!/bin/sh
# run-micro.sh - issue 16's microbenchmarks pinned: bench/micro/gen.sh, gen_ctrl.sh and
# gen_mem.sh write every kernel,
# bench/micro/measure.sh runs each under fermi.cfg and kepler.cfg, and every figure (cycles
# per dependent op, ops per cycle per SM, from the kernels' own %clock reads) must equal its
# row in bench/micro/results.txt, which `make micro` writes. The figures are the model's, not
# the host's: nothing here is timed. A change to the model that moves a figure fails here
# until `make micro` renews results.txt and docs/calibration.md on purpose. Run by make check.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-micro.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
if ! sh bench/micro/gen.sh "$T/k" 2>"$T/err" || ! sh bench/micro/gen_ctrl.sh "$T/k" 2>>"$T/err" ||
   ! sh bench/micro/gen_mem.sh "$T/k" 2>>"$T/err" ||
   ! sh bench/micro/measure.sh "$BIN" "$T/k" sim/configs/fermi.cfg sim/configs/kepler.cfg \
	>"$T/got" 2>>"$T/err"; then
	echo "FAIL: the microbenchmarks do not run:"; head -5 "$T/err"
	echo "run-micro: 0 passed, 1 failed"
	exit 1
fi
while read -r name rest; do
	want=$(awk -v n="$name" '$1 == n { $1 = ""; print substr($0, 2) }' bench/micro/results.txt)
	if [ -z "$want" ]; then
		echo "FAIL $name: no row in bench/micro/results.txt (make micro writes it)"; fail=$((fail + 1))
	elif [ "$want" != "$rest" ]; then
		echo "FAIL $name: fermi kepler = $rest, results.txt says $want"; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done <"$T/got"
# the control-flow and memory kernels hold the construct they are named for, and it does what
# it should: ctl NAME CONFIG 'PATTERN...' 'STAT=VALUE...' - every extended regular expression
# PATTERN matches the listing warpc makes of NAME under sim/configs/CONFIG.cfg with the list's
# options (a leading ! : matches no line; a trailing #N: exactly N lines; _ stands for a
# space), and every statistic of its run (the list's threads, measure.sh's arguments) has VALUE
set -f
ctl() {
	opts=$(awk -v n="$1" '$1 == n { for (i = 5; i <= NF; i++) printf "%s ", $i }' "$T/k/list")
	th=$(awk -v n="$1" '$1 == n { print $2 }' "$T/k/list")
	# shellcheck disable=SC2086
	if ! "$BIN/warpc" "$T/k/$1.ptx" --config "sim/configs/$2.cfg" $opts >"$T/lst" 2>"$T/err" ||
	   ! "$BIN/warpsim" "$T/k/$1.ptx" --config "sim/configs/$2.cfg" $opts --grid 1 --block "$th" \
		--arg "buf:u32:$((3 * th))" --arg u32:1 --arg buf:u32:1048576 >"$T/st" 2>&1; then
		echo "FAIL $1 $2: does not translate or run"; fail=$((fail + 1)); return
	fi
	for p in $3; do
		p=$(printf '%s' "$p" | tr _ ' ')
		case $p in
		!*) ! grep -Eq -- "${p#!}" "$T/lst" || { echo "FAIL $1 $2: the listing has ${p#!}"; fail=$((fail + 1)); return; };;
		*\#*) [ "$(grep -Ec -- "${p%\#*}" "$T/lst")" = "${p##*#}" ] || { printf 'FAIL %s %s: the listing has not %s lines %s\n' "$1" "$2" "${p##*#}" "${p%\#*}"; fail=$((fail + 1)); return; };;
		*) grep -Eq -- "$p" "$T/lst" || { echo "FAIL $1 $2: the listing has no $p"; fail=$((fail + 1)); return; };;
		esac
	done
	for kv in $4; do
		got=$(awk -v k="${kv%%=*}" '$1 == k { print $2 }' "$T/st")
		[ "$got" = "${kv#*=}" ] || { echo "FAIL $1 $2: ${kv%%=*} = $got, not ${kv#*=}"; fail=$((fail + 1)); return; }
	done
	pass=$((pass + 1))
}
for c in fermi kepler; do
	ctl ctl_bra_taken $c '@P[0-6]_BRA !SSY' 'divergent_branches=0 predicated_off_lanes=0'
	ctl ctl_bra_fall $c '@P[0-6]_BRA !SSY' 'divergent_branches=0 predicated_off_lanes=1024'
	ctl ctl_ifelse_conv $c 'SSY @P[0-6]_BRA MOV32I\.S' 'divergent_branches=0 reconvergences=32'
	ctl ctl_ifelse_div $c 'SSY @P[0-6]_BRA MOV32I\.S' 'div_bra=32 reconvergences=32'
	ctl ctl_predoff_all $c '@P[0-6]_IADD' 'predicated_off_lanes=1024'
	ctl ctl_predoff_half $c '@!P[0-6]_IADD' 'predicated_off_lanes=512'
	ctl ctl_call $c 'CAL_ RET; !BRA' 'crs_high_water=1'
	ctl ctl_vote $c 'VOTE\.ANY' 'divergent_branches=0'
done
ctl ctl_brk kepler 'PBK @P[0-6]_BRK; !SSY' 'div_brk=31'
ctl ctl_brk fermi 'SSY @P[0-6]_NOP\.S !PBK' 'div_sync=31'
# the memory chases are one load a step, nothing between (LDS R3, [R3]: no copy after it); the
# conflicts, hits and misses are the ones each kernel is built for (35 shared accesses of
# 32-way conflicts; 131 global accesses: 35 stores, 32 + 64 loads, the last two passes hitting
# L1, hitting L2 or missing it; 34 atomics)
for c in fermi kepler; do
	ctl lat_lds $c 'LDS_(R[0-9]+),_\[\1\];#34 !MOV_R[0-9]+,_R' ''
	ctl lat_lds_c32 $c 'LDS_(R[0-9]+),_\[\1\];#34' 'gpgpu_n_shmem_bkconflict=1085'
	ctl lat_lds_c1 $c 'LDS_(R[0-9]+),_\[\1\];#34' 'gpgpu_n_shmem_bkconflict=0'
	ctl lat_ldc_div $c 'LDC_(R[0-9]+),_c\[0x3\]\[\1\];#34 !MOV_R[0-9]+,_R' ''
	ctl lat_gld_l2 $c 'LD\.E\.64_(R[0-9]+),_\[\1\];#96' 'L2_total_cache_accesses=131 L2_total_cache_misses=33'
	ctl lat_gld_dram $c 'LD\.E\.64_(R[0-9]+),_\[\1\];#96' 'L2_total_cache_misses=129'
	ctl lat_atom_g_uni $c 'ATOM' 'gpgpu_n_mem_atomic=34'
done
ctl lat_gld_l1 fermi 'LD\.E\.64_(R[0-9]+),_\[\1\];#96' 'L1D_total_cache_accesses=131 L1D_total_cache_misses=67'
ctl lat_gld_l1 kepler 'LD\.E\.64_(R[0-9]+),_\[\1\];#96' 'L1D_total_cache_accesses=0'
n=$(wc -l <bench/micro/results.txt)
if [ "$n" != "$(wc -l <"$T/got")" ]; then
	echo "FAIL: results.txt has $n rows, the suite $(wc -l <"$T/got")"; fail=$((fail + 1))
fi
echo "run-micro: $pass passed, $fail failed"
[ $fail = 0 ]
