#!/bin/sh
# valgrind.sh - `make check-valgrind`: the test suite under valgrind memcheck. Every Check
# unit test binary runs in-process (CK_FORK=no) under memcheck; every tests/run-*.sh script
# runs with BIN pointing at wrappers that run warpc and warpsim under memcheck (the
# generator's quick runs use fewer seeds, through the wrapped programs rather than the
# in-process runner: memcheck is slow). Any invalid access, use of an
# uninitialised value or definite leak fails the run (--error-exitcode). Env: BIN BUILD.
BIN=${BIN:-bin}; BUILD=${BUILD:-build}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind.sh: valgrind not found (apt-get install valgrind)"; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$BIN" && pwd)
wrap=$(mktemp -d "${TMPDIR:-/tmp}/vgbin.XXXXXX") || exit 1
trap 'rm -rf "$wrap"' EXIT INT TERM
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --track-origins=no"
for p in warpc warpsim; do
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$VG" "$bin/$p" >"$wrap/$p"
	chmod +x "$wrap/$p"
done
pass=0; fail=0; failed=""
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	if CK_FORK=no CK_VERBOSITY=minimal CK_DEFAULT_TIMEOUT=600 $VG "$t" >"$wrap/log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed="$failed $(basename "$t")"; tail -n 20 "$wrap/log"
	fi
done
for s in "$here"/run-*.sh; do
	if BIN=$wrap BUILD=$BUILD GEN_CHECK=50 GEN_SEEDS=10 FD_INPROC=0 sh "$s" >"$wrap/log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed="$failed $(basename "$s")"; tail -n 20 "$wrap/log"
	fi
done
# the generator's in-process self-check (parser and oracle) under memcheck
if $VG "$BUILD/tests/tools/gen" --check 1 30 >"$wrap/log" 2>&1; then pass=$((pass + 1)); else
	fail=$((fail + 1)); failed="$failed gen--check"; tail -n 20 "$wrap/log"; fi
[ -z "$failed" ] || echo "valgrind: failed:$failed"
echo "check-valgrind: $pass passed, $fail failed"
[ $fail = 0 ]
