#!/bin/sh
# translate.sh BIN BUILD - translator speed: warpc against ptxas -arch sm_75 on every
# tests/ptx fixture each translates (ptxas: the file with its .target rewritten to sm_75, the
# oldest CUDA 13's ptxas accepts). Wall time of each tool over the whole set, best of three
# runs, and the ratio ptxas / warpc (> 1: warpc is faster). A benchmark, not a test; skips
# cleanly when ptxas is absent. Measures only: the translator belongs to backend/frontend.
BIN=${1:-bin}
top=$(cd "$(dirname "$0")/.." && pwd)
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ] && ! command -v ptxas >/dev/null 2>&1; then
	echo "translate.sh: ptxas not found: skipped"
	exit 0
fi
[ -x "$PTXAS" ] || PTXAS=ptxas
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-translate.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# the fixtures both tools accept
: >"$T/list"
for p in "$top"/tests/ptx/*.ptx; do
	n=$(basename "$p" .ptx)
	sed 's/^\.target .*/.target sm_75/' "$p" >"$T/$n.ptx"
	"$BIN/warpc" "$p" >/dev/null 2>&1 || continue
	"$PTXAS" -arch sm_75 "$T/$n.ptx" -o "$T/x.cubin" >/dev/null 2>&1 || continue
	echo "$n" >>"$T/list"
done
now() { date +%s.%N; }
best() { # tool: best of three wall times of the whole set
	b=""
	for i in 1 2 3; do
		t0=$(now)
		while read -r n; do
			if [ "$1" = warpc ]; then "$BIN/warpc" "$top/tests/ptx/$n.ptx" >/dev/null
			else "$PTXAS" -arch sm_75 "$T/$n.ptx" -o "$T/x.cubin"; fi
		done <"$T/list"
		t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
		if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
	done
	echo "$b"
}
n=$(wc -l <"$T/list")
w=$(best warpc)
p=$(best ptxas)
echo "| fixtures | warpc | ptxas -arch sm_75 | ptxas / warpc |"
echo "|---|---|---|---|"
awk -v n="$n" -v w="$w" -v p="$p" 'BEGIN { printf "| %d | %.3f s | %.3f s | %.1f |\n", n, w, p, (w > 0 ? p / w : 0) }'
