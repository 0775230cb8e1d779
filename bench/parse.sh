#!/bin/sh
# parse.sh BIN BUILD [LINES] - PTX frontend parse speed: builds a module of about LINES
# (default 1,000,000) lines by repeating the divergence fixture's kernel under new names
# (plus the calls fixture's functions once), then times `warpc --parse-only` on it (best of
# three) and prints lines per second and peak memory. Then the same for the listing parser:
# a listing of about LINES lines (the divergence kernel's listing of tests/sim/stats/k
# repeated under new names) through `warpc --asm` (parse, check and print it back to
# /dev/null), and the printer alone on that listing: tests/tools/printbench (built by make
# tests and make bench) reads it once and prints it to /dev/null five times (statements per
# second of CPU time, the fastest round). A benchmark, not a test.
BIN=${1:-bin}
BUILD=${2:-build}
want=${3:-1000000}
src=tests/ptx/divergence.sm80.ptx
big=$BUILD/bench/big.ptx
mkdir -p "$BUILD/bench" || exit 1
# timed WHAT FILE ARGS...: `warpc ARGS...` (stdout to /dev/null), best of three; prints WHAT's
# lines of FILE per second (wall time) and the peak memory of the last run (tests/tools/cputime)
timed() {
	what=$1 file=$2
	shift 2
	lines=$(wc -l < "$file")
	bytes=$(wc -c < "$file")
	best=
	for r in 1 2 3; do
		"$BUILD/tests/tools/cputime" "$BUILD/bench/time" "$BIN/warpc" "$@" > /dev/null || exit 1
		read -r w _ _ rss <"$BUILD/bench/time"
		t=$(awk -v w="$w" 'BEGIN { printf "%.3f", w }')
		if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
	done
	echo "$what: $lines lines ($bytes bytes) in ${best}s = $(awk -v l="$lines" -v t="$best" 'BEGIN { printf "%d", l / t }') lines/s; peak RSS ${rss} KiB"
}

# the kernel: from ".visible .entry" to the end of its body
body=$(awk '/\.visible \.entry/ { on = 1 } on { print } on && /^}/ { exit }' "$src")
per=$(printf '%s\n' "$body" | wc -l)
n=$(( want / per + 1 ))
{
	sed -n '1,/^\.address_size/p' "$src"
	i=0
	while [ $i -lt $n ]; do
		printf '%s\n' "$body" | sed "s/\.entry divergence(/.entry divergence_$i(/; s/divergence_param_/divergence_${i}_param_/g"
		i=$((i + 1))
	done
	sed -n '/^\t\.file/p' "$src"
} > "$big"
timed "frontend parse" "$big" --parse-only "$big"

# the listing parser (isa/asm.c): the same measure on a listing
lsrc=tests/sim/stats/k/divergence.sm75.sass
lbig=$BUILD/bench/big.sass
lper=$(wc -l < "$lsrc")
n=$(( want / lper + 1 ))
awk -v n="$n" '{ line[NR] = $0 } END {
	for (i = 0; i < n; i++)
		for (j = 1; j <= NR; j++)
			print (line[j] ~ /^\.kernel / ? line[j] "_" i : line[j])
}' "$lsrc" > "$lbig" || exit 1
timed "listing parse" "$lbig" --asm "$lbig"

# the listing printer (isa/print.c) alone, on the same listing
pb=$BUILD/tests/tools/printbench
[ -x "$pb" ] || { echo "listing print: $pb is not built (make tests)" >&2; exit 1; }
"$pb" "$lbig" || exit 1
