#!/bin/sh
# run-crs.sh - the CallReturnStack spills to local memory (issue 15): the tokens beyond
# --crs-depth go to the warp's --crs-bytes area and come back on pop, counted (crs_spills,
# crs_fills) and charged as local-memory traffic; only a full area is an error.
#   1. recursion 1000 deep (tests/ptx/cf_recurse_deep, run-diff.sh compares its memory with
#      the oracle at every threshold): the counts, and the cost against an on-chip stack
#      deep enough to need no spill (same memory, fewer cycles and store transactions);
#   2. ptxas's listing of cf_loop_brx_exit (a divergent brx.idx in a loop, one DIV token per
#      iteration in which lanes leave) at the default depth equals the oracle, and its stack
#      stays bounded (high-water 33) over 150..625 iterations per lane;
#   1b. the same counts under --functional (whose table has no memory rows);
#   3. the exhausted area: located, naming kernel, warp and pc (tests/sim/crs_full.errcase).
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-crs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# stat FILE NAME: the value of a statistics row
stat() { awk -v n="$2" '$1 == n { print $2 }' "$1"; }

p=tests/ptx/cf_recurse_deep
"$BIN/warpsim" $p.ptx --launch $p.launch --out 0:"$T/spill.bin" --stats 2>"$T/spill.st" || bad "cf_recurse_deep did not run"
"$BIN/warpsim" $p.ptx --launch $p.launch --crs-depth 4096 --out 0:"$T/chip.bin" --stats 2>"$T/chip.st" || bad "cf_recurse_deep on chip did not run"
"$BIN/warpsim" --oracle $p.ptx --launch $p.launch --out 0:"$T/or.bin" --quiet || bad "oracle"
cmp -s "$T/spill.bin" "$T/or.bin" && cmp -s "$T/chip.bin" "$T/or.bin" && ok || bad "cf_recurse_deep differs from the oracle"
# two warps, lane 0 1000 deep: 2 tokens a level (CAL, and the base case's divergence)
[ "$(stat "$T/spill.st" crs_high_water)" = 2002 ] && ok || bad "high water $(stat "$T/spill.st" crs_high_water), expected 2002"
[ "$(stat "$T/spill.st" crs_spills)" = 3938 ] && [ "$(stat "$T/spill.st" crs_fills)" = 3938 ] && ok ||
	bad "spills/fills $(stat "$T/spill.st" crs_spills)/$(stat "$T/spill.st" crs_fills), expected 3938/3938"
[ "$(stat "$T/chip.st" crs_spills)" = 0 ] && [ "$(stat "$T/chip.st" crs_fills)" = 0 ] && ok || bad "spills with --crs-depth 4096"
s=$(stat "$T/spill.st" gpu_sim_cycle) c=$(stat "$T/chip.st" gpu_sim_cycle)
[ "$s" -gt "$c" ] && ok || bad "spilling costs no cycles ($s vs $c)"
s=$(stat "$T/spill.st" gpgpu_n_mem_write_global) c=$(stat "$T/chip.st" gpgpu_n_mem_write_global)
[ "$s" -eq $((c + 3938)) ] && ok || bad "spill stores $s, expected $c + 3938"
s=$(stat "$T/spill.st" gpgpu_n_mem_read_global) c=$(stat "$T/chip.st" gpgpu_n_mem_read_global)
[ "$s" -eq $((c + 3938)) ] && ok || bad "fill loads $s, expected $c + 3938"
# the functional core alone counts the same spills and fills, and its table leaves out the
# memory counters it does not measure
"$BIN/warpsim" $p.ptx --launch $p.launch --functional --out 0:"$T/func.bin" --stats 2>"$T/func.st" || bad "cf_recurse_deep --functional did not run"
cmp -s "$T/func.bin" "$T/or.bin" && [ "$(stat "$T/func.st" crs_spills)" = 3938 ] &&
	[ "$(stat "$T/func.st" crs_fills)" = 3938 ] && ! grep -q '^gpgpu_n_mem_write_global ' "$T/func.st" &&
	grep -q '^gpu_sim_cycle .* rounds of the functional core' "$T/func.st" && ok ||
	bad "cf_recurse_deep --functional: spills/fills $(stat "$T/func.st" crs_spills)/$(stat "$T/func.st" crs_fills), expected 3938/3938, and no memory rows"

p=tests/ptx/cf_loop_brx_exit
"$BIN/warpsim" tests/ptxas-ref/cf_loop_brx_exit.sass --launch $p.launch --out 0:"$T/l.bin" --stats 2>"$T/l.st" || bad "ptxas's cf_loop_brx_exit did not run at the default depth"
"$BIN/warpsim" --oracle $p.ptx --launch $p.launch --out 0:"$T/lo.bin" --quiet
cmp -s "$T/l.bin" "$T/lo.bin" && ok || bad "ptxas's cf_loop_brx_exit differs from the oracle"
[ "$(stat "$T/l.st" crs_high_water)" = 33 ] && [ "$(stat "$T/l.st" crs_spills)" = 2 ] && ok ||
	bad "cf_loop_brx_exit: high water $(stat "$T/l.st" crs_high_water), spills $(stat "$T/l.st" crs_spills); expected 33, 2"

echo "run-crs: $pass passed, $fail failed"
[ "$fail" = 0 ]
