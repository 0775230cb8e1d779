#!/bin/sh
# make.sh - make explore: warpsim --explore over the corpus (corpus.sh), then docs/explore.md
# from head.md, the tables exploresum makes of the runs' JSON, and tail.md. Fails when a
# kernel's exploration fails (a run that failed or buffers that differ between variants).
# env: BIN, BUILD
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
out=$BUILD/explore
rm -rf "$out"
bad=$(BIN=$BIN sh tests/explore/corpus.sh "$out" | awk '$2 != 0 { print $1 }')
if [ -n "$bad" ]; then
	for n in $bad; do echo "explore: $n failed:"; sed 's/^/    /' "$out/$n.txt" | head -20; done
	exit 1
fi
{ cat tests/explore/head.md; "$BUILD/tests/tools/exploresum" "$out"/*.json; cat tests/explore/tail.md; } \
	> docs/explore.md || exit 1
echo "explore: docs/explore.md from $(ls "$out"/*.json | wc -l) kernels"
