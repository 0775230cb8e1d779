# verdict.sh - sourced by the run-*.sh scripts that keep a list of known failures: the
# verdict of one case against that list. Needs $pending (the list file: one NAME per line,
# # comments) and the counters pass, pend, fail.

# ispending NAME: 0 when NAME is on the list
ispending() {
	[ -f "$pending" ] && sed 's/#.*//' "$pending" | grep -qx "[[:space:]]*$1[[:space:]]*"
}

# verdict NAME WHY: PASS when WHY is empty (noting a listed case that passes, so that the list
# shrinks), PENDING when it failed and is listed, FAIL otherwise
verdict() {
	if [ -z "$2" ]; then
		if ispending "$1"; then
			echo "PASS    $1 (listed in ${pending#"$top"/}: remove it)"
		else
			echo "PASS    $1"
		fi
		pass=$((pass + 1))
	elif ispending "$1"; then
		echo "PENDING $1: $2"
		pend=$((pend + 1))
	else
		echo "FAIL    $1: $2"
		fail=$((fail + 1))
	fi
}
