#!/bin/sh
# run-perfdirs.sh - the performance-tuning directives (issue 15 part 3; tests/ptx/perf_dirs):
# .minnctapersm N with .maxntid T caps the registers so that N CTAs of T threads fit on an SM
# (the listing's .registers, the occupancy the SM model computes, against the same kernel
# without the directive); .reqntid is the only block shape a launch may have and .maxntid the
# most threads a block may have, on the SM model and the oracle alike (exit 2, the message).
BIN=${BIN:-bin}
here=$(cd "$(dirname "$0")" && pwd)
P=$here/ptx/perf_dirs.ptx
F=$here/../sim/configs/fermi.cfg
tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfdirs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
name=run-perfdirs
. "$here/expect.sh"
# stat FILE NAME: the value of a --stats line
stat() { awk -v n="$2" '$1 == n { print $2 }' "$1"; }
A="--arg buf:u32:600:random:13 --arg buf:u32:256:zero"

# minctas: 32 registers (32768 / (4 x 256)) and 4 CTAs per SM under fermi.cfg; without
# .minnctapersm the same kernel takes more registers and fewer CTAs
sed '/^\.minnctapersm/d' "$P" > "$tmp/nodir.ptx"
expect 0 "" "$BIN/warpc" --config "$F" --kernel minctas "$P" -o "$tmp/with.sass"
expect 0 "" "$BIN/warpc" --config "$F" --kernel minctas "$tmp/nodir.ptx" -o "$tmp/without.sass"
rw=$(awk '$1 == ".registers" { print $2 }' "$tmp/with.sass")
ro=$(awk '$1 == ".registers" { print $2 }' "$tmp/without.sass")
[ "${rw:-99}" -le 32 ] && ok || bad "minctas: .registers $rw, expected at most 32"
[ "${ro:-0}" -gt 32 ] && ok || bad "minctas without .minnctapersm: .registers $ro, expected more than 32"
grep -q '^\.minnctapersm 4$' "$tmp/with.sass" && ok || bad "the listing lacks .minnctapersm 4"
for v in with without; do
	f=$P; [ $v = without ] && f=$tmp/nodir.ptx
	expect 0 "" "$BIN/warpsim" --config "$F" "$f" --kernel minctas --grid 2 --block 256 $A \
		--out "1:$tmp/$v.txt"
	cp "$tmp/err" "$tmp/$v.stats"   # the statistics table (stderr)
done
cw=$(stat "$tmp/with.stats" occupancy_ctas_per_sm)
co=$(stat "$tmp/without.stats" occupancy_ctas_per_sm)
[ "${cw:-0}" -ge 4 ] && ok || bad "minctas: $cw CTAs per SM, expected at least 4"
[ "${co:-9}" -lt 4 ] && ok || bad "minctas without .minnctapersm: $co CTAs per SM, expected fewer than 4"
cmp -s "$tmp/with.txt" "$tmp/without.txt" && ok || bad "minctas: the register cap changed the results"
expect 0 "" "$BIN/warpsim" --quiet --oracle "$P" --kernel minctas --grid 2 --block 256 $A --out "1:$tmp/o.txt"
cmp -s "$tmp/with.txt" "$tmp/o.txt" && ok || bad "minctas: the SM model and the oracle differ"

# .maxntid 256: a block of 512 is refused by both engines
for e in "" --oracle; do
	expect 2 "kernel 'minctas' takes at most 256 threads per block \(.maxntid\), got 512 x 1 x 1" \
		"$BIN/warpsim" --quiet $e "$P" --kernel minctas --block 512 $A
done
# .reqntid 32, 2: that block runs alike on both engines, any other is refused
expect 0 "" "$BIN/warpsim" --quiet "$P" --kernel req --block 32,2 $A --out "1:$tmp/rs.txt"
expect 0 "" "$BIN/warpsim" --quiet --oracle "$P" --kernel req --block 32,2 $A --out "1:$tmp/ro.txt"
cmp -s "$tmp/rs.txt" "$tmp/ro.txt" && ok || bad "req: the SM model and the oracle differ"
for e in "" --oracle; do
	expect 2 "kernel 'req' requires a block of 32 x 2 x 1 threads \(.reqntid\), got 64 x 1 x 1" \
		"$BIN/warpsim" --quiet $e "$P" --kernel req --block 64 $A
done
echo "run-perfdirs: $pass passed, $fail failed"
[ $fail = 0 ]
