# expect.sh - sourced by run-unsup.sh, run-perfdirs.sh, run-explore.sh and run-report.sh:
# counters, the check of one command's exit status and stderr, a run's statistic. Needs $name
# (the script's name, for messages) and, for expect, $tmp (a scratch folder); sets pass and
# fail.
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "$name: FAIL $*"; fail=$((fail + 1)); }
# expect STATUS PATTERN CMD...: exit status STATUS and stderr holding PATTERN (grep -E); the
# command's stdout and stderr stay in $tmp/out and $tmp/err
expect() {
	st=$1; pat=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc -ne "$st" ]; then bad "$*: exit $rc, expected $st"; sed 's/^/    /' "$tmp/err"; return; fi
	if [ -n "$pat" ] && ! grep -q -E "$pat" "$tmp/err"; then
		bad "$*: stderr lacks /$pat/"; sed 's/^/    /' "$tmp/err"; return
	fi
	ok
}
# statistic KEY CMD...: the integer statistic KEY of the run CMD --quiet --stats-json /dev/stdout
statistic() {
	sk=$1; shift
	"$@" --quiet --stats-json /dev/stdout | sed -n "s/.*\"$sk\": \([0-9]*\).*/\1/p"
}
