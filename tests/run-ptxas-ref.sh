#!/bin/sh
# run-ptxas-ref.sh - NVIDIA's own SASS runs on the SM model exactly as the PTX oracle runs the
# PTX it was compiled from. For every tests/ptxas-ref/NAME.sass (ptxas 11.8's sm_35 listing of
# tests/ptx/NAME.ptx or tests/workloads/NAME.ptx, checked in: no NVIDIA tool is needed) with a
# launch (tests/launch.sh): run
# the oracle on the PTX and warpsim on the listing with the same launch, and compare every --out
# buffer byte for byte (as text with a relative tolerance of 1e-5 for a launch marked
# "# diff: unordered-float"), and the lines the kernel printed (device printf, tagged with
# the thread: the same lines, sorted, since the SM model prints them in the order its warps
# ran); tests/ptxas-ref/options.txt gives a listing extra warpsim options
# (and says why). A listing warpsim cannot read or run yet is listed in
# tests/ptxas-ref/pending.txt (NAME, # reason): reported as PENDING, not FAIL; a pending one
# that passes is reported so that the list shrinks. Exit status 1 on any FAIL.
# tests/sass/NAME.sass (ptxas's listing of tests/sass/NAME.ptx, a kernel written for one construct
# of ptxas's sm_35 code) runs the same way with tests/sass/NAME.launch.
# A listing may have a launch of its own, tests/ptxas-ref/NAME.launch, for a kernel the corpus
# suites do not run; one marked "# expect: trap" must stop both engines at a trap (exit status
# 1, "trap: the kernel aborted", located, in the same CTA and thread; or a failed device-side
# assert with the same message) and leave the same buffers.
# elfinfo.awk, which carries what a listing needs from `cuobjdump -elf`, is checked on excerpts
# written by hand (tests/ptxas-ref/elfinfo/NAME.elf against NAME.expect or NAME.err).
#
# env: BIN (warpsim)
BIN=${BIN:-bin}
top=$(cd "$(dirname "$0")/.." && pwd)
ws=$(cd "$BIN" && pwd)/warpsim
pending=$top/tests/ptxas-ref/pending.txt
. "$top/tests/verdict.sh"
. "$top/tests/launch.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-ptxref.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 pend=0 ntrap=0 nprint=0

# trapped ERR FILE: "CTA (x,y,z) thread N" when ERR holds a trap located in FILE (the oracle's
# "FILE:LINE:COL: error: trap: the kernel aborted" then "in 'K', CTA (..), thread (N,0,0)";
# warpsim's "FILE:LINE: error: trap: ..." then "kernel 'K', CTA (..), warp W, lane L (thread N)"),
# followed by ": MESSAGE" for a failed device-side assert (CUDA's message, "... Assertion `C`
# failed.", in place of the trap's)
trapped() {
	grep -qF "$2:" "$1" || return 0
	if grep -q 'error: trap: the kernel aborted' "$1"; then m=
	elif grep -q 'error: .*Assertion `.*` failed\.$' "$1"; then
		m=": $(sed -n 's/.*error: \(.*Assertion `.*` failed\.\)$/\1/p' "$1" | head -n 1)"
	else return 0
	fi
	w=$(sed -n 's/.*CTA (\([0-9,]*\)), thread (\([0-9]*\),0,0).*/CTA (\1) thread \2/p
	        s/.*CTA (\([0-9,]*\)), warp [0-9]*, lane [0-9]* (thread \([0-9]*\)).*/CTA (\1) thread \2/p' "$1" | head -n 1)
	[ -z "$w" ] || printf '%s%s\n' "$w" "$m"
}

# extra warpsim options of a listing (tests/ptxas-ref/options.txt: NAME OPTIONS # why)
extra() {
	sed 's/#.*//' "$top/tests/ptxas-ref/options.txt" 2>/dev/null | awk -v n="$1" '$1 == n { $1 = ""; print }'
}


for sass in "$top"/tests/ptxas-ref/*.sass "$top"/tests/sass/*.sass; do
	name=$(basename "$sass" .sass)
	ptx=$top/tests/ptx/$name.ptx
	[ -f "$ptx" ] || ptx=$top/tests/workloads/$name.ptx
	[ -f "${sass%.sass}.ptx" ] && ptx=${sass%.sass}.ptx
	launch=$(launch_of "$ptx")
	[ -f "${sass%.sass}.launch" ] && launch=${sass%.sass}.launch
	[ -n "$launch" ] || continue
	d=$tmp/$name
	mkdir -p "$d"
	ns=$(sed -n 's/^[[:space:]]*--out[[:space:]]\{1,\}\([0-9]\{1,\}\):.*/\1/p' "$launch")
	fl=0 ext=bin
	grep -q '^#[[:space:]]*diff:[[:space:]]*unordered-float' "$launch" && fl=1 ext=txt
	oargs="" sargs=""
	for n in $ns; do
		oargs="$oargs --out $n:$d/oracle.$n.$ext"
		sargs="$sargs --out $n:$d/sass.$n.$ext"
	done
	tr=0
	grep -q '^#[[:space:]]*expect:[[:space:]]*trap' "$launch" && tr=1
	why=""
	pf="--printf-tag --printf-out"
	(cd "$d" && "$ws" --oracle "$ptx" --launch "$launch" --quiet $oargs $pf oracle.printf) >"$d/oracle.err" 2>&1
	rc=$?
	ow=$(trapped "$d/oracle.err" "$ptx")
	if [ $tr = 0 ] && [ $rc != 0 ]; then
		why="the oracle failed: $(head -1 "$d/oracle.err")"
	elif [ $tr = 1 ] && { [ $rc != 1 ] || [ -z "$ow" ]; }; then
		why="the oracle did not stop at a trap (exit $rc): $(head -1 "$d/oracle.err")"
	else
		(cd "$d" && "$ws" "$sass" --launch "$launch" --quiet $(extra "$name") $sargs $pf sass.printf) >"$d/sass.err" 2>&1
		rc=$?
		sw=$(trapped "$d/sass.err" "$sass")
		if [ $tr = 0 ] && [ $rc != 0 ]; then
			why="warpsim failed on ptxas's listing: $(head -1 "$d/sass.err")"
		elif [ $tr = 1 ] && { [ $rc != 1 ] || [ "$sw" != "$ow" ]; }; then
			why="ptxas's listing did not stop at the oracle's trap ($ow; exit $rc, ${sw:-no located trap}): $(head -1 "$d/sass.err")"
		fi
	fi
	if [ -z "$why" ]; then
		for n in $ns; do
			if [ $fl = 1 ]; then
				awk 'NR == FNR { a[FNR] = $1; n = FNR; next }
				     { d = $1 - a[FNR]; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1;
				       if (d > 1e-5 * (m > 1 ? m : 1)) bad = 1; c = FNR }
				     END { exit bad || c != n }' "$d/oracle.$n.$ext" "$d/sass.$n.$ext" && continue
			else
				cmp -s "$d/oracle.$n.$ext" "$d/sass.$n.$ext" && continue
			fi
			why="buffer of parameter $n differs"
			[ $fl = 0 ] && why="$why (first: $(cmp "$d/oracle.$n.$ext" "$d/sass.$n.$ext" 2>&1 | head -1 | sed "s|$d/||g"))"
			break
		done
	fi
	if [ -z "$why" ] && [ -s "$d/oracle.printf" -o -s "$d/sass.printf" ]; then
		sort "$d/oracle.printf" > "$d/oracle.sorted"
		sort "$d/sass.printf" > "$d/sass.sorted"
		if cmp -s "$d/oracle.sorted" "$d/sass.sorted"; then
			nprint=$((nprint + 1))
		else
			why="the printed lines differ: $(diff "$d/oracle.sorted" "$d/sass.sorted" | grep -m 2 '^[<>]' | tr '\n' ' ')"
		fi
	fi
	[ -z "$why" ] && [ $tr = 1 ] && ntrap=$((ntrap + 1))
	verdict "$name" "$why"
done
echo "run-ptxas-ref: listings: $pass of $((pass + pend + fail)) run identical to the oracle ($ntrap of them to the same trap, $nprint printing the same lines)"
# warpc --compare against pinned output (tests/ptxas-ref/compare/NAME[.json].expect), the
# listing header of the two configs, and the sweep column "ptxas" (ptxas's listing run beside
# our thresholds, its results the same)
wc=$(cd "$BIN" && pwd)/warpc
# (NAME.lines[.json].expect: paired by ptxas's line table tests/ptxas-ref/NAME.lines)
for exp in "$top"/tests/ptxas-ref/compare/*.expect; do
	name=$(basename "$exp" .expect)
	mode=--compare
	case $name in *.json) mode=--compare=json; name=${name%.json} ;; esac
	lines=
	case $name in *.lines) name=${name%.lines}; lines="--compare-lines tests/ptxas-ref/$name.lines" ;; esac
	(cd "$top" && "$wc" --config sim/configs/kepler.cfg $mode "tests/ptx/$name.ptx" \
	 "tests/ptxas-ref/$name.sass" $lines) > "$tmp/compare.out" 2>&1
	why=$(diff "$exp" "$tmp/compare.out" | head -3 | tr '\n' ' ')
	verdict "warpc $mode ${lines:+--compare-lines }$name" "${why:+output differs from $(basename "$exp"): $why}"
done
# a line map that is wrong (tests/ptxas-ref/lines-bad/NAME.lines, against switch.sm35): exit
# status 1, nothing on stdout, the located error of NAME.expect on stderr
for m in "$top"/tests/ptxas-ref/lines-bad/*.lines; do
	name=$(basename "$m" .lines)
	st=0
	(cd "$top" && "$wc" --config sim/configs/kepler.cfg --compare tests/ptx/switch.sm35.ptx \
	 tests/ptxas-ref/switch.sm35.sass --compare-lines "tests/ptxas-ref/lines-bad/$name.lines") \
	 > "$tmp/lines.out" 2> "$tmp/lines.err" || st=$?
	why=
	if [ "$st" != 1 ]; then
		why="exit status $st, expected 1"
	elif [ -s "$tmp/lines.out" ]; then
		why="wrote to stdout"
	else
		why=$(diff "${m%.lines}.expect" "$tmp/lines.err" | head -3 | tr '\n' ' ')
	fi
	verdict "warpc --compare-lines lines-bad/$name" "$why"
done
# linemap.awk on ptxas's line table as `cuobjdump -elf` prints it (linemap/NAME.elf, the two
# sections it reads, of the -lineinfo cubin of tests/ptx/NAME.ptx) and NAME's listing: the
# map of NAME.expect. call_sink's CALs and its subroutine's instructions have their own
# lines there (the first CAL 35, `call.uni`), where nvdisasm -gp printed each with the line of
# the instruction before it (31, `add.u64`)
for e in "$top"/tests/ptxas-ref/linemap/*.elf; do
	name=$(basename "$e" .elf)
	awk -f "$top/tests/ptxas-ref/linemap.awk" "$e" "$top/tests/ptxas-ref/$name.sass" \
	 > "$tmp/linemap.out" 2>&1
	why=$(diff "${e%.elf}.expect" "$tmp/linemap.out" | head -3 | tr '\n' ' ')
	verdict "linemap.awk $name" "${why:+output differs from $name.expect: $why}"
done
# the hammock families (docs/predication.md): per family and config, how many of our
# constructs line up with ptxas's and how many agree, pinned in compare/families.txt
for p in "$top"/tests/ptxas-ref/families/*.ptx; do
	for c in fermi kepler; do
		"$wc" --config "$top/sim/configs/$c.cfg" --compare "$p" "${p%.ptx}.sass" 2>&1 |
		awk -v f="$(basename "$p" .ptx)" -v c=$c '/ conditional constructs matched /{ m += $1; a += $12 }
			END { printf "%s %s %d %d\n", f, c, m, a }'
	done
done > "$tmp/families.out"
why=$(diff "$top/tests/ptxas-ref/compare/families.txt" "$tmp/families.out" | head -3 | tr '\n' ' ')
verdict "warpc --compare over the hammock families" "${why:+agreement moved: $why}"
for c in fermi:20 kepler:35; do
	"$wc" --config "$top/sim/configs/${c%:*}.cfg" "$top/tests/ptx/scan.sm75.ptx" | grep -qx ".arch sm_${c#*:}"
	verdict ".arch sm_${c#*:} under ${c%:*}.cfg" "$([ $? = 0 ] || echo 'the listing says another')"
done
(cd "$tmp" && "$ws" "$top/tests/ptx/scan.sm75.ptx" --launch "$top/tests/cuda/scan.launch" \
 --out 1:scan.out --sweep predicate-max=0,inf --sweep-ptxas "$top/tests/ptxas-ref/scan.sm75.sass" \
 -j 1) > "$tmp/sweep.out" 2>&1 && grep -q '^ptxas  *[0-9]' "$tmp/sweep.out" && ! grep -q DIFFER "$tmp/sweep.out"
verdict "warpsim --sweep-ptxas scan.sm75" "$([ $? = 0 ] || head -3 "$tmp/sweep.out" | tr '\n' ' ')"
# elfinfo.awk on excerpts of `cuobjdump -elf`'s layout written by hand (elfinfo/NAME.elf): its
# directives are NAME.expect (and the listing reader takes them: a kernel of those directives
# and an EXIT prints them back; those that name an instruction's address, .abs32, and .jcal and
# .func, which merge.awk places at an instruction, are left out), or, with NAME.err, it refuses
# the excerpt (exit 1, that message)
for e in "$top"/tests/ptxas-ref/elfinfo/*.elf; do
	name=$(basename "$e" .elf)
	awk -f "$top/tests/ptxas-ref/elfinfo.awk" "$e" > "$tmp/elf.out" 2> "$tmp/elf.err"
	rc=$?
	why=
	if [ -f "${e%.elf}.err" ]; then
		{ [ $rc = 1 ] && cmp -s "${e%.elf}.err" "$tmp/elf.err"; } ||
			why="expected exit 1 and '$(cat "${e%.elf}.err")', got exit $rc: $(head -n 1 "$tmp/elf.err")"
	elif [ $rc != 0 ] || [ -s "$tmp/elf.err" ] || ! cmp -s "${e%.elf}.expect" "$tmp/elf.out"; then
		why="exit $rc: $(head -n 1 "$tmp/elf.err") $(diff "${e%.elf}.expect" "$tmp/elf.out" | head -n 3 | tr '\n' ' ')"
	else
		k=$(cut -f 1 "$tmp/elf.out" | head -n 1)
		{ echo ".kernel $k"; cut -f 2 "$tmp/elf.out" | grep -v '^\.\(abs32\|jcal\|func\) '
		  echo "        /*0000*/ EXIT;"; } > "$tmp/elf.sass"
		grep '^\.constdata' "$tmp/elf.sass" > "$tmp/elf.want"
		if ! "$wc" --asm "$tmp/elf.sass" > "$tmp/elf.back" 2> "$tmp/elf.err"; then
			why="the listing reader refuses the directives: $(head -n 1 "$tmp/elf.err")"
		elif ! grep '^\.constdata' "$tmp/elf.back" | cmp -s - "$tmp/elf.want"; then
			why="the listing reader prints the .constdata lines back otherwise"
		fi
	fi
	verdict "elfinfo.awk $name" "$why"
done
echo "run-ptxas-ref: $pass passed, $pend pending, $fail failed"
[ $fail = 0 ]
