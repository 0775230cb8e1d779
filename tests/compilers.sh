#!/bin/sh
# compilers.sh A B - warpsim built by two compilers translates alike: warpc of bin dir A and of
# bin dir B (.ci/run: GCC's build and clang's) print the same listing and the same --explain
# for every PTX file under tests/ and examples/, with the defaults and with kepler.cfg's
# translator; and warpsim runs the bench and corpus launches of bench/sim/same.sh to the same
# statistics and buffers. Not part of make check, which builds with one compiler. An
# argument list built with calls that emit code (two be_* calls as arguments of one call)
# is made in an order the compiler chooses, and shows here as a listing that differs.
# Exit status 1 when any run differs.
[ $# = 2 ] || { echo "usage: compilers.sh BIN_A BIN_B" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
A=$(cd "$1" && pwd) || exit 2
B=$(cd "$2" && pwd) || exit 2
cd "$top" || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/compilers.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# one FILE: prints "DIFF: <mode> FILE" for each way A and B translate FILE differently
one() {
	for cfg in "" "--config sim/configs/kepler.cfg"; do
		for mode in "" "--explain"; do
			# shellcheck disable=SC2086
			a=$("$A/warpc" $cfg $mode "$1" 2>&1; echo "rc $?")
			# shellcheck disable=SC2086
			b=$("$B/warpc" $cfg $mode "$1" 2>&1; echo "rc $?")
			[ "$a" = "$b" ] || echo "DIFF: warpc $cfg $mode $1"
		done
	done
}
n=0
for f in $(find tests examples -name '*.ptx' | sort); do
	n=$((n + 1))
	one "$f"
done >"$T/out"
sh bench/sim/same.sh "$A" "$B" >"$T/same" 2>&1 || cat "$T/same" >>"$T/out"
cat "$T/out"
bad=$(grep -c . "$T/out")
echo "compilers: $n PTX files x 4 translations, and bench/sim/same.sh: $bad differ"
[ "$bad" = 0 ]
