#!/bin/sh
# icount.sh BIN - the repeatable measure of simulator speed: host instructions (callgrind
# "I refs") per simulated warp instruction, fermi.cfg, timing model on: the bench kernels at
# a tenth of their size, and the divergence kernel (tests/sim/stats/k/divergence.sm75.sass,
# as bench/threads.sh runs it) at a tenth of its grid. Not run by `make bench` (valgrind
# takes a few minutes); run it by hand: sh bench/sim/icount.sh bin. The rows marked
# --functional run the SM model without its timing model. Wall-clock numbers on a shared
# 2-core VM vary by 30% and more from run to run; these do not.
BIN=${1:-bin}
command -v valgrind >/dev/null 2>&1 || { echo "icount.sh: valgrind not found: skipped"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sim-icount.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "| kernel | warp instructions | host instructions | per warp instruction |"
echo "|---|---|---|---|"
# each row: its name in the table | warpsim's arguments
while IFS="|" read -r n args; do
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN/warpsim" $args \
		--config sim/configs/fermi.cfg --quiet --stats-json "$T/s.json" \
		2>"$T/err" || { echo "icount.sh: $n failed" >&2; cat "$T/err" >&2; exit 1; }
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$T/err")
	wi=$(sed -n 's/^  "gpgpu_n_tot_w_icount": \([0-9]*\),$/\1/p' "$T/s.json")
	awk -v n="$n" -v ir="$ir" -v wi="$wi" 'BEGIN { printf "| %s | %d | %d | %.0f |\n", n, wi, ir, ir / wi }'
done <<ROWS
intloop|bench/sim/intloop.sass --grid 120 --block 256 --arg buf:u32:30720 --arg u32:200
ffma|bench/sim/ffma.sass --grid 120 --block 256 --arg buf:f32:30720 --arg u32:50
divergence|tests/sim/stats/k/divergence.sm75.sass --grid 240 --block 128 --arg buf:s32:30720:random:9:0:200 --arg buf:s32:30720:const:-7 --arg s32:30720
intloop --functional|bench/sim/intloop.sass --grid 120 --block 256 --arg buf:u32:30720 --arg u32:200 --functional
ffma --functional|bench/sim/ffma.sass --grid 120 --block 256 --arg buf:f32:30720 --arg u32:50 --functional
divergence --functional|tests/sim/stats/k/divergence.sm75.sass --grid 240 --block 128 --arg buf:s32:30720:random:9:0:200 --arg buf:s32:30720:const:-7 --arg s32:30720 --functional
ROWS
