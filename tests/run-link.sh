#!/bin/sh
# run-link.sh - several PTX files in one run, as separate compilation (nvcc -rdc=true,
# clang -fgpu-rdc) produces them (frontend/link.c, docs/frontend.md "Linking").
#
# tests/ptx/link/main.ptx + lib.ptx (hand-written): a kernel that calls a .visible function of the other
# file through an .extern declaration, reads an .extern .global defined there, calls a .weak
# function the other file's .visible one overrides, a function named as one of the other
# file's own (renamed helper$2 there) and a dynamic .extern .shared array. The oracle and
# the SM model at every setting of run-diff (tests/settings.sh) leave the same buffer, the
# one the fixture's formula gives; warpc's listing holds each function once. The same for
# two programs nvcc 11.8 wrote from two CUDA files each (rdc_*.cu, -rdc=true -arch=sm_35):
# an .extern .func, .extern .global float and dynamic .extern .shared (rdc_vec + rdc_shape);
# an .extern .const array, printf in both files and their $str strings, one renamed
# (rdc_print + rdc_step). A .common .global array (common_a.ptx + common_b.ptx, either order):
# the largest definition, the one initialized, is kept.
# --line-stats, --trace and --report of main.ptx + lib.ptx name each PTX line's file, and
# match the same program written as one file; --explore and --decide tell apart branches on
# one line number of two files (xa.ptx + xb.ptx); a call that reaches no function names its
# file on both engines (itrap_a.ptx + itrap_b.ptx).
# Bad links (tests/ptx/link/NAME.ptx linked after main.ptx and lib.ptx, or after
# common_a.ptx and common_b.ptx for the .common rules): warpc, warpsim and warpsim --oracle
# each exit 1 with exactly tests/ptx/link/NAME.err, the located errors naming the file of
# each place. UPDATE=1 rewrites the .err goldens.
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

# the linked programs on both engines -----------------------------------------------------
# both NAME WANT TYPE FILES... -- OPTIONS: the oracle's buffer 0 (od -t TYPE) is WANT's lines,
# and the SM model's at every setting is the oracle's
both() {
	bn=$1 bw=$2 bt=$3 why="" files="" opts=""
	shift 3
	while [ "$1" != -- ]; do files="$files $1"; shift; done
	shift
	opts="$*"
	# shellcheck disable=SC2086
	if ! "$ws" --oracle $files $opts --quiet --out "0:$tmp/$bn.oracle.bin" >"$tmp/$bn.err" 2>&1; then
		why="the oracle failed: $(head -1 "$tmp/$bn.err")"
	fi
	od -An "-t$bt" -v "$tmp/$bn.oracle.bin" 2>/dev/null | tr -s ' ' '\n' | sed '/^$/d' >"$tmp/$bn.got"
	[ -z "$why" ] && ! cmp -s "$tmp/$bn.got" "$bw" &&
		why="the oracle's buffer is not the formula's ($(diff "$bw" "$tmp/$bn.got" | sed -n 2p))"
	for s in $settings; do
		[ -z "$why" ] || break
		# shellcheck disable=SC2046,SC2086
		if ! "$ws" $files $opts --quiet $(popts "$s") --out "0:$tmp/$bn.sm.bin" >"$tmp/$bn.err" 2>&1; then
			why="the SM model failed at $s: $(head -1 "$tmp/$bn.err")"
		elif ! cmp -s "$tmp/$bn.oracle.bin" "$tmp/$bn.sm.bin"; then
			why="the SM model's buffer differs from the oracle's at $s"
		fi
	done
	verdict "$bn on both engines at every setting" "$why"
}

cd "$dir" || exit 1
# out[t] = scale(t) + pick(t) + bias + main's helper(t ^ 1) through shared memory, with
# lib's scale(t) = t even ? 16 t : 5 * lib's helper(t) = 15 t, lib's pick(t) = t + 100
awk 'BEGIN { for (t = 0; t < 64; t++) print (t % 2 ? 15 * t : 16 * t) + t + 100 + 7 + 1000 + (t % 2 ? t - 1 : t + 1) }' \
	>"$tmp/main.want"
both "main.ptx + lib.ptx" "$tmp/main.want" u4 main.ptx lib.ptx -- --launch main.launch
cp "$tmp/main.ptx + lib.ptx.oracle.bin" "$tmp/oracle.bin"
# nvcc 11.8's two files: out[i] = gain * shape(in[i ^ 1], i) for i < 180 (in[i] = i), 0 after;
# shape(x, i) = i odd ? x * x : sum of x + k for k < i % 8
awk 'BEGIN { for (i = 0; i < 192; i++) { x = i % 2 ? i - 1 : i + 1; v = 0
	if (i < 180) { if (i % 2) v = x * x; else for (k = 0; k < i % 8; k++) v += x + k }
	printf "%.9g\n", 1.5 * v } }' >"$tmp/rdc_vec.want"
both "nvcc's rdc_vec.ptx + rdc_shape.ptx" "$tmp/rdc_vec.want" f4 rdc_vec.ptx rdc_shape.ptx -- \
	--grid 3 --block 64 --shared-bytes 256 --arg buf:f32:192 --arg buf:f32:192:iota --arg s32:180
# out[t] = step(t + 1) * coef[t % 4] = 10 (t + 1) * (t % 4 + 1): the other file's static helper
awk 'BEGIN { for (t = 0; t < 8; t++) print 10 * (t + 1) * (t % 4 + 1) }' >"$tmp/rdc_print.want"
both "nvcc's rdc_print.ptx + rdc_step.ptx" "$tmp/rdc_print.want" d4 rdc_print.ptx rdc_step.ptx -- \
	--grid 1 --block 8 --arg buf:s32:8

# .common: out[t] = 2 pool[t] + pool[15] with common_b's initializer (16 words; common_a's
# pool has 4 words and none), whichever file comes first
awk 'BEGIN { split("3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59", p, " ")
	for (t = 1; t <= 16; t++) print 2 * p[t] + 59 }' >"$tmp/common.want"
both "common_a.ptx + common_b.ptx" "$tmp/common.want" u4 common_a.ptx common_b.ptx -- \
	--grid 1 --block 16 --arg buf:u32:16
both "common_b.ptx + common_a.ptx" "$tmp/common.want" u4 common_b.ptx common_a.ptx -- \
	--grid 1 --block 16 --arg buf:u32:16

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

# a --kernel that no file has names every file
why=""
"$ws" main.ptx lib.ptx --launch main.launch --kernel nosuch --quiet >"$tmp/nok.err" 2>&1
rc=$?
[ $rc = 2 ] || why="exit $rc, not 2"
[ -z "$why" ] && [ "$(cat "$tmp/nok.err")" != "warpsim: --kernel: no kernel 'nosuch' in main.ptx and lib.ptx; it has: kmain" ] &&
	why="message: $(head -1 "$tmp/nok.err")"
verdict "--kernel names both files" "$why"

# a listing is no PTX to link
why=""
if "$ws" main.ptx "$tmp/l.sass" --launch main.launch --quiet >"$tmp/mix.err" 2>&1; then
	why="warpsim linked a listing"
elif ! grep -qF "only PTX files (.ptx) are linked into one program, not listings" "$tmp/mix.err"; then
	why="message: $(head -1 "$tmp/mix.err")"
fi
verdict "a listing among the files is refused" "$why"

# --line-stats of the linked program: rows by file and line. The same program as one file
# (whole.ptx, made here: main.ptx with its .weak pick replaced by a declaration, then lib.ptx
# without its first 7 lines and its helper renamed helper$2, every removed line kept as a
# comment so that lib.ptx's line L is whole.ptx's line NMAIN + L) gives every row the same
# numbers, column for column, and leaves the same memory
nmain=$(wc -l <main.ptx)
{ awk 'NR == 12 { print ".extern .func (.param .b32 r) pick(.param .b32 x);"; next }
       NR > 12 && NR <= 18 { print "//"; next } { print }' main.ptx
  awk 'NR <= 7 { print "//"; next } { gsub(/helper/, "helper$2"); print }' lib.ptx; } >"$tmp/whole.ptx"
why=""
if ! "$ws" main.ptx lib.ptx --launch main.launch --quiet --line-stats "$tmp/ls.txt" \
	--out "0:$tmp/ls.bin" >"$tmp/ls.err" 2>&1; then
	why="the linked run failed: $(head -1 "$tmp/ls.err")"
elif ! "$ws" "$tmp/whole.ptx" --launch main.launch --quiet --line-stats "$tmp/lsw.txt" \
	--out "0:$tmp/lsw.bin" >"$tmp/lsw.err" 2>&1; then
	why="the one-file run failed: $(head -1 "$tmp/lsw.err")"
elif ! cmp -s "$tmp/ls.bin" "$tmp/lsw.bin"; then
	why="the one-file program leaves other memory"
else
	# the numbers only (the source column differs: whole.ptx's text is not lib.ptx's)
	awk -v n="$nmain" '/^By PTX line/ { on = 1; next } on && NF >= 13 && $1 != "line" {
		l = $1; if (sub(/^main\.ptx:/, "", l)) ; else if (sub(/^lib\.ptx:/, "", l)) l += n
		$1 = l; NF = 13; print }' "$tmp/ls.txt" >"$tmp/ls.rows"
	awk '/^By PTX line/ { on = 1; next } on && NF >= 13 && $1 != "line" { NF = 13; print }' \
		"$tmp/lsw.txt" >"$tmp/lsw.rows"
	if [ "$(wc -l <"$tmp/ls.rows")" -lt 40 ]; then
		why="only $(wc -l <"$tmp/ls.rows") PTX rows"
	elif ! cmp -s "$tmp/ls.rows" "$tmp/lsw.rows"; then
		why="a row differs from the one-file program's: $(diff "$tmp/ls.rows" "$tmp/lsw.rows" | sed -n 2p)"
	elif ! grep -q "^lib\.ptx:26 .*@%p1 bra EVEN;\$" "$tmp/ls.txt"; then
		why="no row lib.ptx:26 with its source line"
	elif ! grep -q "^warpsim line statistics: kernel 'kmain' (main.ptx + lib.ptx)\$" "$tmp/ls.txt"; then
		why="header: $(head -1 "$tmp/ls.txt")"
	fi
fi
verdict "--line-stats of main.ptx + lib.ptx: the one-file program's rows, by file and line" "$why"

# the CSV names each row's PTX file; lib.ptx:26's branch split 4 warp instructions
why=""
if ! "$ws" main.ptx lib.ptx --launch main.launch --quiet --line-stats "$tmp/ls.csv" >"$tmp/lsc.err" 2>&1; then
	why="the run failed: $(head -1 "$tmp/lsc.err")"
else
	got=$(grep '^ptx,"lib.ptx",26,' "$tmp/ls.csv" | cut -d, -f1-5,9)
	[ "$got" = 'ptx,"lib.ptx",26,4,8,4' ] || why="lib.ptx:26's CSV row: $got"
	[ -z "$why" ] && [ "$(grep -c '^ptx,"main.ptx",' "$tmp/ls.csv")" -lt 20 ] && why="too few main.ptx rows"
fi
verdict "--line-stats CSV names the PTX file of each row" "$why"

# the traces: each JSON issue with a ptx_line names its ptx_file (line 26 of both files runs:
# main's helper's ret, lib's branch); the headers name both files; a one-file trace has none
why=""
if ! "$ws" main.ptx lib.ptx --launch main.launch --quiet --trace "$tmp/t.json" >"$tmp/t.err" 2>&1 ||
	! "$ws" main.ptx lib.ptx --launch main.launch --quiet --trace "$tmp/t.txt" >>"$tmp/t.err" 2>&1; then
	why="the run failed: $(head -1 "$tmp/t.err")"
elif ! "$ws" "$tmp/whole.ptx" --launch main.launch --quiet --trace "$tmp/tw.json" >"$tmp/tw.err" 2>&1; then
	why="the one-file run failed: $(head -1 "$tmp/tw.err")"
else
	nl=$(grep -o '"ptx_line":[0-9]*' "$tmp/t.json" | wc -l)
	nf=$(grep -o '"ptx_line":[0-9]*,"ptx_file":"[a-z]*\.ptx"' "$tmp/t.json" | wc -l)
	if [ "$nl" -lt 100 ] || [ "$nl" != "$nf" ]; then
		why="$nl issues with a ptx_line, $nf of them with a ptx_file"
	elif ! grep -q '"ptx_line":26,"ptx_file":"lib.ptx"' "$tmp/t.json" ||
		! grep -q '"ptx_line":26,"ptx_file":"main.ptx"' "$tmp/t.json"; then
		why="line 26 of each file is not told apart"
	elif ! grep -q '"program":"main.ptx + lib.ptx"' "$tmp/t.json"; then
		why="the JSON trace's program does not name both files"
	elif [ "$(head -1 "$tmp/t.txt")" != "# warpsim trace of kernel 'kmain' (main.ptx + lib.ptx): one line per issued warp instruction" ]; then
		why="the text trace's header: $(head -1 "$tmp/t.txt")"
	elif grep -q '"ptx_file"' "$tmp/tw.json"; then
		why="a one-file trace names its ptx_file"
	elif [ "$(grep -o '"ptx_line":[0-9]*' "$tmp/tw.json" | wc -l)" != "$nl" ]; then
		why="the one-file trace has another number of ptx_lines"
	fi
fi
verdict "--trace of main.ptx + lib.ptx: ptx_line with its ptx_file" "$why"

# xa.ptx + xb.ptx: a divergent if-then-else on line 24 of each file (out[t] = adjust(t % 4 ?
# t + 7 : 3t + 1), adjust(y) = y odd ? y y : y - 2). --decide FILE:LINE names one file's
# branch, a bare LINE both (with a warning that says so); --explore lists both with their files, and counts each from its own
# branch (lanes jumping/falling per execution: 8/24 for xa's t % 4 == 0, 16/16 for xb's parity)
awk 'BEGIN { for (t = 0; t < 64; t++) { y = t % 4 ? t + 7 : 3 * t + 1; print y % 2 ? y * y : y - 2 } }' \
	>"$tmp/x.want"
xl="--grid 1 --block 64 --arg buf:u32:64"
# the device runtime's functions (dynamic parallelism's streams) need no definition in a link
# either: cdp_stream.ptx + leaf.ptx leaves the buffer of cdp_stream.ptx alone
"$ws" --oracle "$top/tests/ptx/cdp_stream.ptx" --launch "$top/tests/ptx/cdp_stream.launch" --quiet \
	--out "0:$tmp/cdps.bin" >/dev/null 2>&1 || : >"$tmp/cdps.bin"
[ -s "$tmp/cdps.bin" ] || { echo "FAIL    cdp_stream.ptx alone: the oracle failed"; fail=$((fail + 1)); }
od -An -td4 -v "$tmp/cdps.bin" | tr -s ' ' '\n' | sed '/^$/d' >"$tmp/cdps.want"
both "cdp_stream.ptx + leaf.ptx" "$tmp/cdps.want" d4 "$top/tests/ptx/cdp_stream.ptx" "$dir/leaf.ptx" -- \
	--launch "$top/tests/ptx/cdp_stream.launch"
# shellcheck disable=SC2086
both "xa.ptx + xb.ptx" "$tmp/x.want" u4 xa.ptx xb.ptx -- $xl
for d in xa.ptx:24 xb.ptx:24 24; do
	why=""
	if ! "$wc" --explain --decide "$d=branch" xa.ptx xb.ptx >"$tmp/d.txt" 2>&1; then
		why="warpc failed: $(head -1 "$tmp/d.txt")"
	else
		got=$(grep -E '^  #[12] ' "$tmp/d.txt" | awk '{ for (i = 2; i <= NF && $i != "ssy" && $i != "predicated"; i++); print $1 ":" $i }' | tr '\n' ' ')
		case $d in
		xa.ptx:24) want="#1:ssy #2:predicated " ;;
		xb.ptx:24) want="#1:predicated #2:ssy " ;;
		*) want="#1:ssy #2:ssy " ;;
		esac
		[ "$got" = "$want" ] || why="decisions: $got, not $want"
		# a bare LINE that names a branch in both files says so; FILE:LINE does not
		w=0; grep -qF "warning: --decide 24 forces a branch on line 24 of more than one of the linked PTX files; FILE:LINE names one" "$tmp/d.txt" && w=1
		case $d in
		24) [ $w = 1 ] || why="${why:-no warning that a bare line names both files}" ;;
		*) [ $w = 0 ] || why="${why:-a warning for $d, which names one file}" ;;
		esac
	fi
	verdict "--decide $d=branch on xa.ptx + xb.ptx" "$why"
done
why=""
"$wc" --explain --decide xc.ptx:24=branch xa.ptx xb.ptx >/dev/null 2>"$tmp/d.err"
rc=$?
[ $rc = 1 ] || why="exit $rc, not 1"
[ -z "$why" ] && ! grep -qF "error: --decide xc.ptx:24=branch: no conditional branch of the module is at 'xc.ptx:24'" "$tmp/d.err" &&
	why="message: $(head -1 "$tmp/d.err")"
verdict "--decide xc.ptx:24 names no file of xa.ptx + xb.ptx" "$why"
why=""
# shellcheck disable=SC2086
if ! "$ws" xa.ptx xb.ptx $xl --out "0:$tmp/xe.bin" --quiet --explore -j 2 --explore-json "$tmp/xe.json" \
	>"$tmp/xe.txt" 2>"$tmp/xe.err"; then
	why="--explore failed: $(head -1 "$tmp/xe.err")"
elif [ "$(head -1 "$tmp/xe.txt")" != "warpsim: explore xa.ptx + xb.ptx: 2 branches, 2 variants besides the program as compiled" ]; then
	why="header: $(head -1 "$tmp/xe.txt")"
else
	got=$(grep -E '^  #[12] ' "$tmp/xe.txt" | awk '{ print $1, $2, $6, $8 }' | tr '\n' ';')
	[ "$got" = "#1 xa.ptx:24:7 2 8.0/24.0;#2 xb.ptx:24:7 2 16.0/16.0;" ] || why="rows: $got"
	[ -z "$why" ] && ! grep -q '"index": 2, "ptx_file": "xb.ptx", "ptx_line": 24, "ptx_col": 7,' "$tmp/xe.json" &&
		why="the JSON has no ptx_file for #2"
	[ -z "$why" ] && ! grep -q "every variant left the same memory" "$tmp/xe.txt" && why="a variant left other memory"
fi
verdict "--explore of xa.ptx + xb.ptx: each branch with its file and its own counts" "$why"
# the same exploration in two slices (--shard), then merged: the same table (the rows carry
# the variants' FILE:LINE counts through the slices' JSON)
why=""
# shellcheck disable=SC2086
if ! "$ws" xa.ptx xb.ptx $xl --out "0:$tmp/xe.bin" --quiet --explore -j 1 --shard 1/2 \
	--sweep-json "$tmp/xs1.json" >/dev/null 2>"$tmp/xs.err" ||
	! "$ws" xa.ptx xb.ptx $xl --out "0:$tmp/xe.bin" --quiet --explore -j 1 --shard 2/2 \
	--sweep-json "$tmp/xs2.json" >/dev/null 2>>"$tmp/xs.err" ||
	! "$ws" xa.ptx xb.ptx $xl --out "0:$tmp/xe.bin" --quiet --explore -j 1 \
	--explore-merge "$tmp/xs1.json,$tmp/xs2.json" >"$tmp/xm.txt" 2>>"$tmp/xs.err"; then
	why="a slice or the merge failed: $(head -1 "$tmp/xs.err")"
elif ! cmp -s "$tmp/xe.txt" "$tmp/xm.txt"; then
	why="the merged table differs: $(diff "$tmp/xe.txt" "$tmp/xm.txt" | sed -n 2p)"
fi
verdict "--explore of xa.ptx + xb.ptx in two slices, merged: the same table" "$why"

# warpc --compare of xa.ptx + xb.ptx against its own listing: both constructs found and
# agreeing, and xb.ptx's (in adjust) not given xa.ptx's line-24 decision (one row at 24)
why=""
if ! "$wc" xa.ptx xb.ptx -o "$tmp/x.sass" 2>"$tmp/xc.err"; then
	why="warpc failed: $(head -1 "$tmp/xc.err")"
elif ! "$wc" --compare xa.ptx xb.ptx "$tmp/x.sass" >"$tmp/xc.txt" 2>"$tmp/xc.err"; then
	why="--compare failed: $(head -1 "$tmp/xc.err")"
elif ! grep -q "2 of our 2 conditional constructs matched one of ptxas's 2; 2 agree" "$tmp/xc.txt"; then
	why="summary: $(tail -1 "$tmp/xc.txt")"
elif [ "$(grep -c '^  24 ' "$tmp/xc.txt")" != 1 ]; then
	why="$(grep -c '^  24 ' "$tmp/xc.txt") rows at line 24, not 1 (a construct of xb.ptx took xa.ptx's branch)"
fi
verdict "warpc --compare of xa.ptx + xb.ptx keeps each file's lines apart" "$why"

# --report of main.ptx + lib.ptx: a source table per file (rows ptxFILE-LINE), the card of
# lib.ptx:26's branch links to its row; every row's warp-cycles are those of the same row of
# whole.ptx's page (lib.ptx's line L is whole.ptx's NMAIN + L), and the rows without a PTX
# line of the two files add up to whole.ptx's
why=""
if ! "$ws" main.ptx lib.ptx --launch main.launch --quiet --report "$tmp/r.html" -j 2 >"$tmp/r.err" 2>&1; then
	why="--report failed: $(head -1 "$tmp/r.err")"
elif ! "$ws" "$tmp/whole.ptx" --launch main.launch --quiet --report "$tmp/rw.html" -j 2 >"$tmp/rw.err" 2>&1; then
	why="--report of whole.ptx failed: $(head -1 "$tmp/rw.err")"
else
	# "ID COST" per source row (COST "-" for a line that never ran)
	rows() { sed -n 's/^<tr id="ptx\([0-9-]*\)".*/&\n\1/p' "$1" | awk '
		/^<tr/ { c = "-"; if (match($0, /<td class="num">[0-9]+<\/td>/)) c = substr($0, RSTART + 16, RLENGTH - 21); next }
		{ print $0, c }'; }
	rows "$tmp/r.html" | awk -v n="$nmain" '{ split($1, a, "-"); if (a[2] == 0) { z += $2; next }
		print (a[1] == 0 ? a[2] : a[2] + n), $2 } END { print "none", z }' | sort >"$tmp/r.rows"
	rows "$tmp/rw.html" | awk '$1 == 0 { print "none", $2; next } { print }' | sort >"$tmp/rw.rows"
	if [ "$(wc -l <"$tmp/r.rows")" -lt 120 ]; then
		why="only $(wc -l <"$tmp/r.rows") source rows"
	elif ! cmp -s "$tmp/r.rows" "$tmp/rw.rows"; then
		why="a row's warp-cycles differ from whole.ptx's: $(diff "$tmp/r.rows" "$tmp/rw.rows" | sed -n 2p)"
	elif ! grep -q '<h3 id="src0">main.ptx</h3>' "$tmp/r.html" || ! grep -q '<h3 id="src1">lib.ptx</h3>' "$tmp/r.html"; then
		why="no table headed by each file"
	elif ! grep -q '<a href="#ptx1-26">lib.ptx line 26</a>' "$tmp/r.html" ||
		! grep -q '<tr id="ptx1-26"><td class="n"><a href="#b1">#1</a> 26</td>' "$tmp/r.html"; then
		why="the card of #1 and lib.ptx's row 26 do not link"
	elif ! grep -q '<div id="src">' "$tmp/r.html" || ! grep -q 'of <code>main.ptx + lib.ptx</code>' "$tmp/r.html"; then
		why="the page's heading or the tables' wrapper"
	fi
fi
verdict "--report of main.ptx + lib.ptx: a table per file, the rows of the one-file program" "$why"

# a CUDA file (.loc) is looked for beside the PTX file that names it: lib.ptx in another
# directory (d2), with a .loc of d2/libsrc.cu's line 3 in scale; --line-stats and --report
# show that line's text
mkdir -p "$tmp/d1" "$tmp/d2"
cp main.ptx main.launch "$tmp/d1/"
awk '{ print } NR == 6 { print ".file 1 \"libsrc.cu\"" } /and.b32 %r2, %r1, 1;/ { print "\t.loc 1 3 0" }' \
	lib.ptx >"$tmp/d2/lib.ptx"
printf '%s\n' '// libsrc.cu' 'int scale(int x) {' '	return x & 1 ? 5 * helper(x) : 16 * x;' '}' >"$tmp/d2/libsrc.cu"
why=""
if ! (cd "$tmp" && "$ws" d1/main.ptx d2/lib.ptx --launch d1/main.launch --quiet --line-stats cu.txt \
	--report cu.html -j 2) >"$tmp/cu.err" 2>&1; then
	why="the run failed: $(head -1 "$tmp/cu.err")"
elif ! grep -q '^libsrc.cu:3 .* return x & 1 ? 5 \* helper(x) : 16 \* x;$' "$tmp/cu.txt"; then
	why="--line-stats: $(grep '^libsrc' "$tmp/cu.txt")"
elif ! grep -q 'libsrc.cu:3  *return x &amp; 1 ? 5 \* helper(x) : 16 \* x;' "$tmp/cu.html"; then
	why="--report has not the CUDA line's text"
fi
verdict "d1/main.ptx + d2/lib.ptx: the CUDA line's text from beside d2/lib.ptx" "$why"

# itrap_a.ptx + itrap_b.ptx: itrap_b's via makes an indirect call that no function of the
# program matches; reaching it stops both engines (exit 1), each naming itrap_b.ptx's line 20
why=""
"$ws" itrap_a.ptx itrap_b.ptx --grid 1 --block 32 --arg u64:0x1234 --arg buf:u64:1 --quiet \
	>"$tmp/it.sm" 2>&1
rc=$?
"$ws" --oracle itrap_a.ptx itrap_b.ptx --grid 1 --block 32 --arg u64:0x1234 --arg buf:u64:1 --quiet \
	>"$tmp/it.or" 2>&1
rco=$?
if [ $rc != 1 ] || [ $rco != 1 ]; then
	why="exits $rc (SM model) and $rco (oracle), not 1"
elif ! head -1 "$tmp/it.sm" | grep -qF "warpsim: error: call (PTX itrap_b.ptx line 20) of a function that is not in this module ("; then
	why="SM model: $(head -1 "$tmp/it.sm")"
elif [ "$(head -1 "$tmp/it.or")" != "itrap_b.ptx:20:2: error: indirect call to 0x1234, which is not a function address" ]; then
	why="oracle: $(head -1 "$tmp/it.or")"
fi
verdict "itrap_a.ptx + itrap_b.ptx: a call that reaches no function names itrap_b.ptx:20" "$why"

# bad links ------------------------------------------------------------------------------
for bad in dup unres kernel2 addr32 texmode proto kind cshared cinit2 csmall; do
	want=$dir/$bad.err why=""
	case $bad in
	cinit2) pre="common_a.ptx common_b.ptx" launch="--grid 1 --block 16 --arg buf:u32:16" ;;
	csmall) pre="common_a.ptx" launch="--grid 1 --block 16 --arg buf:u32:16" ;;
	*) pre="main.ptx lib.ptx" launch="--launch main.launch" ;;
	esac
	# shellcheck disable=SC2086
	"$wc" $pre "$bad.ptx" >/dev/null 2>"$tmp/$bad.wc"
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
		"$ws" $eng $pre "$bad.ptx" $launch --quiet >/dev/null 2>"$tmp/$bad.ws"
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
