#!/bin/sh
# icount.sh BIN - the repeatable measure of simulator speed: host instructions (callgrind
# "I refs") per simulated warp instruction for the bench kernels at a tenth of their size,
# fermi.cfg, timing model on. Not run by `make bench` (valgrind takes a minute); run it by
# hand: sh bench/sim/icount.sh bin. The rows marked --functional run the SM model without
# its timing model. Wall-clock numbers on a shared 2-core VM vary by 30% and
# more from run to run; these do not.
BIN=${1:-bin}
command -v valgrind >/dev/null 2>&1 || { echo "icount.sh: valgrind not found: skipped"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sim-icount.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "| kernel | warp instructions | host instructions | per warp instruction |"
echo "|---|---|---|---|"
for k in "intloop --arg buf:u32:30720 --arg u32:200" "ffma --arg buf:f32:30720 --arg u32:50" \
	"intloop --arg buf:u32:30720 --arg u32:200 --functional" "ffma --arg buf:f32:30720 --arg u32:50 --functional"; do
	# shellcheck disable=SC2086
	set -- $k
	n=$1; shift
	case $k in *--functional) n="$n --functional" ;; esac
	valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN/warpsim" bench/sim/${n%% *}.sass \
		--config sim/configs/fermi.cfg --grid 120 --block 256 "$@" --quiet --stats-json "$T/s.json" \
		2>"$T/err" || { echo "icount.sh: $n failed" >&2; cat "$T/err" >&2; exit 1; }
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$T/err")
	wi=$(sed -n 's/^  "gpgpu_n_tot_w_icount": \([0-9]*\),$/\1/p' "$T/s.json")
	awk -v n="$n" -v ir="$ir" -v wi="$wi" 'BEGIN { printf "| %s | %d | %d | %.0f |\n", n, wi, ir, ir / wi }'
done
