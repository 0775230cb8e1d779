# launch.sh - sourced by the run-*.sh scripts that run the corpus: where a kernel's launch is.
# A PTX file's own launch sits beside it (NAME.launch). A fixture nvcc compiled from
# tests/cuda/NAME.cu (tests/ptx/NAME.smXX.ptx, and ptxas's tests/ptxas-ref/NAME.smXX.sass)
# shares its CUDA source's launch, tests/cuda/NAME.launch, unless it has one of its own.
# Needs $top (the repository).

# launch_of FILE: print the launch of FILE (a .ptx or .sass), or nothing when it has none
launch_of() {
	lo_own=${1%.*}.launch
	lo_name=$(basename "$1"); lo_name=${lo_name%.*}
	if [ -f "$lo_own" ]; then
		echo "$lo_own"
	elif [ -f "$top/tests/ptx/$lo_name.launch" ]; then
		echo "$top/tests/ptx/$lo_name.launch"
	else
		case $lo_name in
		*.sm[0-9]*) [ -f "$top/tests/cuda/${lo_name%.sm*}.launch" ] &&
			echo "$top/tests/cuda/${lo_name%.sm*}.launch" ;;
		esac
	fi
	return 0
}

# corpus_runs: "NAME PROGRAM LAUNCH" for every corpus kernel with a launch, paths absolute:
# tests/ptx (a CUDA kernel's sm75 PTX only, named without .sm75), tests/workloads and the
# listings of tests/sim (run-bounds.sh, bench/micro/kernels.sh)
corpus_runs() {
	for cr_p in "$top"/tests/ptx/*.ptx "$top"/tests/workloads/*.ptx "$top"/tests/sim/*.sass; do
		cr_n=$(basename "$cr_p"); cr_n=${cr_n%.*}
		case $cr_n in *.sm35|*.sm80) continue ;; esac
		cr_l=$(launch_of "$cr_p")
		[ -n "$cr_l" ] && echo "${cr_n%.sm75} $cr_p $cr_l"
	done
	return 0
}
