# lib.sh - sourced by the fuzz-diff driver, the shrinker and the test scripts: run one PTX
# case on the reference oracle and on the SM model under one configuration, and compare.
#
# Needs WARPSIM (the warpsim binary); WARPSIM_SM, when set, replaces it for the SM-model runs
# (the shrinker's own test uses a deliberately broken one). PTX and launch paths must be
# absolute: every run happens in its own directory, where the launch's --out files land.

FD_LIMIT=${FD_LIMIT:-20000000}   # --max-warp-insts for every run: generated loops are bounded

# fd_oracle DIR PTX LAUNCH: the oracle's out.bin/acc.bin in DIR; status 0, or 1 (DIR/log)
fd_oracle() {
	mkdir -p "$1" && rm -f "$1"/*.bin
	(cd "$1" && "$WARPSIM" --oracle --quiet --max-warp-insts "$FD_LIMIT" "$2" --launch "$3") \
		>"$1/log" 2>&1
}

# fd_sm DIR PTX LAUNCH PMAX SCHED: status 0 ran, 1 failed (a finding), 2 NOT RUN: the SM model
# cannot take this program yet (no translator, an unsupported construct, an option it lacks)
fd_sm() {
	mkdir -p "$1" && rm -f "$1"/*.bin
	if (cd "$1" && "${WARPSIM_SM:-$WARPSIM}" --quiet --max-warp-insts "$FD_LIMIT" \
		--predicate-max "$4" --scheduler "$5" "$2" --launch "$3") >"$1/log" 2>&1; then
		return 0
	fi
	if grep -q -E 'needs the translator|unsupported|not supported|unknown option' "$1/log"; then
		return 2
	fi
	return 1
}

# fd_same A B: the two runs left identical output buffers
fd_same() {
	for f in out.bin acc.bin; do
		[ -f "$1/$f" ] && [ -f "$2/$f" ] && cmp -s "$1/$f" "$2/$f" || return 1
	done
}

# fd_firstdiff A B: "out.bin byte N" of the first difference, for notes
fd_firstdiff() {
	for f in out.bin acc.bin; do
		d=$(cmp "$1/$f" "$2/$f" 2>&1 | head -n 1)
		[ -n "$d" ] && { echo "$f: $d" | sed 's|[^ ]*/||g'; return; }
	done
}

# fd_reason DIR: the NOT RUN reason, without paths
fd_reason() {
	head -n 1 "$1/log" | sed -e 's|/[^ :]*/||g' -e 's/^warpsim: //'
}
