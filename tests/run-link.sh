#!/bin/sh
# run-link.sh - several PTX files in one run, as separate compilation (nvcc -rdc=true,
# clang -fgpu-rdc) produces them (frontend/link.c, docs/frontend.md "Linking").
#
# tests/ptx/link/main.ptx + lib.ptx: a kernel that calls a .visible function of the other
# file through an .extern declaration, reads an .extern .global defined there, calls a .weak
# function the other file's .visible one overrides, a function named as one of the other
# file's own (renamed helper$2 there) and a dynamic .extern .shared array. The oracle and
# the SM model at every setting of run-diff (tests/settings.sh) leave the same buffer, the
# one the fixture's formula gives; warpc's listing holds each function once.
# Bad links (tests/ptx/link/NAME.ptx linked after main.ptx and lib.ptx): warpc, warpsim and
# warpsim --oracle each exit 1 with exactly tests/ptx/link/NAME.err, the located errors
# naming the file of each place. UPDATE=1 rewrites the .err goldens.
#
# env: BIN (warpc, warpsim)
BIN=${BIN:-bin}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$BIN" && pwd)
ws=$bin/warpsim wc=$bin/warpc
dir=$top/tests/ptx/link
. "$top/tests/verdict.sh"
. "$top/tests/settings.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-link.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 pend=0
pending=/dev/null

# the linked program on both engines ------------------------------------------------------
cd "$dir" || exit 1
why=""
if ! "$ws" --oracle main.ptx lib.ptx --launch main.launch --quiet --out "0:$tmp/oracle.bin" \
	>"$tmp/oracle.err" 2>&1; then
	why="the oracle failed: $(head -1 "$tmp/oracle.err")"
fi
# out[t] = scale(t) + pick(t) + bias + main's helper(t ^ 1) through shared memory, with
# lib's scale(t) = t even ? 16 t : 5 * lib's helper(t) = 15 t, lib's pick(t) = t + 100
od -An -tu4 -v "$tmp/oracle.bin" 2>/dev/null | tr -s ' ' '\n' | sed '/^$/d' >"$tmp/got.txt"
awk 'BEGIN { for (t = 0; t < 64; t++) print (t % 2 ? 15 * t : 16 * t) + t + 100 + 7 + 1000 + (t % 2 ? t - 1 : t + 1) }' \
	>"$tmp/want.txt"
[ -z "$why" ] && ! cmp -s "$tmp/got.txt" "$tmp/want.txt" &&
	why="the oracle's buffer is not the formula's ($(diff "$tmp/want.txt" "$tmp/got.txt" | sed -n 2p))"
for s in $settings; do
	[ -z "$why" ] || break
	# shellcheck disable=SC2046
	if ! "$ws" main.ptx lib.ptx --launch main.launch --quiet $(popts "$s") \
		--out "0:$tmp/sm.$s.bin" >"$tmp/sm.err" 2>&1; then
		why="the SM model failed at $s: $(head -1 "$tmp/sm.err")"
	elif ! cmp -s "$tmp/oracle.bin" "$tmp/sm.$s.bin"; then
		why="the SM model's buffer differs from the oracle's at $s"
	fi
done
verdict "main.ptx + lib.ptx on both engines at every setting" "$why"

# the listing: every function once, the file's own helper of lib renamed
why=""
if ! "$wc" main.ptx lib.ptx -o "$tmp/l.sass" 2>"$tmp/wc.err"; then
	why="warpc failed: $(head -1 "$tmp/wc.err")"
else
	got=$(grep -E '^\.(kernel|func) ' "$tmp/l.sass" | tr '\n' ' ')
	[ "$got" = ".kernel kmain .func helper .func pick .func helper\$2 .func scale " ] ||
		why="functions of the listing: $got"
	# the listing runs as the PTX does
	if [ -z "$why" ]; then
		if ! "$ws" "$tmp/l.sass" --launch main.launch --quiet --out "0:$tmp/sass.bin" \
			>"$tmp/sass.err" 2>&1; then
			why="the listing does not run: $(head -1 "$tmp/sass.err")"
		elif ! cmp -s "$tmp/oracle.bin" "$tmp/sass.bin"; then
			why="the listing's buffer differs from the oracle's"
		fi
	fi
fi
verdict "warpc main.ptx lib.ptx: one listing" "$why"

# --explain names the file of each branch
why=""
"$wc" --explain=json main.ptx lib.ptx >"$tmp/x.json" 2>&1 || why="warpc --explain failed"
[ -z "$why" ] && ! grep -q '"ptx_file": "lib.ptx", "function": "scale", "index": 1, "ptx_line": 26' "$tmp/x.json" &&
	why="--explain does not place scale's branch at lib.ptx:26: $(head -2 "$tmp/x.json" | tail -1)"
verdict "warpc --explain names lib.ptx" "$why"

# a listing is no PTX to link
why=""
if "$ws" main.ptx "$tmp/l.sass" --launch main.launch --quiet >"$tmp/mix.err" 2>&1; then
	why="warpsim linked a listing"
elif ! grep -qF "only PTX files (.ptx) are linked into one program, not listings" "$tmp/mix.err"; then
	why="message: $(head -1 "$tmp/mix.err")"
fi
verdict "a listing among the files is refused" "$why"

# bad links ------------------------------------------------------------------------------
for bad in dup unres kernel2 addr32 proto kind; do
	want=$dir/$bad.err why=""
	"$wc" main.ptx lib.ptx "$bad.ptx" >/dev/null 2>"$tmp/$bad.wc"
	rc=$?
	if [ -n "$UPDATE" ]; then
		cp "$tmp/$bad.wc" "$want"
	fi
	[ $rc = 1 ] || why="warpc exits $rc, not 1"
	[ -z "$why" ] && ! cmp -s "$want" "$tmp/$bad.wc" &&
		why="warpc's messages differ: $(diff "$want" "$tmp/$bad.wc" | sed -n 2p)"
	for eng in "" --oracle; do
		[ -z "$why" ] || break
		# shellcheck disable=SC2086
		"$ws" $eng main.ptx lib.ptx "$bad.ptx" --launch main.launch --quiet >/dev/null 2>"$tmp/$bad.ws"
		rc=$?
		if [ $rc != 1 ]; then
			why="warpsim $eng exits $rc, not 1"
		elif ! cmp -s "$want" "$tmp/$bad.ws"; then
			why="warpsim $eng's messages differ: $(diff "$want" "$tmp/$bad.ws" | sed -n 2p)"
		fi
	done
	verdict "$bad.ptx: $(head -1 "$want" | sed "s/.*error: //" | cut -c1-64)" "$why"
done

echo "run-link: $pass passed, $fail failed"
[ $fail = 0 ]
