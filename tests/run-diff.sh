#!/bin/sh
# run-diff.sh - the differential test of the translator + SM model against the PTX oracle.
#
# For every tests/ptx/NAME.ptx and tests/workloads/NAME.ptx with a NAME.launch: run the oracle (warpsim --oracle) and the SM
# model (warpsim) with the same launch, and compare every --out buffer of the launch file byte
# for byte (raw .bin files), at if-conversion thresholds 0, 1, 4, 7, 12 and inf (both
# --predicate-max and --predicate-max-uniform: results never depend on the threshold), and
# under ptxas's sm_35 rule (--predicate-rule sm35, docs/predication.md) with its loop lowering
# (--loop-sync pbk: PBK/BRK for divergent loop exits) and early returns (--early-return
# guarded: a short side that returns is predicated and leaves by a guarded RET) at 0, 8
# (kepler.cfg's 8/6) and inf:
# settings s0, s8, sinf. A launch file holding the
# line "# diff: unordered-float" (floating-point atomics, whose order may differ) is compared
# as text with a relative tolerance of 1e-5 instead. A line "# diff-settings: S ..." runs
# that kernel at more settings of tests/settings.sh's popts (r10: --max-regs 10, say, for a
# kernel whose spill code needs more pressure than r12 gives; a "(reason)" may follow).
# One more run per kernel uses --functional (the SM model without its timing model, default
# thresholds): its buffers must equal the oracle's too.
# Then, where tests/ref has a C reference for NAME (without its .smXX suffix), the oracle's
# buffers must equal the reference's (tests/tools/cref).
# A launch that must stop a kernel with a located error (a call that reaches no function of
# the module, say) is a tests/ptx/NAME.WHAT.stop file (the options of a launch file, for
# NAME.ptx; or tests/regress/NAME.WHAT.stop for a regression program there, whose in-range
# launch run-regress.sh runs): the oracle and the SM model at every setting must fail, and the messages of each
# must hold every "# stop-oracle: TEXT" (the oracle's) or "# stop-sm: TEXT" (the SM model's)
# line of the file (fixed strings).
#
# tests/diff-pending.txt lists kernels known not to run on the SM model yet (one NAME per
# line, # comments): their SM-side failures are reported as PENDING, not FAIL; a pending
# kernel that passes is reported so that the list shrinks. The oracle and the C references
# are never pending. Exit status 1 on any FAIL.
#
# env: BIN (warpc, warpsim), BUILD (the build directory; cref is $BUILD/tests/tools/cref)
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
ws=$(cd "$BIN" && pwd)/warpsim
cref=$(cd "$BUILD" 2>/dev/null && pwd)/tests/tools/cref
pending=$top/tests/diff-pending.txt
. "$top/tests/verdict.sh"
. "$top/tests/launch.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-diff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0 fail=0 pend=0 refs=0
. "$top/tests/settings.sh"
if ! "$ws" --help 2>&1 | grep -q -- '--predicate-max'; then
	echo "run-diff: warpsim has no --predicate-max yet: the SM model runs at its default only"
	settings="default functional"
fi

# stopmsg STOPFILE ENGINE ERRFILE: the first "# stop-ENGINE:" text of STOPFILE that ERRFILE
# lacks, as a reason; nothing when it has them all
stopmsg() {
	sed -n "s/^#[[:space:]]*stop-$2:[[:space:]]*//p" "$1" | while IFS= read -r want; do
		grep -qF -- "$want" "$3" || { echo "$2 message lacks '$want': $(head -1 "$3")"; break; }
	done
}

# outs LAUNCH: what its --out lines save (N, N.F or NAME[.F]: docs/warpsim.md)
outs() {
	sed -n 's/^[[:space:]]*--out[[:space:]]\{1,\}\([0-9A-Za-z_$.]\{1,\}\):.*/\1/p' "$1"
}

# same A B FLOATCMP: 0 when the buffers agree
same() {
	if [ "$3" = 1 ]; then
		awk 'NR == FNR { a[FNR] = $1; n = FNR; next }
		     { d = $1 - a[FNR]; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1;
		       if (d > 1e-5 * (m > 1 ? m : 1)) bad = 1; c = FNR }
		     END { exit bad || c != n }' "$1" "$2"
	else
		cmp -s "$1" "$2"
	fi
}

for ptx in "$top"/tests/ptx/*.ptx "$top"/tests/workloads/*.ptx; do
	name=$(basename "$ptx" .ptx)
	launch=$(launch_of "$ptx")
	[ -n "$launch" ] || continue
	d=$tmp/$name
	mkdir -p "$d"
	ns=$(outs "$launch")
	fl=0 ext=bin
	grep -q '^#[[:space:]]*diff:[[:space:]]*unordered-float' "$launch" && fl=1 ext=txt
	oargs=""
	for n in $ns; do oargs="$oargs --out $n:$d/oracle.$n.$ext"; done
	# the launch file's own --out paths are relative: every run happens inside $d
	if ! (cd "$d" && "$ws" --oracle "$ptx" --launch "$launch" --quiet $oargs) >"$d/oracle.err" 2>&1; then
		echo "FAIL    $name: the oracle failed:"
		sed 's/^/        /' "$d/oracle.err" | head -8
		fail=$((fail + 1))
		continue
	fi
	why=""
	more=$(sed -n 's/^#[[:space:]]*diff-settings:[[:space:]]*\([^(]*\).*/\1/p' "$launch")
	for s in $settings $more; do
		sargs="" popt=$(popts "$s")
		for n in $ns; do sargs="$sargs --out $n:$d/sm.$s.$n.$ext"; done
		if ! (cd "$d" && "$ws" "$ptx" --launch "$launch" --quiet $popt $sargs) >"$d/sm.$s.err" 2>&1; then
			why="the SM model failed at predicate-max $s: $(head -1 "$d/sm.$s.err")"
			break
		fi
		for n in $ns; do
			if ! same "$d/oracle.$n.$ext" "$d/sm.$s.$n.$ext" $fl; then
				why="buffer of parameter $n differs at predicate-max $s"
				[ $fl = 0 ] && why="$why (first: $(cmp "$d/oracle.$n.$ext" "$d/sm.$s.$n.$ext" 2>&1 | head -1))"
				break 2
			fi
		done
	done
	verdict "$name" "$why"
	# the oracle against the C reference of the kernel
	base=${name%.sm[0-9]*}
	if [ -x "$cref" ] && "$cref" --has "$base"; then
		rargs=""
		for n in $ns; do rargs="$rargs --out $n:$d/ref.$n.$ext"; done
		if ! (cd "$d" && "$cref" "$base" --launch "$launch" $rargs) >"$d/ref.err" 2>&1; then
			echo "FAIL    $name: the C reference failed: $(head -1 "$d/ref.err")"
			fail=$((fail + 1))
			continue
		fi
		for n in $ns; do
			if ! same "$d/oracle.$n.$ext" "$d/ref.$n.$ext" $fl; then
				echo "FAIL    $name: the oracle differs from the C reference in parameter $n"
				fail=$((fail + 1))
				continue 2
			fi
		done
		refs=$((refs + 1))
	fi
done
for st in "$top"/tests/ptx/*.stop "$top"/tests/regress/*.stop; do
	[ -f "$st" ] || continue
	b=$(basename "$st" .stop)
	ptx=$(dirname "$st")/${b%%.*}.ptx d=$tmp/stop.$b why=""
	mkdir -p "$d"
	if (cd "$d" && "$ws" --oracle "$ptx" --launch "$st" --quiet) >"$d/oracle.err" 2>&1; then
		why="the oracle did not stop"
	else
		why=$(stopmsg "$st" oracle "$d/oracle.err")
	fi
	for s in $settings; do
		[ -z "$why" ] || break
		# shellcheck disable=SC2046
		if (cd "$d" && "$ws" "$ptx" --launch "$st" --quiet $(popts "$s")) >"$d/sm.err" 2>&1; then
			why="the SM model did not stop at predicate-max $s"
		else
			why=$(stopmsg "$st" sm "$d/sm.err")
			[ -z "$why" ] || why="$why (predicate-max $s)"
		fi
	done
	verdict "$b (stops)" "$why"
done
echo "run-diff: $pass passed, $pend pending, $fail failed; $refs oracle runs matched their C reference"
[ $fail = 0 ]
