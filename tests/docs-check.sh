#!/bin/sh
# docs-check.sh - make docs-check: the generated documents are what their commands make of
# the tree as it is. It runs make fidelity, make micro and make explore (which rewrite
# docs/fidelity.md's generated part, bench/micro/results.txt, docs/calibration.md and
# docs/explore.md) and fails, naming each file and showing the start of its difference, when
# one of them changed: a change that moves a decision, a cycle or a reason must land with
# the documents it moves. The regenerated files are left in place, ready to commit. Then
# docs-excerpts.sh reruns the commands whose output README.md, docs/report.md and
# tests/explore/head.md quote and fails, naming each stale line; those are edited by hand.
# env: MAKE (default make); the make variables BIN and BUILD are passed through.
set -u
MAKE=${MAKE:-make}
files="docs/fidelity.md bench/micro/results.txt docs/calibration.md docs/explore.md"
T=$(mktemp -d "${TMPDIR:-/tmp}/docs-check.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
i=0
for f in $files; do
	cp "$f" "$T/$i" || { echo "docs-check: cannot read $f" >&2; exit 1; }
	i=$((i + 1))
done
for t in fidelity micro explore; do
	$MAKE --no-print-directory "$t" "$@" > "$T/log" 2>&1 ||
		{ echo "docs-check: make $t failed:" >&2; tail -20 "$T/log" >&2; exit 1; }
done
i=0 bad=0
for f in $files; do
	if ! cmp -s "$T/$i" "$f"; then
		echo "docs-check: $f is not what its command makes of the tree (now regenerated):" >&2
		diff -u "$T/$i" "$f" | sed -n 3,24p >&2
		bad=1
	fi
	i=$((i + 1))
done
[ $bad = 0 ] && echo "docs-check: $files current"
# the command output README.md, docs/report.md and tests/explore/head.md show (tests/README.md)
sh tests/docs-excerpts.sh "$@" || bad=1
exit $bad
