#!/bin/sh
# gen_ctrl.sh DIR - writes the control-flow microbenchmarks of bench/micro into DIR, one
# NAME.ptx each, and appends their lines to DIR/list (gen.sh writes it first): "NAME 32 OPS
# cyc [warpsim options]". Each kernel is one warp (32 threads) that reads %clock, runs OPS
# copies of one control construct (unrolled, or OPS iterations of one loop), reads %clock
# again and stores its start, its end and a value that depends on every copy to
# out[3 tid .. 3 tid + 2], as gen.sh's kernels do. measure.sh turns max(end) - min(start)
# into cycles per construct (unit cyc): the cost of one warp going once through it, the way
# Wong et al. (ISPASS 2010) timed branch divergence with clock() around a warp's code.
#
# Every construct keeps its branches (--predicate-max 0 and --predicate-max-uniform 0: the
# if-converter would otherwise turn the short sides into predicated code); the other
# translator settings are the config's own (kepler.cfg's --loop-sync pbk gives ctl_brk its
# PBK/BRK, fermi.cfg's ssy an SSY and .S). The constructs:
#   ctl_bra_taken    @P BRA over one instruction, P uniform and true for every lane
#   ctl_bra_fall     the same, P uniform and false: the branch falls through to the MOV
#   ctl_ifelse_conv  if/else on a lane-dependent condition that is true for all 32 lanes
#                    (SSY, the branch, one side, its .S): the reconvergence without divergence
#   ctl_ifelse_div   the same with lanes 0..15 on one side and 16..31 on the other: both sides
#                    run in turn and the .S rejoins them
#   ctl_predoff_all  @P IADD in a dependent chain, P false for every lane (compare lat_iadd,
#                    the same chain executed)
#   ctl_predoff_half the same, P false for lanes 0..15
#   ctl_call         call of a non-inlined .func that only returns (CAL, RET)
#   ctl_brk          one iteration of a loop whose break leaves past the code of its normal
#                    exit (PBK/BRK under --loop-sync pbk, SSY/.S under ssy); lane l breaks in
#                    iteration l + 1, so every iteration's break diverges
#   ctl_vote         vote.any over a predicate, in a dependent chain (VOTE.ANY)
# The shuffle (lat_shfl, thr_shfl) is in gen.sh.
# shellcheck disable=SC2016 # (PTX labels begin with $, in single quotes on purpose)
set -e
D=$1
[ -n "$D" ] || { echo "usage: gen_ctrl.sh DIR" >&2; exit 2; }
mkdir -p "$D"
[ -f "$D/list" ] || : >"$D/list"
K=32                      # constructs per timed chain (iterations of ctl_brk's loop)
NOPRED="--predicate-max 0 --predicate-max-uniform 0"

. "$(dirname "$0")/lib.sh"

# ctl_head NAME DECLS: lib.sh's opening (out pointer of this thread in %rd1, a (= 1) in %r1,
# %tid.x in %r2), then %p1 = (a != 0) uniform true, %p2 = (a == 0) uniform false, %p3 = tid <
# 16, %p4 = tid < 32 (lane-dependent, true for every lane of the warp); the bodies write
# %r20..%r27 and %r30..%r37 in turn (so that no copy waits on the previous one's write)
ctl_head() {
	head "$1" "$2"
	cat <<H
	setp.ne.u32 %p1, %r1, 0;
	setp.eq.u32 %p2, %r1, 0;
	setp.lt.u32 %p3, %r2, 16;
	setp.lt.u32 %p4, %r2, 32;
H
	for j in 0 1 2 3 4 5 6 7; do printf '\tmov.u32 %%r2%d, %%r1;\n\tmov.u32 %%r3%d, %%r2;\n' $j $j; done
	printf '\tmov.u32 %%r10, %%clock;\n'
}

# ctl_tail: the second clock, the sink (the sum of %r20..%r27 and %r30..%r37), the stores, the end
ctl_tail() {
	printf '\tmov.u32 %%r11, %%clock;\n\tmov.u32 %%r12, 0;\n'
	for j in 0 1 2 3 4 5 6 7; do printf '\tadd.u32 %%r12, %%r12, %%r2%d;\n\tadd.u32 %%r12, %%r12, %%r3%d;\n' $j $j; done
	cat <<T
	st.global.u32 [%rd1], %r10;
	st.global.u32 [%rd1+4], %r11;
	st.global.u32 [%rd1+8], %r12;
	ret;
}
T
}

# unrolled NAME OPTIONS BODY [LAST]: K copies of BODY (@@ in it becomes the copy's number, so
# labels and immediates are distinct; @A and @B become the copy's registers %r2x and %r3x),
# then LAST, an instruction that waits for the chain's result before the second clock (as
# gen.sh's lat_* kernels do)
unrolled() {
	n=$1 o=$2 b=$3 last=$4
	{
		ctl_head "$n" ""
		i=0
		while [ $i -lt $K ]; do
			printf '%s\n' "$b" | sed "s/@@/$i/g; s/@A/%r2$((i % 8))/g; s/@B/%r3$((i % 8))/g"
			i=$((i + 1))
		done
		[ -z "$last" ] || printf '\t%s\n' "$last"
		ctl_tail
	} >"$D/$n.ptx"
	echo "$n 32 $K cyc $o" >>"$D/list"
}

unrolled ctl_bra_taken "$NOPRED" '	@%p1 bra $L_@@;
	mov.u32 @A, @@;
$L_@@:'
unrolled ctl_bra_fall "$NOPRED" '	@%p2 bra $L_@@;
	mov.u32 @A, @@;
$L_@@:'
unrolled ctl_ifelse_conv "$NOPRED" '	@%p4 bra $T_@@;
	mov.u32 @A, @@;
	bra $J_@@;
$T_@@:
	mov.u32 @B, @@;
$J_@@:'
unrolled ctl_ifelse_div "$NOPRED" '	@%p3 bra $T_@@;
	mov.u32 @A, @@;
	bra $J_@@;
$T_@@:
	mov.u32 @B, @@;
$J_@@:'
unrolled ctl_predoff_all "$NOPRED" '	@%p2 add.u32 %r20, %r20, %r1;' 'mov.u32 %r21, %r20;'
unrolled ctl_predoff_half "$NOPRED" '	@!%p3 add.u32 %r20, %r20, %r1;' 'mov.u32 %r21, %r20;'
unrolled ctl_vote "$NOPRED" '	vote.sync.any.pred %p4, %p4, 0xffffffff;' 'selp.u32 %r21, 1, 2, %p4;'

# the call: a .func that only returns, called K times
{
	ctl_head ctl_call ".func ctl_f()
{
	ret;
}"
	i=0
	while [ $i -lt $K ]; do printf '\tcall ctl_f;\n'; i=$((i + 1)); done
	ctl_tail
} >"$D/ctl_call.ptx"
echo "ctl_call 32 $K cyc $NOPRED" >>"$D/list"

# the loop: lane l breaks to $B in iteration l + 1, past the code its normal exit runs
{
	ctl_head ctl_brk ""
	cat <<L
	mov.u32 %r13, 0;
\$LOOP:
	add.u32 %r13, %r13, 1;
	setp.gt.u32 %p5, %r13, %r2;
	@%p5 bra \$B;
	setp.lt.u32 %p6, %r13, $((K + 1));
	@%p6 bra \$LOOP;
	add.u32 %r30, %r30, 7;
\$B:
	add.u32 %r20, %r20, %r13;
L
	ctl_tail
} >"$D/ctl_brk.ptx"
echo "ctl_brk 32 $K cyc $NOPRED" >>"$D/list"
