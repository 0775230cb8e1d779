#!/bin/sh
# shrink.sh - delta-debugs a generated program whose SM-model run differs from the oracle
# and saves the smallest one as a regression test.
#
#   sh tests/fuzzdiff/shrink.sh SEED PMAX SCHED
#   sh tests/fuzzdiff/shrink.sh SEED warpc -      (a translator failure: see classify)
#
# The program is gen's statement tree; the shrinker deletes nodes (statements and whole
# blocks, by gen --drop) in halving chunks, ddmin style, keeping a deletion when the same
# kind of failure (a different output, or an SM-model error) persists under the same
# --predicate-max and --scheduler. gen keeps every subset valid, so no deletion can make
# the oracle's side undefined. Saves REGRESS/gen-SEED.ptx, .launch and .note (seed, size,
# configuration, the difference, the drop list). Env: BIN BUILD SIZE REGRESS WARPSIM_SM.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SEED=${1:?usage: shrink.sh SEED PMAX SCHED}; PM=${2:?}; SC=${3:?}
BIN=${BIN:-bin}; BUILD=${BUILD:-build}; SIZE=${SIZE:-3}; REGRESS=${REGRESS:-tests/regress}
WARPSIM=$(cd "$BIN" && pwd)/warpsim
GEN=$(cd "$BUILD/tests/tools" && pwd)/gen
export WARPSIM
w=$(mktemp -d "${TMPDIR:-/tmp}/shrink.XXXXXX") || exit 2
trap 'rm -rf "$w"' EXIT INT TERM

"$GEN" --seed "$SEED" --size "$SIZE" --launch >"$w/p.launch"
"$GEN" --seed "$SEED" --size "$SIZE" >"$w/best.ptx"
nodes=$("$GEN" --seed "$SEED" --size "$SIZE" --count)
echo 0 >"$w/tests"

# classify PTX: prints diff, smerr or ok (ok also when the oracle or the SM model cannot run);
# with PMAX "warpc": xlate when the translator fails internally (an internal error or a
# broken invariant rather than a located "unsupported"), to shrink translator crashes
classify() {
	echo $(( $(cat "$w/tests") + 1 )) >"$w/tests"
	if [ "$PM" = warpc ]; then
		timeout 60 "$(dirname "$WARPSIM")/warpc" "$1" >/dev/null 2>"$w/xlate.log"
		if [ $? -gt 1 ] || grep -q -E 'internal error|CallReturnStacks|without \.S|Sanitizer' "$w/xlate.log"
		then echo xlate; else echo ok; fi
		return
	fi
	fd_oracle "$w/o" "$1" "$w/p.launch" || { echo ok; return; }
	fd_sm "$w/s" "$1" "$w/p.launch" "$PM" "$SC"
	case $? in
	0) if fd_same "$w/o" "$w/s"; then echo ok; else echo diff; fi ;;
	1) echo smerr ;;
	*) echo ok ;;
	esac
}

want=$(classify "$w/best.ptx")
if [ "$want" = ok ]; then
	echo "shrink: seed $SEED agrees with the oracle at predicate-max $PM, scheduler $SC: nothing to shrink"
	exit 1
fi
case $want in
diff) first=$(fd_firstdiff "$w/o" "$w/s") ;;
xlate) first=$(grep -E 'error' "$w/xlate.log" | head -n 2 | sed 's|[^ ]*/||g' | paste -sd';' -) ;;
*) first=$(head -n 1 "$w/s/log") ;;
esac

# ids still present, one per line; the drop list is the complement
seq 0 $((nodes - 1)) >"$w/kept"
droplist() {
	seq 0 $((nodes - 1)) | grep -vxF -f "$w/kept" | awk '
		function flush() { if (n) out = out (out == "" ? "" : ",") (a == b ? a : a "-" b) }
		{ if (n && $1 == b + 1) b = $1; else { flush(); a = b = $1; n = 1 } }
		END { flush(); print out }'
}
: >"$w/none"
chunk=$(( (nodes + 1) / 2 ))
while [ "$chunk" -ge 1 ]; do
	i=0; changed=0
	while :; do
		total=$(wc -l <"$w/kept")
		[ "$i" -ge "$total" ] && break
		awk -v a="$i" -v c="$chunk" 'NR <= a || NR > a + c' "$w/kept" >"$w/cand"
		cp "$w/kept" "$w/save"; cp "$w/cand" "$w/kept"
		d=$(droplist)
		"$GEN" --seed "$SEED" --size "$SIZE" ${d:+--drop "$d"} >"$w/c.ptx"
		if cmp -s "$w/c.ptx" "$w/best.ptx"; then
			changed=1          # nodes already gone with an enclosing block: forget them
		elif [ "$(classify "$w/c.ptx")" = "$want" ]; then
			cp "$w/c.ptx" "$w/best.ptx"; changed=1
		else
			cp "$w/save" "$w/kept"; i=$((i + chunk))
		fi
	done
	[ "$changed" = 1 ] && [ "$chunk" -gt 1 ] && continue
	chunk=$((chunk / 2))
done

mkdir -p "$REGRESS"
base=$REGRESS/gen-$SEED
cp "$w/best.ptx" "$base.ptx"
cp "$w/p.launch" "$base.launch"
kept=$(wc -l <"$w/kept"); tests=$(cat "$w/tests")
lines=$(grep -c -v -E '^\s*(\.reg|//|$)' "$base.ptx")
{
	echo "seed: $SEED"
	echo "size: $SIZE"
	echo "configuration: --predicate-max $PM --scheduler $SC"
	echo "failure: $want ($first)"
	echo "shrunk: $nodes nodes to $kept in $tests runs; $lines PTX lines"
	echo "drop: $(droplist)"
	echo "reproduce: gen --seed $SEED --size $SIZE --drop <drop>; warpsim gen-$SEED.ptx --launch gen-$SEED.launch --predicate-max $PM --scheduler $SC vs warpsim --oracle"
} >"$base.note"
echo "shrink: seed $SEED ($want at predicate-max $PM, scheduler $SC): $nodes nodes -> $kept in $tests runs, saved $base.ptx"
