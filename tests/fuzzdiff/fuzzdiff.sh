#!/bin/sh
# fuzzdiff.sh - the differential fuzzing driver (make fuzz-diff N=... [FROM=] [SIZE=] [JOBS=]).
#
#   sh tests/fuzzdiff/fuzzdiff.sh FROM COUNT
#
# For each seed: gen prints a random PTX program and its launch; the oracle runs it; the SM
# model runs it at every --predicate-max in PMAX under every --scheduler in SCHEDS; every
# run must leave the oracle's output buffers byte for byte. A difference (or an SM-model
# failure) is shrunk by shrink.sh into tests/regress/ (at most MAXSHRINK of them). Programs
# the SM model cannot take yet are counted NOT RUN, with the reason, never as agreement.
# Env: BIN BUILD (where warpsim and gen are), SIZE (gen --size, 3), JOBS (2), PMAX ("0 4 7
# inf"), SCHEDS ("lrr gto"), SHRINK (1), MAXSHRINK (5), REGRESS (tests/regress).
# Exit status 0 only when every program ran everywhere and agreed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
FROM=${1:?usage: fuzzdiff.sh FROM COUNT}
COUNT=${2:?usage: fuzzdiff.sh FROM COUNT}
BIN=${BIN:-bin}; BUILD=${BUILD:-build}
WARPSIM=$(cd "$BIN" && pwd)/warpsim
GEN=$(cd "$BUILD/tests/tools" && pwd)/gen
SIZE=${SIZE:-3}; JOBS=${JOBS:-2}; PMAX=${PMAX:-"0 4 7 inf"}; SCHEDS=${SCHEDS:-"lrr gto"}
SHRINK=${SHRINK:-1}; MAXSHRINK=${MAXSHRINK:-5}
export WARPSIM
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzzdiff.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

# worker J: seeds FROM+J, FROM+J+JOBS, ...; one result line per seed in $work/res.J:
#   AGREE seed | DIFF seed pmax sched what | SMERR seed pmax sched | ORACLE seed | NOTRUN seed reason
#   | CRASH seed exit N: message (the in-process runner died on it: an internal error)
# by default in one process (tests/tools/fdrun.c: the same library calls as warpsim, no
# process or file per run); FD_INPROC=0 runs gen and warpsim as programs, run by run
FDRUN=$(cd "$BUILD/tests/tools" && pwd)/fdrun
FD_INPROC=${FD_INPROC:-1}
[ -x "$FDRUN" ] && [ -z "${WARPSIM_SM:-}" ] || FD_INPROC=0
worker() {
	if [ "$FD_INPROC" = 1 ]; then
		# a crash of the translator or the model (an internal error aborts) ends the
		# process: the seed after its last line is reported as CRASH and the job goes on
		# from the next one
		: >"$work/res.$1"; : >"$work/skip.$1"
		s=$((FROM + $1)); end=$((FROM + COUNT))
		while [ "$s" -lt "$end" ]; do
			"$FDRUN" "$s" $((end - s)) --step "$JOBS" --size "$SIZE" --pmax "$PMAX" \
				--scheds "$SCHEDS" --max-warp-insts "$FD_LIMIT" >"$work/one.$1" 2>"$work/err.$1"
			rc=$?
			cat "$work/one.$1" >>"$work/res.$1"
			grep '^fdrun: [0-9]* SM-model runs' "$work/err.$1" | tail -n 1 >>"$work/skip.$1"
			[ $rc -le 1 ] && break
			last=$(tail -n 1 "$work/one.$1" | cut -d' ' -f2)
			[ -n "$last" ] && s=$((last + JOBS))
			echo "CRASH $s exit $rc: $(grep -v '^fdrun: [0-9]* SM-model' "$work/err.$1" | head -n 1)" >>"$work/res.$1"
			s=$((s + JOBS))
		done
		return
	fi
	j=$1; w=$work/w$j; mkdir -p "$w"; s=$((FROM + j)); end=$((FROM + COUNT))
	while [ "$s" -lt "$end" ]; do
		"$GEN" --seed "$s" --size "$SIZE" >"$w/p.ptx" && "$GEN" --seed "$s" --size "$SIZE" --launch >"$w/p.launch"
		if ! fd_oracle "$w/o" "$w/p.ptx" "$w/p.launch"; then
			echo "ORACLE $s $(head -n 1 "$w/o/log")"
		else
			res="AGREE $s"
			for pm in $PMAX; do
				for sc in $SCHEDS; do
					fd_sm "$w/s" "$w/p.ptx" "$w/p.launch" "$pm" "$sc"; rc=$?
					if [ $rc = 2 ]; then res="NOTRUN $s $(fd_reason "$w/s")"; break 2; fi
					if [ $rc = 1 ]; then res="SMERR $s $pm $sc"; break 2; fi
					if ! fd_same "$w/o" "$w/s"; then res="DIFF $s $pm $sc $(fd_firstdiff "$w/o" "$w/s")"; break 2; fi
				done
			done
			echo "$res"
		fi
		s=$((s + JOBS))
	done >"$work/res.$j"
}

start=$(date +%s)
j=0
while [ $j -lt "$JOBS" ]; do worker $j & j=$((j + 1)); done
wait
cat "$work"/res.* | sort -k2,2n >"$work/all"
secs=$(( $(date +%s) - start ))
n=$(wc -l <"$work/all"); agree=$(grep -c '^AGREE' "$work/all")
diff=$(grep -c -E '^(DIFF|SMERR|CRASH)' "$work/all"); orc=$(grep -c '^ORACLE' "$work/all")
notrun=$(grep -c '^NOTRUN' "$work/all")
echo "fuzz-diff: $n programs (seeds $FROM..$((FROM + COUNT - 1)), size $SIZE) in ${secs}s," \
     "predicate-max {$PMAX} x scheduler {$SCHEDS} against the oracle"
echo "fuzz-diff:   $agree agree everywhere, $diff differ or fail on the translator or SM model, $orc fail on the oracle, $notrun NOT RUN"
if [ "$FD_INPROC" = 1 ]; then
	cat "$work"/skip.* | awk '/^fdrun: [0-9]+ SM-model runs/ { r += $2; s += $5 }
		END { printf "fuzz-diff:   %d SM-model runs; %d configurations not rerun: their microcode was identical to an earlier threshold'"'"'s\n", r, s }'
	grep -v '^fdrun: [0-9]* SM-model runs' "$work"/skip.* | head -n 5
fi
if [ "$notrun" -gt 0 ]; then
	echo "fuzz-diff: NOT RUN on the SM model ($notrun of $n programs; NOT counted as agreement):"
	grep '^NOTRUN' "$work/all" | cut -d' ' -f3- | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/fuzz-diff:   /'
fi
grep -E '^(DIFF|SMERR|ORACLE|CRASH)' "$work/all" | head -n 20 | sed 's/^/fuzz-diff: FAIL /'
[ "$n" = "$COUNT" ] || echo "fuzz-diff: FAIL $n result lines for $COUNT seeds"
if [ "$SHRINK" = 1 ] && [ "$diff" -gt 0 ]; then
	grep -E '^(DIFF|SMERR|CRASH)' "$work/all" | head -n "$MAXSHRINK" | while read -r kind s pm sc rest; do
		if [ "$kind" = CRASH ]; then   # the translator died: shrink the translator failure
			SIZE=$SIZE sh "$here/shrink.sh" "$s" warpc -
		else
			SIZE=$SIZE sh "$here/shrink.sh" "$s" "$pm" "$sc"
		fi
	done
fi
[ "$agree" = "$n" ] && [ "$n" = "$COUNT" ]
