#!/bin/sh
# ocount.sh BIN - icount.sh's measure for the PTX oracle (warpsim --oracle): host
# instructions (callgrind "I refs") per simulated instruction for the bench kernels in PTX
# (intloop.ptx, ffma.ptx: the loops of intloop.sass and ffma.sass) with icount.sh's
# iterations on a tenth of its CTAs (12: the oracle runs them one after another, so the
# count per instruction is the same, and callgrind takes a tenth of the time).
# The oracle runs each thread alone, so it counts thread instructions; a warp instruction's
# equivalent is 32 of them (every warp of these kernels is full). Not run by `make bench`;
# run it by hand: sh bench/sim/ocount.sh bin.
BIN=${1:-bin}
command -v valgrind >/dev/null 2>&1 || { echo "ocount.sh: valgrind not found: skipped"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sim-ocount.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "| kernel | thread instructions | host instructions | per thread instruction | per warp instruction (x 32) |"
echo "|---|---|---|---|---|"
for k in "intloop --arg buf:u32:3072 --arg u32:200" "ffma --arg buf:f32:3072 --arg u32:50"; do
	# shellcheck disable=SC2086
	set -- $k
	n=$1; shift
	valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN/warpsim" bench/sim/$n.ptx --oracle \
		--grid 12 --block 256 "$@" 2>"$T/err" >/dev/null || { echo "ocount.sh: $n failed" >&2; cat "$T/err" >&2; exit 1; }
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$T/err")
	ti=$(sed -n 's/^oracle: \([0-9]*\) thread instructions.*/\1/p' "$T/err")
	awk -v n="$n --oracle" -v ir="$ir" -v ti="$ti" 'BEGIN { printf "| %s | %d | %.0f | %.1f | %.0f |\n", n, ti, ir, ir / ti, 32 * ir / ti }'
done
