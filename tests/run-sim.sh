#!/bin/sh
# run-sim.sh - end-to-end tests of bin/warpsim: every tests/sim/NAME.launch with a NAME.expect
# runs NAME.sass and its --out file must equal the expectation; every tests/sim/NAME.errcase
# (one line: expected exit status, then the arguments) must exit with that status and print
# exactly NAME.stderr. A case run on the other engine, NAME_oracle or NAME_functional, with
# no .stderr of its own must print NAME.stderr: the engines say the same thing. Run by
# `make check` with BIN and BUILD set.
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
D=tests/sim
T=$(mktemp -d "${TMPDIR:-/tmp}/run-sim.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

for l in $D/*.launch; do
	n=$(basename "$l" .launch)
	[ -f "$D/$n.expect" ] || continue
	param=$(sed -n 's/^# out: *//p' "$D/$n.sass" | head -n 1)
	if "$BIN/warpsim" "$D/$n.sass" --launch "$l" --out "${param:-0}:$T/$n.txt" --quiet 2>"$T/$n.err" &&
	   diff -u "$D/$n.expect" "$T/$n.txt"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $n"; cat "$T/$n.err"; fail=$((fail + 1))
	fi
done

for c in $D/*.errcase; do
	n=$(basename "$c" .errcase)
	want=$(head -n 1 "$c")
	args=$(sed -n 2p "$c")
	# shellcheck disable=SC2086
	"$BIN/warpsim" $args --quiet >"$T/$n.out" 2>"$T/$n.stderr"
	got=$?
	e=$D/$n.stderr
	[ -f "$e" ] || e=$D/$(echo "$n" | sed 's/_\(oracle\|functional\)$//').stderr
	if [ "$got" = "$want" ] && diff -u "$e" "$T/$n.stderr"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $n (exit $got, expected $want)"; fail=$((fail + 1))
	fi
done

# every kind of divergence event, one kernel each (tests/sim/div): the named counters hold
# the given values and every other div_* counter is 0
grep -v '^#' $D/div/expect.txt | while read -r k want; do
	"$BIN/warpsim" $D/div/divkinds.sass --kernel "$k" --block 32 --stats-json "$T/div.json" --quiet ||
		{ echo "FAIL: div $k: warpsim failed"; echo x >> "$T/div.fail"; continue; }
	for c in divergent_branches div_bra div_sync div_brk div_cont div_ret div_exit div_brx; do
		v=$(sed -n "s/.*\"$c\": \([0-9]*\).*/\1/p" "$T/div.json")
		e=$(printf '%s\n' $want | sed -n "s/^$c=//p")
		[ "$v" = "${e:-0}" ] || { echo "FAIL: div $k: $c is $v, expected ${e:-0}"; echo x >> "$T/div.fail"; }
	done
done
if [ -s "$T/div.fail" ]; then fail=$((fail + 1)); else pass=$((pass + 1)); fi

# the same output as raw little-endian bytes: 4 bytes per element
if "$BIN/warpsim" $D/divloop.sass --launch $D/divloop.launch --out 0:$T/d.bin --quiet &&
   [ "$(wc -c <"$T/d.bin")" -eq 320 ] &&
   [ "$(od -An -tu4 -w4 -v "$T/d.bin" | tr -d ' ' | head -n 4 | tr '\n' ' ')" = "2 11 31 62 " ]; then
	pass=$((pass + 1))
else
	echo "FAIL: .bin output"; fail=$((fail + 1))
fi

# registers read as zero before their first write in every CTA, also in a CTA slot that an
# earlier CTA used (tests/sim/regzero.sass: 12 CTAs of 40 threads, the second warp partial, on
# one SM of 8 slots; with its registers kept, CTAs 8-11 would store 14 and 9); no .launch, so
# that bench/micro/kernels.sh does not take it into docs/calibration.md's table
for f in "" --functional; do
	if "$BIN/warpsim" $D/regzero.sass --grid 12 --block 40 --sms 1 --arg buf:s32:12 $f \
	       --out "0:$T/rz.txt" --quiet && [ "$(tr '\n' ' ' <"$T/rz.txt")" = "0 0 0 0 0 0 0 0 0 0 0 0 " ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: regzero $f"; fail=$((fail + 1))
	fi
done

# --help and --version succeed
if "$BIN/warpsim" --help | grep -q -- '--launch FILE' && "$BIN/warpsim" --version | grep -q '^warpsim '; then
	pass=$((pass + 1))
else
	echo "FAIL: --help/--version"; fail=$((fail + 1))
fi

# the progress line (issue 17 part 5): on a terminal (script(1) gives the run a pseudo-terminal)
# after --progress-after seconds, rewritten in place and cleared before the statistics; never
# with --quiet, never when stderr is not a terminal
# (the line shows from the 512th round of the run loop: a timed cycle, or a functional round of
# up to 64 instructions per warp)
loop="bench/sim/intloop.sass --grid 2 --block 32 --arg buf:u32:64 --progress-after 0"
prog() { n=$1; shift; script -qec "$BIN/warpsim $loop --arg u32:$n $*" /dev/null | tr '\r' '\n'; }
line=' [0-9]+, [0-9.]+ M warp insts, CTAs [0-2] of 2, [0-9.]+ M warp insts/s$'
# shellcheck disable=SC2086
if prog 1000 | grep -Eq "^warpsim: cycle$line" && prog 20000 --functional | grep -Eq "^warpsim: round$line" &&
   prog 1000 | grep -A1 '^warpsim: cycle' | tail -n 1 | grep -Eq '^ {40,}$' &&
   ! prog 1000 --quiet | grep -q . &&
   ! "$BIN/warpsim" $loop --arg u32:1000 2>&1 | tr '\r' '\n' | grep -q '^warpsim: cycle'; then
	pass=$((pass + 1))
else
	echo "FAIL: progress line"; fail=$((fail + 1))
fi

echo "run-sim: $pass passed, $fail failed"
[ "$fail" = 0 ]
