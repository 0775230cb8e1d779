#!/bin/sh
# run-isa.sh - golden tests of the listing printer and parser through `warpc --asm`:
#   tests/listings/*.sass      print(parse(x)) == x (comment lines starting with '#' aside)
#   tests/listings/bad/*.sass  exit status 1, nothing on stdout, stderr == NAME.expect
#   tests/listings/cuobjdump/*.sass  real cuobjdump -sass text: stdout == NAME.expect, the
#                              canonical form, which itself reads back unchanged
# Env: BIN (holds warpc), BUILD (scratch space). Exits non-zero on any failure.
set -u
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
WARPC=$BIN/warpc
TMP=$BUILD/tests/run-isa
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$TMP"
pass=0
fail=0

for f in "$ROOT"/tests/listings/*.sass; do
	name=$(basename "$f")
	grep -v '^#' "$f" > "$TMP/want.sass"
	if "$WARPC" --asm "$f" > "$TMP/got.sass" 2> "$TMP/err.txt" &&
	   diff -u "$TMP/want.sass" "$TMP/got.sass" > "$TMP/diff.txt" &&
	   [ ! -s "$TMP/err.txt" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL round trip: tests/listings/$name"
		cat "$TMP/err.txt" "$TMP/diff.txt"
	fi
	# the canonical output must also read back from stdin and through -o
	if ! "$WARPC" --asm - -o "$TMP/again.sass" < "$TMP/want.sass" ||
	   ! cmp -s "$TMP/want.sass" "$TMP/again.sass"; then
		fail=$((fail + 1))
		echo "FAIL stdin/-o: tests/listings/$name"
	fi
done

for f in "$ROOT"/tests/listings/cuobjdump/*.sass; do
	name=$(basename "$f" .sass)
	exp=${f%.sass}.expect
	if "$WARPC" --asm "$f" > "$TMP/got.sass" 2> "$TMP/err.txt" &&
	   diff -u "$exp" "$TMP/got.sass" > "$TMP/diff.txt" && [ ! -s "$TMP/err.txt" ] &&
	   "$WARPC" --asm "$exp" > "$TMP/again.sass" && cmp -s "$exp" "$TMP/again.sass"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL cuobjdump listing: tests/listings/cuobjdump/$name.sass"
		cat "$TMP/err.txt" "$TMP/diff.txt"
	fi
done

for f in "$ROOT"/tests/listings/bad/*.sass; do
	name=$(basename "$f" .sass)
	(cd "$ROOT/tests/listings/bad" && "$WARPC" --asm "$name.sass" > "$TMP/out.txt" 2> "$TMP/err.txt")
	rc=$?
	if [ $rc -ne 1 ]; then
		fail=$((fail + 1))
		echo "FAIL tests/listings/bad/$name.sass: exit status $rc, expected 1"
	elif [ -s "$TMP/out.txt" ]; then
		fail=$((fail + 1))
		echo "FAIL tests/listings/bad/$name.sass: wrote to stdout"
	elif ! diff -u "$ROOT/tests/listings/bad/$name.expect" "$TMP/err.txt"; then
		fail=$((fail + 1))
		echo "FAIL tests/listings/bad/$name.sass: diagnostics differ"
	else
		pass=$((pass + 1))
	fi
done

# options: --help, --version, a missing file
if "$WARPC" --help | grep -q -- '--asm' && "$WARPC" --version | grep -q 'warpc'; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL warpc --help/--version"
fi
"$WARPC" --asm "$TMP/no-such-file.sass" > /dev/null 2> "$TMP/err.txt"
# exit 1 and warpsim's words (one exit-status table: docs/warpc.1)
if [ $? -eq 1 ] && grep -q "warpc: cannot read '.*no-such-file.sass'" "$TMP/err.txt"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL warpc --asm on a missing file"
fi

echo "run-isa: $pass passed, $fail failed"
[ $fail -eq 0 ]
