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
# or the translator (warpsim translates the PTX in process) says the program holds
# something not supported yet
# (PMAX sN: ptxas's sm_35 rule at N with --loop-sync pbk, --early-return guarded,
# --short-circuit fold and --func-params callers, as
# fdrun's sN; s8 with kepler.cfg's uniform 6)
fd_sm() {
	mkdir -p "$1" && rm -f "$1"/*.bin
	case $4 in
	s*) fd_u=${4#s}; [ "$4" = s8 ] && fd_u=6
	    set -- "$1" "$2" "$3" "${4#s} --predicate-rule sm35 --predicate-max-uniform $fd_u --loop-sync pbk --early-return guarded --short-circuit fold --func-params callers" "$5" ;;
	esac
	# $4 is split on purpose: the threshold and the rule's options
	(cd "$1" && "${WARPSIM_SM:-$WARPSIM}" --quiet --max-warp-insts "$FD_LIMIT" \
		--predicate-max $4 --scheduler "$5" "$2" --launch "$3") >"$1/log" 2>&1 && return 0
	fd_unsupported "$1/log" && return 2
	return 1
}

# fd_unsupported LOG: the run stopped at something the SM model or translator says it does
# not support yet (a located "unsupported: ..." error), as opposed to a wrong result
fd_unsupported() {
	grep -q -E 'error: unsupported|not supported' "$1" && ! grep -q -E 'internal error' "$1"
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
		[ -n "$d" ] && { echo "$f: $d" | sed -e 's/: .* differ: /: differs at /' -e 's|[^ ]*/||g'; return; }
	done
}

# fd_reason DIR: the NOT RUN reason, without paths
fd_reason() {
	{ grep -m 1 -E 'error|unsupported' "$1/log" || head -n 1 "$1/log"; } |
		sed -e 's/^.*error: //' -e 's/^warpsim: //' -e "s/ in '[^']*'\$//"
}
