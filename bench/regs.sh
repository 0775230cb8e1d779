#!/bin/sh
# regs.sh - registers per kernel: warpc -v against ptxas -v on every tests/ptx fixture.
# Prints a markdown table (kernel, warpc, ptxas, ratio) and the mean ratio; skips cleanly
# where ptxas is absent. Usage: sh bench/regs.sh [BIN]   (BIN holds warpc; default bin)
BIN=${1:-${BIN:-bin}}
top=$(cd "$(dirname "$0")/.." && pwd)
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ] && ! command -v ptxas >/dev/null 2>&1; then
	echo "regs.sh: ptxas not found: skipped"
	exit 0
fi
[ -x "$PTXAS" ] || PTXAS=ptxas
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-regs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "| fixture | kernel | warpc (sm_20 model, 63 max) | ptxas -arch sm_75 | ratio |"
echo "|---|---|---|---|---|"
sum=0 n=0
for ptx in "$top"/tests/ptx/*.ptx; do
	name=$(basename "$ptx" .ptx)
	"$BIN/warpc" -v "$ptx" > /dev/null 2> "$tmp/w" || continue
	# ptxas accepts a .target above sm_75 only for that target: rewrite it (CUDA 13 ptxas accepts sm_75 as its oldest)
	sed 's/^\.target .*/.target sm_75/' "$ptx" > "$tmp/p.ptx"
	"$PTXAS" -arch sm_75 -v "$tmp/p.ptx" -o "$tmp/p.cubin" > "$tmp/p" 2>&1 || continue
	sed -n "s/^warpc: info: Function properties for \([^:]*\): \([0-9]*\) registers.*/\1 \2/p" "$tmp/w" |
	while read -r k wr; do
		pr=$(awk -v k="$k" '/Compiling entry function/ { cur = ($0 ~ "\x27" k "\x27") }
		     cur && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") { print $(i+1); exit } }' "$tmp/p")
		[ -n "$pr" ] || continue
		echo "| $name | $k | $wr | $pr | $(awk -v a="$wr" -v b="$pr" 'BEGIN { printf "%.2f", a / b }') |"
	done
done > "$tmp/rows"
cat "$tmp/rows"
awk -F'|' '{ s += $6; n++ } END { if (n) printf "\nmean ratio warpc/ptxas over %d kernels: %.2f\n", n, s / n }' "$tmp/rows"
