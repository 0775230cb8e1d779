# settings.sh - sourced by run-diff.sh and run-link.sh: the translator settings at which the
# SM model must leave the oracle's memory (the if-conversion thresholds 0, 1, 4, 7, 12, inf;
# ptxas's sm_35 rule at 0, 8 and inf; the SM model without its timing model; r12: at most 12
# registers, --max-regs 12, where most kernels spill, so that the spill code and the frame
# layout it makes are checked too).

settings="0 1 4 7 12 inf s0 s8 sinf functional r12"

# kepler.cfg's translator rules beside its thresholds (ptxas 11.8 for sm_35), one list for
# popts's sN and run-backend.sh's NAME@pbk (tests/fuzzdiff/lib.sh and tests/tools/fdrun.c have
# their own copies)
SM35_RULES="--predicate-rule sm35 --loop-sync pbk --early-return guarded --short-circuit fold --func-params callers"

# popts SETTING: the translator options of one setting
popts() {
	case $1 in
	default) ;;
	functional) echo --functional ;;
	r*) echo "--max-regs ${1#r}" ;;
	s8) echo "$SM35_RULES --predicate-max 8 --predicate-max-uniform 6" ;;
	s*) echo "$SM35_RULES --predicate-max ${1#s} --predicate-max-uniform ${1#s}" ;;
	*) echo "--predicate-max $1 --predicate-max-uniform $1" ;;
	esac
}
