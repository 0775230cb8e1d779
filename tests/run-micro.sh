#!/bin/sh
# run-micro.sh - issue 16's microbenchmarks pinned: bench/micro/gen.sh writes every kernel,
# bench/micro/measure.sh runs each under fermi.cfg and kepler.cfg, and every figure (cycles
# per dependent op, ops per cycle per SM, from the kernels' own %clock reads) must equal its
# row in bench/micro/results.txt, which `make micro` writes. The figures are the model's, not
# the host's: nothing here is timed. A change to the model that moves a figure fails here
# until `make micro` renews results.txt and docs/calibration.md on purpose. Run by make check.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-micro.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
if ! sh bench/micro/gen.sh "$T/k" 2>"$T/err" ||
   ! sh bench/micro/measure.sh "$BIN" "$T/k" sim/configs/fermi.cfg sim/configs/kepler.cfg \
	>"$T/got" 2>>"$T/err"; then
	echo "FAIL: the microbenchmarks do not run:"; head -5 "$T/err"
	echo "run-micro: 0 passed, 1 failed"
	exit 1
fi
while read -r name rest; do
	want=$(awk -v n="$name" '$1 == n { $1 = ""; print substr($0, 2) }' bench/micro/results.txt)
	if [ -z "$want" ]; then
		echo "FAIL $name: no row in bench/micro/results.txt (make micro writes it)"; fail=$((fail + 1))
	elif [ "$want" != "$rest" ]; then
		echo "FAIL $name: fermi kepler = $rest, results.txt says $want"; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done <"$T/got"
n=$(wc -l <bench/micro/results.txt)
if [ "$n" != "$(wc -l <"$T/got")" ]; then
	echo "FAIL: results.txt has $n rows, the suite $(wc -l <"$T/got")"; fail=$((fail + 1))
fi
echo "run-micro: $pass passed, $fail failed"
[ $fail = 0 ]
