#!/bin/sh
# check.sh JOBS SUITE... - `make check`: run every suite (a unit test binary or a
# tests/run-*.sh script), JOBS at a time, each with its output to its own log; then print the
# logs in the order given, and the summary line: "check: P passed, F failed" (exit 1 on any
# failure). BIN and BUILD pass through to the scripts.
jobs=$1; shift
T=$(mktemp -d "${TMPDIR:-/tmp}/check.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
i=0
for s in "$@"; do
	i=$((i + 1))
	printf '%s %s\n' "$i" "$s"
done | xargs -P "$jobs" -L 1 sh -c '
	case $2 in *.sh) sh "$2" ;; *) "$2" ;; esac >"$0/$1.log" 2>&1
	echo $? >"$0/$1.rc"' "$T"
pass=0 fail=0 failed=""
i=0
for s in "$@"; do
	i=$((i + 1))
	cat "$T/$i.log"
	if [ "$(cat "$T/$i.rc" 2>/dev/null)" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed="$failed $s"
	fi
done
echo
[ -z "$failed" ] || echo "failed:$failed"
echo "check: $pass passed, $fail failed"
[ "$fail" = 0 ]
