#!/bin/sh
# same.sh A B - the check that a speed step changed nothing: warpsim binaries A and B
# (directories holding warpsim) run every corpus kernel of tests/sim/stats/k under fermi,
# kepler and teaching with each scheduler (gto, lrr, two-level), fermi also with
# --skip-idle off, --threads 2 and --functional, and with --trace (.txt, .json) and
# --line-stats, plus the bench kernels; stdout, stderr, the exit status, --stats-json, every
# --out buffer and every trace of A must equal B's byte for byte. Prints the runs that
# differ and a count; exits non-zero when any differs. Not part of make check (it takes a
# few minutes); run it by hand before and after each step.
A=${1:?usage: same.sh A B}; B=${2:?usage: same.sh A B}
R=$(pwd)
case $A in /*) ;; *) A=$R/$A ;; esac
case $B in /*) ;; *) B=$R/$B ;; esac
D=$R/tests/sim/stats/k
T=$(mktemp -d "${TMPDIR:-/tmp}/same.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
n=0 bad=0

# out BIN ARGS...: the run's whole result, as text, on stdout
out() {
	b=$1; shift
	rm -rf "$T/run" && mkdir "$T/run" || exit 1
	(cd "$T/run" && "$b/warpsim" "$@" --quiet --stats-json s.json >o 2>e
	 echo "exit $?"; cat o e
	 for f in $(ls | sort); do echo "file $f $(cksum <"$f")"; done)
}
# cmp1 ARGS...: A and B on one run
cmp1() {
	n=$((n + 1))
	out "$A" "$@" >"$T/a"
	out "$B" "$@" >"$T/b"
	if ! cmp -s "$T/a" "$T/b"; then
		bad=$((bad + 1))
		echo "DIFFER: $*"
		diff "$T/a" "$T/b" | head -n 6
	fi
}

for p in "$D"/*.sass; do
	k=$(basename "$p" .sass)
	l=$D/$k.launch
	[ -f "$l" ] || l=$R/tests/cuda/${k%%.*}.launch
	for cfg in fermi kepler teaching; do
		for s in gto lrr two-level; do
			cmp1 "$p" --launch "$l" --config "$R/sim/configs/$cfg.cfg" --scheduler $s
		done
	done
	f="$p --launch $l --config $R/sim/configs/fermi.cfg"
	# shellcheck disable=SC2086
	{
	cmp1 $f --skip-idle off
	cmp1 $f --threads 2
	cmp1 $f --functional
	cmp1 $f --trace t.txt
	cmp1 $f --trace t.json
	cmp1 $f --line-stats l.csv
	}
done
for cfg in fermi kepler teaching; do
	for s in gto lrr two-level; do
		cmp1 "$R/bench/sim/intloop.sass" --config "$R/sim/configs/$cfg.cfg" --scheduler $s \
			--grid 30 --block 256 --arg buf:u32:7680 --arg u32:20
		cmp1 "$R/bench/sim/ffma.sass" --config "$R/sim/configs/$cfg.cfg" --scheduler $s \
			--grid 30 --block 256 --arg buf:f32:7680 --arg u32:10
	done
done
echo "same.sh: $n runs, $bad differ"
[ "$bad" = 0 ]
