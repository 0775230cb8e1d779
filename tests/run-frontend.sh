#!/bin/sh
# run-frontend.sh - the PTX frontend's integration tests (BIN and BUILD from make check):
#  (a) every tests/ptx/*.ptx parses with no diagnostic;
#  (b) every tests/bad-ptx/*.ptx fails with exit status 1 and exactly the messages of its
#      .expect (regenerate with UPDATE=1 and review the diff);
#  (c) print(parse(print(parse(f)))) == print(parse(f)) for every fixture (-dP round trip).
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
W=$BIN/warpc
tmp=$BUILD/tests/frontend
mkdir -p "$tmp" || exit 1
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

for f in tests/ptx/*.ptx; do
	if "$W" --parse-only "$f" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then ok; else
		bad "parse $f"; head -5 "$tmp/err"; fi
	if "$W" -dP "$f" >"$tmp/p1.ptx" 2>"$tmp/err" && "$W" -dP "$tmp/p1.ptx" >"$tmp/p2.ptx" 2>>"$tmp/err" &&
	   cmp -s "$tmp/p1.ptx" "$tmp/p2.ptx"; then ok; else
		bad "round trip $f"; head -5 "$tmp/err"; diff "$tmp/p1.ptx" "$tmp/p2.ptx" | head -5; fi
done

for f in tests/bad-ptx/*.ptx; do
	exp=${f%.ptx}.expect
	"$W" --parse-only "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ -n "$UPDATE" ]; then cp "$tmp/err" "$exp"; fi
	if [ $rc -ne 1 ]; then bad "$f: exit status $rc, expected 1"; continue; fi
	if [ ! -f "$exp" ]; then bad "$f: no $exp"; continue; fi
	if diff -u "$exp" "$tmp/err" >"$tmp/diff"; then ok; else bad "$f: diagnostics differ"; head -20 "$tmp/diff"; fi
done

echo "run-frontend: $pass passed, $fail failed"
[ $fail = 0 ]
