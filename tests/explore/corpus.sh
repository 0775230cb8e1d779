#!/bin/sh
# corpus.sh OUT - warpsim --explore over the kernel corpus (make explore): each kernel of
# tests/ptx (the sm75 listing of a CUDA kernel compiled for several architectures) and of
# tests/workloads with its launch (tests/launch.sh), under the default options (fermi.cfg's
# rule), -j JOBS; writes OUT/NAME.json and OUT/NAME.txt, and prints NAME STATUS SECONDS per
# kernel. env: BIN, JOBS (default 2)
BIN=${BIN:-bin}
mkdir -p "$1" && OUT=$(cd "$1" && pwd) || exit 1
JOBS=${JOBS:-2}
top=$(pwd)
. tests/launch.sh
case $BIN in /*) W=$BIN/warpsim ;; *) W=$top/$BIN/warpsim ;; esac
mkdir -p "$OUT/run"
for p in tests/ptx/*.ptx tests/workloads/*.ptx; do
	n=$(basename "$p" .ptx)
	case $n in *.sm35|*.sm80) continue ;; esac
	l=$(launch_of "$p")
	[ -n "$l" ] || continue
	case $l in /*) ;; *) l=$top/$l ;; esac
	t0=$(date +%s)
	(cd "$OUT/run" && "$W" "$top/$p" --launch "$l" --explore -j "$JOBS" --explore-json "$OUT/$n.json") \
		> "$OUT/$n.txt" 2>&1
	echo "$n $? $(( $(date +%s) - t0 ))"
done
