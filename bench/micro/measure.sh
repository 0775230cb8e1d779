#!/bin/sh
# measure.sh BIN DIR CONFIG... - runs every benchmark of DIR/list (written by gen.sh) on the
# SM model under each CONFIG and prints one line per benchmark: its name, its unit (lat:
# cycles per dependent operation; cyc: cycles per control construct of one warp, as lat;
# thr: operations per cycle per SM) and one figure per
# config, from the kernel's own clocks: max(end) - min(start) over its threads (the threads meet
# at a bar.sync before their first clock), divided by
# the operations of one thread (lat) or dividing all threads' operations (thr). Every run is
# one CTA on one SM. No host time is involved: the figures are the model's, exactly.
set -e
BIN=$1 D=$2
shift 2
T=$(mktemp -d "${TMPDIR:-/tmp}/micro.XXXXXX")
trap 'rm -rf "$T"' EXIT
while read -r name threads ops unit opts; do
	line="$name $unit"
	for cfg in "$@"; do
		# shellcheck disable=SC2086
		"$BIN/warpsim" "$D/$name.ptx" --config "$cfg" --grid 1 --block "$threads" \
			--arg "buf:u32:$((3 * threads))" --arg u32:1 --arg buf:u32:1048576 \
			--out "0:$T/out.txt" --quiet $opts
		v=$(awk -v t="$threads" -v n="$ops" -v u="$unit" '
			NR % 3 == 1 { if (lo == "" || $1 < lo) lo = $1 }
			NR % 3 == 2 { if (hi == "" || $1 > hi) hi = $1 }
			END { e = hi - lo; if (u == "thr") printf "%.1f", t * n / e; else printf "%.1f", e / n }' "$T/out.txt")
		line="$line $v"
	done
	echo "$line"
done <"$D/list"
