#!/bin/sh
# run-cdp.sh - dynamic parallelism on both engines (issue 15), beyond run-diff.sh's buffers
# of tests/ptx/cdp_args, cdp_rec and cdp_tree (and their .stop limits) at every threshold:
#   1. the order: cdp_tree's list of grids in the order they ran is 0, 1, ..., 14 (first in,
#      first out; each grid's launches by block, thread, program order) on the oracle, the SM
#      model timed, with --functional, with --threads 2 and through warpc's listing (.kref);
#   2. the statistics: cdp_args runs 16 child grids of 2 CTAs each (34 CTAs in all), in the
#      table and in --stats-json; the oracle's summary counts the 14 child grids of cdp_tree;
#      a kernel that launches nothing prints neither row (the pins stay as they were);
#   3. a fault in a child grid (cdp_tree's seventh grid, id 6, writes past a 70-word buffer)
#      names that grid and its launch on both engines, after the fault's own location;
#   4. a parameter buffer above 4096 bytes is a located error on both engines; --bounds, which
#      bounds one grid, refuses a run that ran child grids.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-cdp.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=tests/ptx
want="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14"

# order NAME ENGINE-OPTIONS...: cdp_tree's list of grids is $want
order() {
	n=$1
	shift
	if "$BIN/warpsim" "$@" --launch $P/cdp_tree.launch --quiet --out 0:"$T/t.txt" >"$T/t.err" 2>&1 &&
	   [ "$(sed -n '65,79p' "$T/t.txt" | tr '\n' ' ')" = "$want " ]; then
		ok
	else
		bad "cdp_tree $n: got '$(sed -n '65,79p' "$T/t.txt" 2>/dev/null | tr '\n' ' ')'; $(head -1 "$T/t.err")"
	fi
}
order oracle --oracle $P/cdp_tree.ptx
order timed $P/cdp_tree.ptx
order functional --functional $P/cdp_tree.ptx
order threads --threads 2 $P/cdp_tree.ptx
"$BIN/warpc" $P/cdp_tree.ptx >"$T/tree.sass" && ok || bad "warpc cdp_tree"
grep -q '^\.kref cdp_tree$' "$T/tree.sass" && ok || bad "cdp_tree's listing lacks '.kref cdp_tree'"
order listing "$T/tree.sass"

# stat FILE NAME VALUE: the statistics table in FILE has NAME = VALUE
stat() {
	if [ "$(awk -v n="$2" '$1 == n { print $2 }' "$1")" = "$3" ]; then ok; else bad "$1: $2 is not $3"; fi
}
if "$BIN/warpsim" $P/cdp_args.ptx --launch $P/cdp_args.launch --stats --stats-json "$T/s.json" \
	--out 0:"$T/a.txt" >"$T/a.out" 2>"$T/a.err"; then
	stat "$T/a.err" cdp_child_grids 16
	stat "$T/a.err" cdp_child_ctas 32
	stat "$T/a.err" ctas 34
	grep -q '"cdp_child_grids": 16,' "$T/s.json" && ok || bad "--stats-json lacks cdp_child_grids 16"
else
	bad "cdp_args with --stats: $(head -1 "$T/a.err")"
fi
"$BIN/warpsim" --oracle $P/cdp_tree.ptx --launch $P/cdp_tree.launch --out 0:"$T/o.txt" 2>"$T/o.err" &&
	grep -q '^oracle: 14 child grids$' "$T/o.err" && ok || bad "the oracle's summary lacks '14 child grids'"
"$BIN/warpsim" $P/heap.ptx --launch $P/heap.launch --stats --out 0:"$T/h.txt" 2>"$T/h.err" &&
	! grep -q cdp_ "$T/h.err" && ok || bad "a kernel without launches prints cdp_ rows"

W="in the child grid of kernel 'cdp_tree' (depth 2) launched by kernel 'cdp_tree', block (0,0,0), thread (1,0,0), "
for e in --oracle --functional ""; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $e $P/cdp_tree.ptx --kernel cdp_tree --grid 1 --block 2 --arg buf:s32:70:zero \
		--arg s32:0 --arg s32:0 --arg s32:3 --quiet >"$T/f.out" 2>"$T/f.err"; then
		bad "cdp_tree into 70 words ($e): ran"
	elif grep -qF "$W" "$T/f.err" && grep -q "outside every allocation" "$T/f.err"; then
		ok
	else
		bad "cdp_tree into 70 words ($e): $(cat "$T/f.err")"
	fi
done

if "$BIN/warpsim" $P/cdp_args.ptx --launch $P/cdp_args.launch --quiet --bounds "$T/b.txt" \
	--out 0:"$T/a.txt" 2>"$T/b.err"; then
	bad "--bounds of a run with child grids: accepted"
else
	grep -q 'bounds one grid; this run also ran 16 child grids' "$T/b.err" && ok ||
		bad "--bounds of a run with child grids: $(head -1 "$T/b.err")"
fi

# a buffer of 5000 bytes: cudaGetParameterBuffer's size argument (V1, as GPUOcelot's PTX)
cat >"$T/big.ptx" <<'PTX'
.version 3.1
.target sm_35
.address_size 64
.extern .func (.param .b64 func_retval0) cudaGetParameterBuffer
(
	.param .b64 cudaGetParameterBuffer_param_0,
	.param .b64 cudaGetParameterBuffer_param_1
);
.visible .entry big(.param .u64 out)
{
	.reg .b64 %rd<4>;
	mov.u64 %rd1, 5000;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd1;
	.param .b64 param1;
	st.param.b64 [param1+0], %rd1;
	.param .b64 retval0;
	call.uni (retval0), cudaGetParameterBuffer, (param0, param1);
	ld.param.b64 %rd2, [retval0+0];
	}
	ld.param.u64 %rd3, [out];
	st.global.u64 [%rd3], %rd2;
	ret;
}
PTX
for e in --oracle --functional ""; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $e "$T/big.ptx" --grid 1 --block 1 --arg buf:u64:1:zero --quiet \
		>"$T/b.out" 2>"$T/b.err"; then
		bad "big buffer ($e): ran"
	elif grep -q 'cudaGetParameterBuffer of 5000 bytes: a parameter buffer holds at most 4096' "$T/b.err"; then
		ok
	else
		bad "big buffer ($e): $(head -1 "$T/b.err")"
	fi
done
echo "run-cdp: $pass passed, $fail failed"
[ $fail = 0 ]
