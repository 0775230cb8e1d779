#!/bin/sh
# run-shstress.sh - the shared-memory stress test in `make check` (tests/tools/shstress.c):
#   1. SHSTRESS_N (100) random kernels of shared loads, stores and atomics of every width,
#      partial warps, aliasing lanes and, in a quarter of them, a misaligned or out-of-range
#      access: the SM model at --predicate-max 0, 4 and inf under fermi.cfg, kepler.cfg and
#      teaching.cfg against the PTX oracle, memory and faults byte for byte (fixed seeds);
#      some of them must end in a fault (else the faults go unchecked);
#   2. the harness itself: with SHSTRESS_FAKE_BUG every run is reported as a difference.
# Env: BUILD (make check sets it), SHSTRESS_N.
BUILD=${BUILD:-build}
T=$BUILD/tests/tools/shstress
[ -x "$T" ] || { echo "run-shstress.sh: $T is missing: build the test tools first (make tests)" >&2; exit 1; }
status=0
r=$("$T" 1 "${SHSTRESS_N:-100}") || status=1
echo "$r"
nf=$(echo "$r" | sed -n 's/^shstress: [0-9]* kernels (\([0-9]*\) end in a fault).*/\1/p')
if [ "${nf:-0}" -lt 1 ]; then
	echo "run-shstress: FAIL no kernel ended in a fault: the fault comparison went unchecked"
	status=1
fi
r=$(SHSTRESS_FAKE_BUG=1 "$T" 1 2 --pmax 0 --configs fermi); rc=$?
n=$(echo "$r" | grep -c '^shstress: DIFF seed [12], --predicate-max 0, fermi: ')
if [ $rc != 1 ] || [ "$n" != 2 ]; then
	echo "run-shstress: FAIL a planted difference was not reported (exit $rc):"
	echo "$r" | sed 's/^/    /'
	status=1
else
	echo "run-shstress: a planted difference is reported"
fi
[ $status = 0 ] && echo "run-shstress: ok" || echo "run-shstress: FAILED"
exit $status
