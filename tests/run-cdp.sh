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
#   4. a parameter buffer above 4096 bytes, a child block of 2048 threads and a launch of a
#      kernel without a body are located errors on both engines; --bounds, which bounds one grid, refuses a run that ran child grids;
#   5. cudaStreamCreateWithFlags stores the one stream handle (0x5354524d) on both engines; the
#      rest of the device runtime (here cudaEventCreateWithFlags) is a located unsupported
#      error of the translator and both engines.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-cdp.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=tests/ptx

# stops WHAT PATTERN ARGS...: warpsim ARGS stops on the oracle, timed and with --functional,
# with a message that matches PATTERN (grep's basic expressions)
stops() {
	what=$1 pat=$2
	shift 2
	for e in --oracle --functional ""; do
		# shellcheck disable=SC2086
		if "$BIN/warpsim" $e "$@" --quiet >"$T/s.out" 2>"$T/s.err"; then
			bad "$what ($e): ran"
		elif grep -q "$pat" "$T/s.err"; then
			ok
		else
			bad "$what ($e): $(head -3 "$T/s.err")"
		fi
	done
}
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

stops "cdp_tree into 70 words" "in the child grid of kernel 'cdp_tree' (depth 2) launched by kernel 'cdp_tree', block (0,0,0), thread (1,0,0), " \
	$P/cdp_tree.ptx --kernel cdp_tree --grid 1 --block 2 --arg buf:s32:70:zero --arg s32:0 \
	--arg s32:0 --arg s32:3

if "$BIN/warpsim" $P/cdp_args.ptx --launch $P/cdp_args.launch --quiet --bounds "$T/b.txt" \
	--out 0:"$T/a.txt" 2>"$T/b.err"; then
	bad "--bounds of a run with child grids: accepted"
else
	grep -q 'bounds one grid; this run also ran 16 child grids' "$T/b.err" && ok ||
		bad "--bounds of a run with child grids: $(head -1 "$T/b.err")"
fi

# launch(size, bx, which): a buffer of size bytes (cudaGetParameterBuffer, V1, as GPUOcelot's
# PTX), then a child grid of kernel leaf (which 0) or of the bodyless other (which 1) with
# blocks of bx threads (cudaLaunchDevice)
cat >"$T/dev.ptx" <<'PTX'
.version 3.1
.target sm_35
.address_size 64
.extern .func (.param .b64 func_retval0) cudaGetParameterBuffer
(
	.param .b64 cudaGetParameterBuffer_param_0,
	.param .b64 cudaGetParameterBuffer_param_1
);
.extern .func (.param .b32 func_retval0) cudaLaunchDevice
(
	.param .b64 cudaLaunchDevice_param_0,
	.param .b64 cudaLaunchDevice_param_1,
	.param .align 4 .b8 cudaLaunchDevice_param_2[12],
	.param .align 4 .b8 cudaLaunchDevice_param_3[12],
	.param .b32 cudaLaunchDevice_param_4,
	.param .b64 cudaLaunchDevice_param_5
);
.visible .entry leaf()
{
	ret;
}
.extern .entry other();
.visible .entry launch(.param .u64 size, .param .u32 bx, .param .u32 which)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [size];
	ld.param.u32 %r2, [bx];
	ld.param.u32 %r3, [which];
	{
	.param .b64 param0;
	st.param.b64 [param0+0], 8;
	.param .b64 param1;
	st.param.b64 [param1+0], %rd1;
	.param .b64 retval0;
	call.uni (retval0), cudaGetParameterBuffer, (param0, param1);
	ld.param.b64 %rd2, [retval0+0];
	}
	mov.u32 %r1, 1;
	mov.u64 %rd3, leaf;
	mov.u64 %rd4, other;
	setp.ne.u32 %p1, %r3, 0;
	selp.b64 %rd3, %rd4, %rd3, %p1;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd3;
	.param .b64 param1;
	st.param.b64 [param1+0], %rd2;
	.param .align 4 .b8 param2[12];
	st.param.b32 [param2+0], %r1;
	st.param.b32 [param2+4], %r1;
	st.param.b32 [param2+8], %r1;
	.param .align 4 .b8 param3[12];
	st.param.b32 [param3+0], %r2;
	st.param.b32 [param3+4], %r1;
	st.param.b32 [param3+8], %r1;
	.param .b32 param4;
	st.param.b32 [param4+0], 0;
	.param .b64 param5;
	st.param.b64 [param5+0], 0;
	.param .b32 retval0;
	call.uni (retval0), cudaLaunchDevice, (param0, param1, param2, param3, param4, param5);
	ld.param.b32 %r1, [retval0+0];
	}
	ret;
}
PTX
L="$T/dev.ptx --kernel launch --grid 1 --block 1"
stops "big buffer" 'cudaGetParameterBuffer of 5000 bytes: a parameter buffer holds at most 4096' \
	$L --arg u64:5000 --arg u32:32 --arg u32:0
stops "wide child block" "the child grid of kernel 'leaf' (depth 1) launched by kernel 'launch', block (0,0,0), thread (0,0,0), .*: a block of 2048 x 1 x 1 threads: a block holds at most 1024" \
	$L --arg u64:4 --arg u32:2048 --arg u32:0
stops "bodyless kernel" "cudaLaunchDevice of kernel 'other', which the program does not hold (it has no body in this module)" \
	$L --arg u64:4 --arg u32:32 --arg u32:1
"$BIN/warpsim" $L --arg u64:4 --arg u32:1024 --arg u32:0 --quiet 2>"$T/l.err" && ok ||
	bad "launch of 1024 threads: $(head -1 "$T/l.err")"
# FN(&out[0], 1) as nvcc calls cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking): the stream
# is made, its handle stored (the same on both engines); cudaEventCreateWithFlags, a function of
# the device runtime that is not simulated, is refused with its location
cat >"$T/fn.ptx" <<'PTX'
.version 7.8
.target sm_35
.address_size 64
.extern .func (.param .b32 func_retval0) FN
(
	.param .b64 FN_param_0,
	.param .b32 FN_param_1
)
;
.visible .entry strm(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd1;
	.param .b32 param1;
	st.param.b32 [param1+0], 1;
	.param .b32 retval0;
	call.uni (retval0), FN, (param0, param1);
	ld.param.b32 %r1, [retval0+0];
	}
	st.global.u32 [%rd1+8], %r1;
	ret;
}
PTX
sed 's/FN/cudaStreamCreateWithFlags/g' "$T/fn.ptx" >"$T/strm.ptx"
sed 's/FN/cudaEventCreateWithFlags/g' "$T/fn.ptx" >"$T/event.ptx"
for e in --oracle ""; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $e "$T/strm.ptx" --grid 1 --block 1 --arg buf:u32:3:const:7 --quiet \
		--out 0:"$T/h.txt" 2>"$T/h.err" && [ "$(tr '\n' ' ' <"$T/h.txt")" = "1398035021 0 0 " ]; then
		ok
	else
		bad "cudaStreamCreateWithFlags ($e): $(tr '\n' ' ' <"$T/h.txt" 2>/dev/null) $(head -1 "$T/h.err")"
	fi
done
U="event.ptx:21:2: error: unsupported: call .. 'cudaEventCreateWithFlags': CUDA's device runtime API in a kernel (streams, events, memory, device queries) is not simulated"
stops "device-side event" "$U" "$T/event.ptx" --grid 1 --block 1 --arg buf:u64:1:zero
"$BIN/warpc" "$T/event.ptx" >/dev/null 2>"$T/u.err" && bad "warpc event.ptx: translated" ||
	{ grep -q "$U" "$T/u.err" && ok || bad "warpc event.ptx: $(head -1 "$T/u.err")"; }
echo "run-cdp: $pass passed, $fail failed"
[ $fail = 0 ]
