#!/bin/sh
# run.sh BIN BUILD - `make bench`: every benchmark of bench/ in turn (sim.sh: the simulator
# with the timing model; parse.sh, ...: the other modules' own), each printing its table.
# bench/results.md records the measured numbers, one heading per module.
BIN=${1:-bin}
BUILD=${2:-build}
rc=0
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo "== $b"
	sh "$b" "$BIN" "$BUILD" || rc=1
done
exit $rc
