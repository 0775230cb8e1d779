#!/bin/sh
# tests/real/run.sh DIR: translate every real-world PTX file under DIR with warpc and print one
# row per file (translated, or failed with warpc's first located error), then the totals:
# per source (the first folder under DIR, as collect.sh makes them) and in all.
# The real PTX lives on this machine only (tests/real/README.md); this script fetches nothing.
# A crash (a signal), a time-out or an error without a file:line:col location counts apart and
# makes the run exit 1, as does a translation rate under MIN percent (default 0: report only).
# Env: BIN (warpc's folder), MIN, TIMEOUT (seconds per file, default 300).
set -u
DIR=${1:?usage: run.sh DIR}
BIN=${BIN:-bin}
MIN=${MIN:-0}
TIMEOUT=${TIMEOUT:-300}
[ -d "$DIR" ] || { echo "run.sh: '$DIR' is not a folder" >&2; exit 2; }
err=$(mktemp) && rows=$(mktemp) && trap 'rm -f "$err" "$rows"' EXIT
total=0 ok=0 failed=0 bad=0
list=$(find "$DIR" -type f -name '*.ptx' | LC_ALL=C sort)
for f in $list; do
	total=$((total + 1))
	name=${f#"$DIR"/}
	timeout "$TIMEOUT" "$BIN/warpc" "$f" -o /dev/null 2>"$err"
	rc=$?
	case $name in */*) src=${name%%/*} ;; *) src=. ;; esac
	echo "$src $rc" >> "$rows"
	if [ $rc -eq 0 ]; then
		ok=$((ok + 1)); printf '%-60s translated\n' "$name"; continue
	fi
	first=$(grep -m1 'error' "$err" || head -n1 "$err")
	if [ $rc -gt 1 ] && [ $rc -ne 2 ]; then
		bad=$((bad + 1)); printf '%-60s CRASH (exit %d) %s\n' "$name" $rc "$first"; continue
	fi
	case $first in
	*:[0-9]*:[0-9]*:*) failed=$((failed + 1)); printf '%-60s failed %s\n' "$name" "${first#"$f":}" ;;
	*) bad=$((bad + 1)); printf '%-60s UNLOCATED %s\n' "$name" "$first" ;;
	esac
done
[ $total -gt 0 ] || { echo "run.sh: no .ptx file under '$DIR'" >&2; exit 2; }
echo
awk '{ n[$1]++; if ($2 == 0) ok[$1]++ }
     END { for (s in n) printf "%-24s %4d of %4d translated (%.1f%%)\n", s, ok[s], n[s], int(1000 * ok[s] / n[s]) / 10 }' \
	"$rows" | LC_ALL=C sort
pct=$((ok * 1000 / total))
printf '\n%d files: %d translated (%d.%d%%), %d failed with a located error, %d crashed or unlocated\n' \
	$total $ok $((pct / 10)) $((pct % 10)) $failed $bad
[ $bad -eq 0 ] && [ $((ok * 100)) -ge $((MIN * total)) ]
