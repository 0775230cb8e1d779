#!/bin/sh
# run-sim-micro.sh - the microbenchmarks end to end: every tests/sim/micro/NAME.sass
# holds "# case: ARGS => stat=value ..." lines; each case runs bin/warpsim on
# sim/configs/teaching.cfg with ARGS and --stats-json, and every stat named must have exactly
# its closed-form value (derived in the listing's comments). Every case runs a second time
# stepping the clock (--skip-idle off): its whole JSON must equal the skipping run's, byte
# for byte. Run by `make check` with BIN set.
BIN=${BIN:-bin}
D=tests/sim/micro
CFG=sim/configs/teaching.cfg
T=$(mktemp -d "${TMPDIR:-/tmp}/run-sim-micro.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

for f in $D/*.sass; do
	n=$(basename "$f" .sass)
	i=0
	sed -n 's/^# case: *//p' "$f" >"$T/cases"
	while IFS= read -r c; do
		i=$((i + 1))
		args=${c%%=>*}
		want=${c#*=>}
		ok=1
		# shellcheck disable=SC2086
		if ! "$BIN/warpsim" "$f" --config $CFG $args --quiet --stats-json "$T/skip.json" 2>"$T/err" ||
		   ! "$BIN/warpsim" "$f" --config $CFG $args --skip-idle off --quiet --stats-json "$T/step.json" 2>>"$T/err"; then
			echo "FAIL: $n case $i ($args): warpsim failed"; cat "$T/err"; ok=0
		else
			for kv in $want; do
				k=${kv%%=*} v=${kv#*=}
				got=$(sed -n "s/^  \"$k\": \\([^,]*\\),*\$/\\1/p" "$T/skip.json")
				if [ "$got" != "$v" ]; then
					echo "FAIL: $n case $i ($args): $k = ${got:-missing}, expected $v"; ok=0
				fi
			done
			if ! cmp -s "$T/skip.json" "$T/step.json"; then
				echo "FAIL: $n case $i ($args): stepping and skipping differ"
				diff "$T/step.json" "$T/skip.json"; ok=0
			fi
		fi
		if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	done <"$T/cases"
	[ $i -gt 0 ] || { echo "FAIL: $n has no case"; fail=$((fail + 1)); }
done

# stepping and skipping agree on the end-to-end kernels too, on every config and policy
for l in tests/sim/*.launch; do
	n=$(basename "$l" .launch)
	for cfg in sim/configs/*.cfg; do
		for pol in lrr gto two-level; do
			set -- tests/sim/$n.sass --launch "$l" --config "$cfg" --scheduler $pol --quiet
			if "$BIN/warpsim" "$@" --stats-json "$T/a.json" && "$BIN/warpsim" "$@" --skip-idle off --stats-json "$T/b.json" &&
			   cmp -s "$T/a.json" "$T/b.json"; then
				pass=$((pass + 1))
			else
				echo "FAIL: $n on $cfg, $pol: stepping and skipping differ"; fail=$((fail + 1))
			fi
		done
	done
done

echo "run-sim-micro: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
