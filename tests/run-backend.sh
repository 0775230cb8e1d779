#!/bin/sh
# run-backend.sh - the translator on every PTX fixture (tests/ptx/*.ptx):
#   1. warpc translates it, with the defaults and with kepler.cfg's translator settings
#      (NAME@pbk: --arch sm_35, so RRO before MUFU.SIN/COS/EX2, and PBK/BRK around loops
#      with divergent exits); warpc itself runs the ISA checks and the reconvergence
#      verifier (SSY or PBK target = immediate post-dominator, .S or BRK on every path into
#      a sync point, balanced pushes, no .S without SSY, no BRK without PBK); exit status 0;
#   2. the listing re-parses with the isa parser and prints back identically;
#   3. where NAME.launch exists, the listing runs on the SM model and every --out buffer
#      equals the PTX oracle's, byte for byte;
#   4. the golden listings of the examples (tests/golden/NAME.sass) are unchanged;
#   5. integer division and remainder sequences on edge values equal the oracle's;
#   6. a fixture whose kernel says .maxnreg N has at most N registers in its listing;
#   7. the wide vector accesses of vec_wide, vec_mis and vec_wide32: one LD/ST.E, LDS/STS,
#      LDL/STL or LDC of 8 or 16 bytes per vector (or per 16 bytes), no self-moves left;
#   8. webs (backend/webs.c): a PTX register reused for unrelated values is one live range
#      per value (atom_shared64's loads go straight to their stores, webs_reuse's and
#      cf_ibra_nolist's register counts);
#   9. dead results (regalloc.c): a result no one reads writes RZ (PT), an unused global
#      atomic's is a RED (but exch and cas: RZ), and no move no one reads is left;
#  10. constant operands (consts.c): parameters, .const words and immediates read by their
#      uses from the bank or as immediates; intervals in code order (regalloc.c);
#  11. word copies (consts.c): the words of a pair moved from 32-bit values read from those;
#  12. spill_plan still spills a pair written word by word (the store plan's case, regalloc.c);
#  13. continues: PBK for one that crosses a join (sync.c), SSY for one that does not; break
#      paths with their SSY (exit_sync); a break past a join: the join's SSY every trip
#      (trip_join), in the listing and in --explain;
#  14. sides with a global load whose address they compute, or a local load, are predicated;
#  15. shared memory per kernel; PTX 1.x's ftz; one -d dump per function;
#  16. fns: ptxas's branch-free search, as many instructions as ptxas 11.8 spends;
# tests/backend-pending.txt lists fixtures known not to translate yet (with the reason);
# they are reported as PENDING. Exit status 1 on any failure.
# env: BIN (warpc, warpsim). UPDATE=1 rewrites the golden listings.
BIN=${BIN:-bin}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/launch.sh"
. "$top/tests/settings.sh"   # popts: kepler.cfg's translator settings for NAME@pbk
bin=$(cd "$BIN" && pwd)
wc="$bin/warpc"
ws="$bin/warpsim"
pending=$top/tests/backend-pending.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-be.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 pend=0

ispending() {
	[ -f "$pending" ] && sed 's/#.*//' "$pending" | grep -qx "[[:space:]]*$1[[:space:]]*"
}

bad() {
	echo "FAIL $1: $2"
	fail=$((fail + 1))
}

count() {   # count LABEL NAME PATTERN COUNT: COUNT instructions of $tmp/NAME.sass match PATTERN
	got=$(grep -cE "\*/ +$3" "$tmp/$2.sass")
	if [ "$got" = "$4" ]; then pass=$((pass + 1)); else bad "$1" "$4 x '$3' expected, $got in the listing"; fi
}

regs_at_most() {   # regs_at_most LABEL NAME MAX: $tmp/NAME.sass takes at most MAX registers
	got=$(awk '/^\.registers/ { print $2; exit }' "$tmp/$2.sass")
	if [ -n "$got" ] && [ "$got" -le "$3" ]; then pass=$((pass + 1)); else bad "$1" "at most $3 registers expected, ${got:-none} in the listing"; fi
}

# each fixture twice: with the defaults (every loop reconverges with SSY) and with kepler.cfg's
# translator settings, reported as NAME@pbk (--arch sm_35, ptxas's sm_35 rule at 8/6 and
# --loop-sync pbk: PBK before a loop with divergent exits, BRK on them; --early-return
# guarded: a short side that returns from a .func, predicated, leaves by a guarded RET;
# --short-circuit fold: a short test folded into the one before it; --func-params callers: a
# .func parameter that every call of the kernel passes uniform is uniform)
for v in ssy pbk; do
for ptx in "$top"/tests/ptx/*.ptx; do
	base=$(basename "$ptx" .ptx) name=$(basename "$ptx" .ptx) vopt=""
	if [ $v = pbk ]; then
		name=$base@pbk
		vopt="--arch sm_35 $(popts s8)"
	fi
	if ! "$wc" $vopt "$ptx" > "$tmp/$name.sass" 2> "$tmp/$name.err"; then
		if ispending "$base"; then
			pend=$((pend + 1))
			echo "PENDING $name: $(head -1 "$tmp/$name.err")"
		else
			bad "$name" "warpc: $(head -3 "$tmp/$name.err")"
		fi
		continue
	fi
	if ispending "$base"; then
		echo "NOTE $name translates now: remove it from tests/backend-pending.txt"
	fi
	# a kernel's .maxnreg N caps its listing's registers
	cap=$(sed -n 's/^[[:space:]]*\.maxnreg[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$ptx" | head -1)
	regs=$(sed -n 's/^\.registers \([0-9]\{1,\}\)$/\1/p' "$tmp/$name.sass" | sort -n | tail -1)
	if [ -n "$cap" ] && [ "${regs:-0}" -gt "$cap" ]; then
		bad "$name" ".registers $regs over the kernel's .maxnreg $cap"
		continue
	fi
	if ! "$wc" --asm "$tmp/$name.sass" > "$tmp/$name.re" 2> "$tmp/$name.err"; then
		bad "$name" "listing does not re-parse: $(head -3 "$tmp/$name.err")"
		continue
	fi
	if ! cmp -s "$tmp/$name.sass" "$tmp/$name.re"; then
		bad "$name" "listing prints back differently"
		continue
	fi
	launch=$(launch_of "$ptx")
	ok=1
	if [ -n "$launch" ] && [ -x "$ws" ]; then
		outs=$(sed -n 's/^[[:space:]]*--out[[:space:]]\{1,\}\([0-9]\{1,\}\):.*/\1/p' "$launch")
		oargs="" sargs=""
		for o in $outs; do
			oargs="$oargs --out $o:$tmp/$name.or.$o.bin"
			sargs="$sargs --out $o:$tmp/$name.sm.$o.bin"
		done
		unordered=$(grep -c 'diff: unordered-float' "$launch")
		if ! (cd "$tmp" && "$ws" --oracle "$ptx" --launch "$launch" $oargs) > /dev/null 2> "$tmp/$name.err"; then
			echo "SKIP $name: the oracle does not run it: $(head -1 "$tmp/$name.err")"
		elif ! (cd "$tmp" && "$ws" "$tmp/$name.sass" --launch "$launch" $sargs) > /dev/null 2> "$tmp/$name.err"; then
			bad "$name" "the SM model fails: $(head -2 "$tmp/$name.err")"
			ok=0
		elif [ "$unordered" = 0 ]; then
			for o in $outs; do
				if ! cmp -s "$tmp/$name.or.$o.bin" "$tmp/$name.sm.$o.bin"; then
					bad "$name" "buffer $o differs from the oracle's"
					ok=0
				fi
			done
		fi
	fi
	[ $ok = 1 ] && pass=$((pass + 1))
done
done

# golden listings of the examples, reviewed by hand; they pin the reconvergence shapes, so
# if-conversion is off (tests/explain pins its listings)
for g in "$top"/tests/golden/*.ptx; do
	[ -f "$g" ] || continue
	name=$(basename "$g" .ptx)
	"$wc" --predicate-max 0 --predicate-max-uniform 0 "$g" > "$tmp/$name.gold" 2> "$tmp/$name.err" || { bad "golden $name" "$(head -2 "$tmp/$name.err")"; continue; }
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/$name.gold" "$top/tests/golden/$name.sass"
	elif ! diff -u "$top/tests/golden/$name.sass" "$tmp/$name.gold" > "$tmp/$name.diff"; then
		bad "golden $name" "listing changed:"
		head -30 "$tmp/$name.diff"
		continue
	fi
	pass=$((pass + 1))
done

# integer division and remainder on edge values: the SM model against the oracle
if [ -x "$ws" ]; then
	for ty in u32 s32 u16 s16; do
		cat > "$tmp/div_$ty.ptx" <<EOF
.version 9.0
.target sm_75
.address_size 64
.visible .entry divk(.param .u64 pa, .param .u64 pb, .param .u64 pq, .param .u64 pr)
{
	.reg .b32 %r<4>;
	.reg .b16 %h<4>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pq];
	ld.param.u64 %rd4, [pr];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mad.lo.s32 %r0, %r1, %ntid.x, %r0;
	mul.wide.u32 %rd5, %r0, 4;
	add.s64 %rd6, %rd1, %rd5;
	add.s64 %rd7, %rd2, %rd5;
	add.s64 %rd8, %rd3, %rd5;
	add.s64 %rd9, %rd4, %rd5;
	ld.global.u32 %r1, [%rd6];
	ld.global.u32 %r2, [%rd7];
EOF
		case $ty in
		*32) cat >> "$tmp/div_$ty.ptx" <<EOF
	div.$ty %r3, %r1, %r2;
	st.global.u32 [%rd8], %r3;
	rem.$ty %r3, %r1, %r2;
	st.global.u32 [%rd9], %r3;
}
EOF
		;;
		*) cat >> "$tmp/div_$ty.ptx" <<EOF
	cvt.u16.u32 %h1, %r1;
	cvt.u16.u32 %h2, %r2;
	div.$ty %h3, %h1, %h2;
	cvt.u32.u16 %r3, %h3;
	st.global.u32 [%rd8], %r3;
	rem.$ty %h3, %h1, %h2;
	cvt.u32.u16 %r3, %h3;
	st.global.u32 [%rd9], %r3;
}
EOF
		;;
		esac
		# a: edge values and random; b: edge values (no zero: PTX leaves x/0 undefined)
		n=4096
		{
			echo "--kernel divk"
			echo "--grid 16"
			echo "--block 256"
			echo "--arg buf:u32:$n:random:7:0:4294967295"
			echo "--arg buf:u32:$n:random:11:1:70000"
			echo "--arg buf:u32:$n:zero"
			echo "--arg buf:u32:$n:zero"
		} > "$tmp/div_$ty.launch"
		if ! "$wc" "$tmp/div_$ty.ptx" > "$tmp/div_$ty.sass" 2> "$tmp/div.err"; then
			bad "div.$ty" "$(head -2 "$tmp/div.err")"
			continue
		fi
		"$ws" --oracle "$tmp/div_$ty.ptx" --launch "$tmp/div_$ty.launch" --out 2:"$tmp/oq.bin" --out 3:"$tmp/or.bin" > /dev/null 2> "$tmp/div.err" || { echo "SKIP div.$ty: oracle: $(head -1 "$tmp/div.err")"; continue; }
		"$ws" "$tmp/div_$ty.sass" --launch "$tmp/div_$ty.launch" --out 2:"$tmp/sq.bin" --out 3:"$tmp/sr.bin" > /dev/null 2> "$tmp/div.err" || { bad "div.$ty" "SM model: $(head -1 "$tmp/div.err")"; continue; }
		if cmp -s "$tmp/oq.bin" "$tmp/sq.bin" && cmp -s "$tmp/or.bin" "$tmp/sr.bin"; then
			pass=$((pass + 1))
		else
			bad "div.$ty" "quotient or remainder differs from the oracle's"
		fi
	done
fi

# 7. wide vector accesses (isel_mem.c's sel_vec): each vector of 32- or 64-bit elements is one
#    access of its width (its count of each form in vec_wide's listing), no narrow access of
#    those kernels is left, and the moves out of a load's quad vanish (vec_wide32's loads)
for k in vec_wide vec_mis vec_wide32; do
	"$wc" "$top/tests/ptx/$k.ptx" > "$tmp/wide.$k.sass" 2>&1 || bad "wide.$k" "$(head -2 "$tmp/wide.$k.sass")"
done
count wide.vec_mis wide.vec_mis 'ST\.E\.128 \[R[0-9]+\+0x8\]' 1
count wide.vec_mis wide.vec_mis "(LD|ST)" 1
count wide.vec_wide wide.vec_wide 'LD\.E\.128 ' 3
count wide.vec_wide wide.vec_wide 'LD\.E\.64 ' 2
count wide.vec_wide wide.vec_wide 'ST\.E\.128 ' 6
count wide.vec_wide wide.vec_wide 'ST\.E\.64 ' 3
count wide.vec_wide wide.vec_wide 'STS\.128 ' 2
count wide.vec_wide wide.vec_wide 'LDS\.128 ' 2
count wide.vec_wide wide.vec_wide 'STL\.128 ' 4
count wide.vec_wide wide.vec_wide 'LDL\.128 ' 5
count wide.vec_wide wide.vec_wide 'STL\.64 ' 2
count wide.vec_wide wide.vec_wide 'LDC\.64 ' 3
count wide.vec_wide wide.vec_wide '(LD|ST|LDS|STS|LDC)(\.E)? ' 0
count wide.vec_wide32 wide.vec_wide32 'LD\.E\.128 R[0-9]+, \[R[0-9]+(\+0x[0-9a-f]+)?\];' 4
count wide.vec_wide32 wide.vec_wide32 'MOV R([0-9]+), R\1;' 0

# 8. webs: each definition of a reused register that reaches other uses is its own value.
#    atom_shared64 reuses %rd2/%rd3 for four .v2.u64 loads each stored at once: every LDS.128
#    is followed by its ST.E.128 from the same quad (one long live range: 8 copies each);
#    webs_reuse takes at most 16 registers (20 as one range per PTX register); an in-place
#    64-bit add (add.u64 %rd1, %rd1, %rd2: IADD.CC R0, R0, R4; IADD.X R1, R1, R5) keeps its
#    pair: cf_ibra_nolist in at most 6 registers (8 with a new pair for the sum)
for k in atom_shared64 webs_reuse cf_ibra_nolist; do
	"$wc" "$top/tests/ptx/$k.ptx" > "$tmp/webs.$k.sass" 2>&1 || bad "webs.$k" "$(head -2 "$tmp/webs.$k.sass")"
done
got=$(awk '/\*\/ +LDS\.128 R[0-9]+, \[/ { r = $3; sub(/,/, "", r); next_is = r; next }
	next_is != "" { if ($2 == "ST.E.128" && $NF == next_is ";") n++; next_is = "" }
	END { print n + 0 }' "$tmp/webs.atom_shared64.sass")
if [ "$got" = 4 ]; then pass=$((pass + 1)); else bad "webs.atom_shared64" "4 x LDS.128 then ST.E.128 of its quad expected, $got in the listing"; fi
regs_at_most webs.webs_reuse webs.webs_reuse 16
regs_at_most webs.cf_ibra_nolist webs.cf_ibra_nolist 6

# 9. dead results: dead_result's unused atomics are RED.E.ADD, RED.E.MIN.S32 and
#    RED.E.ADD.U64, its exch and cas write RZ, its used atom.add a register; its unused load,
#    product and comparison write RZ and PT; atomics.sm35 under kepler.cfg keeps one ATOM (the
#    cas, to RZ) of its eleven; no listing of the fixtures holds a move to RZ (a move no one
#    reads goes)
count dead.dead_result dead_result 'RED\.E\.ADD \[R[0-9]+\]' 1
count dead.dead_result dead_result 'RED\.E\.MIN\.S32 \[R[0-9]+\+0x4\]' 1
count dead.dead_result dead_result 'RED\.E\.ADD\.U64 \[R[0-9]+\+0x8\]' 1
count dead.dead_result dead_result 'ATOM\.E\.EXCH RZ, ' 1
count dead.dead_result dead_result 'ATOM\.E\.CAS RZ, ' 1
count dead.dead_result dead_result 'ATOM\.E\.ADD R[0-9]+, ' 1
count dead.dead_result dead_result 'ATOM' 3
count dead.dead_result dead_result 'LD\.E RZ, ' 1
count dead.dead_result dead_result 'IMUL\.U32\.U32\.HI RZ, ' 1
count dead.dead_result dead_result 'ISETP\.LT\.U32\.AND PT, PT, ' 1
"$wc" --config "$top/sim/configs/kepler.cfg" "$top/tests/ptx/atomics.sm35.ptx" > "$tmp/atomics.kepler.sass" 2>&1 ||
	bad "dead.atomics" "$(head -2 "$tmp/atomics.kepler.sass")"
count dead.atomics.kepler atomics.kepler 'ATOM\.E\.CAS RZ, ' 1
count dead.atomics.kepler atomics.kepler 'ATOM' 1
count dead.atomics.kepler atomics.kepler 'RED\.E\.' 10
got=$(cat "$tmp"/*.sass | grep -cE '\*/ +(@!?P[0-6] +)?MOV(32I)?(\.64)? RZ,')
if [ "$got" = 0 ]; then pass=$((pass + 1)); else bad "dead.moves" "$got moves to RZ in the fixtures' listings"; fi

# 10. constant operands: const_operands reads its parameters from the bank in the slots that
#     take a constant (commuting IADD, LOP, IMUL, FMUL; mirroring ISETP.EQ against 0 into
#     RZ, c[..]; both words of the in pointer in its address's ISCADD.CC and IMAD.HI.X, the
#     mul.wide by 4 fused into its add.s64 as ptxas 11.8 has it), its .const word too (no
#     LDC), its mask as an immediate; the bound written under a guard stays a register; no
#     unguarded move holds k; 10 registers at most (12 with every parameter in a register).
#     histogram.sm35 under kepler.cfg: 12 registers at most (16 with the intervals in block
#     number order, where the exit path lies between the loop's blocks)
"$wc" "$top/tests/ptx/const_operands.ptx" > "$tmp/const.sass" 2>&1 || bad "const" "$(head -2 "$tmp/const.sass")"
count const const 'ISCADD\.CC R[0-9]+, R[0-9]+, c\[0x0\]\[0x20\], 0x2;' 1
count const const 'IMAD\.U32\.U32\.X\.HI R[0-9]+, R[0-9]+, R[0-9]+, c\[0x0\]\[0x24\];' 1
count const const 'IADD R[0-9]+, R[0-9]+, c\[0x0\]\[0x30\];' 1
count const const 'LOP\.XOR R[0-9]+, R[0-9]+, c\[0x0\]\[0x34\];' 2
count const const 'IMUL\.U32\.U32 R[0-9]+, R[0-9]+, c\[0x0\]\[0x30\];' 1
count const const 'IADD R[0-9]+, R[0-9]+, c\[0x3\]\[0x4\];' 1
count const const 'LDC' 0
count const const 'LOP\.AND R[0-9]+, R[0-9]+, 0xff0f;' 1
count const const '@P0 MOV R[0-9]+, c\[0x0\]\[0x30\];' 1
count const const 'ISETP\.GT\.U32\.AND P0, PT, R[0-9]+, R[0-9]+, PT;' 1
count const const 'DADD R[0-9]+, R[0-9]+, c\[0x0\]\[0x38\];' 1
count const const 'FMUL R[0-9]+, R[0-9]+, c\[0x0\]\[0x40\];' 1
count const const 'ISETP\.EQ\.U32\.AND P0, PT, RZ, c\[0x0\]\[0x30\], PT;' 1
count const const 'ISETP\.LT\.U32\.AND P0, PT, R[0-9]+, c\[0x0\]\[0x30\], PT;' 1
count const const 'MOV R[0-9]+, c\[0x0\]' 0
regs_at_most const const 10
"$wc" --config "$top/sim/configs/kepler.cfg" "$top/tests/ptx/histogram.sm35.ptx" > "$tmp/order.sass" 2>&1 ||
	bad "order.histogram" "$(head -2 "$tmp/order.sass")"
regs_at_most order.histogram order 12

# 11. word copies: word_copies reads the words of (u64)tid, copied whole, from tid and RZ
#     (LOP.XOR with RZ; no move of RZ left); the hammock family kernel ifelse_div_3 under
#     kepler.cfg (its cvt.u64.u32 pair unpacked by mov.b64) in 6 registers at most (8 with
#     the pair in registers; ptxas 11.8 counts 7 with its R1)
"$wc" "$top/tests/ptx/word_copies.ptx" > "$tmp/words.sass" 2>&1 || bad "words" "$(head -2 "$tmp/words.sass")"
count words words 'LOP\.XOR R[0-9]+, R[0-9]+, RZ;' 1
count words words 'MOV R[0-9]+, RZ;' 0
"$wc" --config "$top/sim/configs/kepler.cfg" --kernel ifelse_div_3 "$top/tests/ptxas-ref/families/ifelse_div.ptx" \
	> "$tmp/words.fam.sass" 2>&1 || bad "words.ifelse_div_3" "$(head -2 "$tmp/words.fam.sass")"
regs_at_most words.ifelse_div_3 words.fam 6

# 12. the store plan's case: spill_plan (the defaults) spills its two packed pairs, so that
#     a word's move into each follows the pair's reload (LDL.64 Rn; MOV Rn or Rn+1, Rm) at
#     least twice; the move's source is what the plan must not put in Rn (040afb4). A rule
#     that keeps the pairs out of memory (word copies made the old fixture's vanish) would
#     leave the fixture testing nothing, and fails here
"$wc" "$top/tests/ptx/spill_plan.ptx" > "$tmp/plan.sass" 2>&1 || bad "plan" "$(head -2 "$tmp/plan.sass")"
got=$(awk '{ sub(/^[[:space:]]*\/\*[0-9a-f]+\*\/[[:space:]]*/, "") }
	/^MOV R[0-9]+, R[0-9]+;/ && ld != "" { d = $2; sub(/,/, "", d); sub(/^R/, "", d)
		if (d + 0 == ld || d + 0 == ld + 1) n++ }
	{ ld = "" }
	/^LDL\.64 R[0-9]+, / { ld = $2; sub(/,/, "", ld); sub(/^R/, "", ld); ld += 0 }
	END { print n + 0 }' "$tmp/plan.sass")
if [ "$got" -ge 2 ]; then pass=$((pass + 1)); else bad "plan" "at least 2 word moves right after their pair's reload expected, $got in the listing"; fi

# 13. continues (sync.c's crossed joins, kepler.cfg's settings: NAME@pbk): a divergent continue
#     that crosses an if's join makes ptxas 11.8's per-iteration PBK at the latch, left by
#     `@P BRK` and a `BRK` at the body's end, the if's branch a plain BRA inside it (cont_cross;
#     cont_trip, whose continue tests the trip counter of a loop that lanes leave apart); the
#     continues of cont_nocross cross no join (one from the top level before the divergent if,
#     one after its join, one across a uniform if's join) and keep SSY with NOP.S arrivals,
#     as ptxas's listings do (tests/ptxas-ref/NAME.sass; the defaults keep SSY for all three)
for k in cont_cross cont_trip; do
	count cont.$k "$k@pbk" 'PBK ' 1
	count cont.$k "$k@pbk" '@P[0-6] BRK;' 1
	count cont.$k "$k@pbk" 'BRK;' 1
	count cont.$k "$k@pbk" 'SSY ' 1
	count cont.$k "$k@pbk" '@!?P[0-6] BRA ' 1
	count cont.$k "$k" 'PBK ' 0
done
count cont.cont_nocross cont_nocross@pbk 'PBK ' 0
count cont.cont_nocross cont_nocross@pbk 'SSY ' 3
count cont.cont_nocross cont_nocross@pbk '@P[0-6] NOP\.S;' 4

# 13b. break paths (pbk.c's be_exit_sync, kepler.cfg's settings): brk_sync's four loops are left by
#     their own exit (`@P BRK`) and by their back edge's fall-through into a path to the
#     loop's end (a BRK at its end); ptxas 11.8 pushes an SSY of the path inside the PBK for
#     paths of 11 and 12 instructions and one with a store (the leaving lanes arrive by
#     `@P NOP.S`, the own exits' BRK passes the token), not for 10 (a plain `@P BRA` back
#     edge), as tests/ptxas-ref/brk_sync.sass; the defaults keep one SSY per loop
count brksync brk_sync@pbk 'PBK ' 4
count brksync brk_sync@pbk 'SSY ' 3
count brksync brk_sync@pbk '@P[0-6] BRK;' 4
count brksync brk_sync@pbk 'BRK;' 4
count brksync brk_sync@pbk '@!?P[0-6] NOP\.S;' 3
count brksync brk_sync@pbk '@!?P[0-6] BRA ' 1
count brksync brk_sync 'PBK ' 0

# 13c. breaks past a join (pbk.c's be_trip_join, kepler.cfg's settings): in brk_nest's five PBK
#     loops a divergent branch whose one side breaks gets an SSY of its join inside the trip,
#     pushed every trip, in loops A to D (an if breaking halfway or at its side's end, the
#     same in a loop whose exits all go to one block, a brx.idx with a break); loop E's if,
#     whose side only breaks, gets none; A, D and E have an SSY of their break path too: 7
#     SSY, 5 PBK, as tests/ptxas-ref/brk_nest.sass. The breaks leave by `@P BRK` (B's, at its
#     side's end, then `NOP.S` for the others), C's back edge is `@P BRA` then `BRK`, as
#     ptxas's; the defaults keep SSY
count brknest brk_nest@pbk 'PBK ' 5
count brknest brk_nest@pbk 'SSY ' 7
count brknest brk_nest@pbk '@!?P[0-6] BRK;' 8
count brknest brk_nest@pbk 'BRK;' 7
count brknest brk_nest@pbk '@!?P[0-6] NOP\.S;' 6
count brknest brk_nest@pbk '@!?P[0-6] BRA ' 3
count brknest brk_nest 'PBK ' 0
got=$("$wc" --config "$top/sim/configs/kepler.cfg" --explain "$top/tests/ptx/brk_nest.ptx" |
	grep -c ' ssy .*SSY every trip at the join inside the loop')
[ "$got" = 4 ] && pass=$((pass + 1)) || bad brknest "--explain: 4 branches with the SSY of a join in the trip expected, $got"

# 13d. the join rule counts paths (pbk.c's be_join_path, kepler.cfg's settings): join_uni's
#     divergent ifs around a uniform if/else whose sides both jump to the join (A, and B with
#     a mirror clamp closing in each side) and its divergent test before two uniform tests to
#     one join (C) keep their SSY; D's inner if/else is divergent, three paths and a PBK; B's
#     two clamps are PBKs of their own (sides_meet): 3 SSY, 3 PBK, as
#     tests/ptxas-ref/join_uni.sass (6 PBK and no SSY when every edge counted)
count joinuni join_uni@pbk 'PBK ' 3
count joinuni join_uni@pbk 'SSY ' 3

# 14. sides with a load (ifrule.c): ld_side's two sides compute their global load's address
#     (12 and 18 PTX instructions); kepler.cfg's settings predicate both, the loads guarded
#     and no SSY left, as ptxas 11.8's listing does; the defaults branch around both
count ldside ld_side@pbk '@!?P[0-6] LD\.E ' 2
count ldside ld_side@pbk 'SSY ' 0
count ldside ld_side 'SSY ' 2
#     ld_local's side loads from its local array (17 PTX instructions): predicated under
#     kepler.cfg's settings (a guarded LDL, no SSY), a branch with the defaults
count ldlocal ld_local@pbk '@!?P[0-6] LDL ' 1
count ldlocal ld_local@pbk 'SSY ' 0
count ldlocal ld_local 'SSY ' 1

# 15. shared memory per kernel (layout.c be_kernel_shared): a kernel's CTA holds the .shared
#     variables of what it reaches, as ptxas 11.8 counts them (a 256, b 96, c 4, d none:
#     b's 100 holds the module's g, which f's sf follows): not the module's 360 bytes each
cat > "$tmp/kshared.ptx" <<'P'
.version 7.0
.target sm_35
.address_size 64
.shared .align 4 .u32 g;
.func f(.param .u32 x)
{
	.reg .u32 %r<3>;
	.shared .align 4 .b8 sf[32];
	ld.param.u32 %r1, [x];
	st.shared.u32 [sf], %r1;
	ret;
}
.entry a() { .reg .u32 %r<2>; .shared .align 4 .b8 sa[256]; mov.u32 %r1, %tid.x; st.shared.u32 [sa], %r1; ret; }
.entry b() { .reg .u32 %r<2>; .shared .align 4 .b8 sb[64]; .param .u32 p; mov.u32 %r1, %tid.x; st.shared.u32 [sb], %r1; st.param.u32 [p], %r1; call.uni f, (p); ret; }
.entry c() { .reg .u32 %r<2>; mov.u32 %r1, %tid.x; st.shared.u32 [g], %r1; ret; }
.entry d() { ret; }
P
got=$("$wc" "$tmp/kshared.ptx" 2>&1 | awk '/^\.kernel/ { k = $2 } /^\.shared/ { printf "%s=%s ", k, $2 }')
[ "$got" = "a=0x100 b=0x64 c=0x4 " ] && pass=$((pass + 1)) || bad kshared "'a=0x100 b=0x64 c=0x4 ' expected, got '$got'"

# 16. .target sm_1x (frontend/mods.c ptx_implied_mods, docs/frontend.md "sm_1x"): ftz_sm13's
#     single precision is translated as with .ftz (FADD FMUL FFMA FMNMX FSETP F2I MUFU .FTZ)
#     but its PTX 1.4 cvt into .s64 and to and from .f64 is not, and .f64 never is; the same
#     PTX as .version 2.0 flushes those cvts too; as .target sm_20 nothing is .FTZ; -dP
#     prints no .ftz (the module's target implies it). PTX 1.3's div.f32, rcp.f32, sqrt.f32
#     are .approx.ftz (MUFU.RCP.FTZ and FMUL.FTZ, MUFU.SQRT.FTZ; no FDIV or FSQRT), printed
#     by -dP as written
count ftz ftz_sm13 'FADD\.FTZ ' 2
count ftz ftz_sm13 'FMUL\.FTZ ' 1
count ftz ftz_sm13 'FFMA\.FTZ ' 1
count ftz ftz_sm13 'FMNMX\.FTZ ' 2
count ftz ftz_sm13 'FSETP\.[A-Z]+\.FTZ\.AND ' 8
count ftz ftz_sm13 'F2I\.S32\.F32\.FTZ\.' 2
count ftz ftz_sm13 'MUFU\.[A-Z0-9]+\.FTZ ' 3
count ftz ftz_sm13 'F2I\.S64\.F32\.CEIL ' 1
count ftz ftz_sm13 'F2F\.F64\.F32 ' 1
count ftz ftz_sm13 'F2F\.F32\.F64\.RN ' 1
count ftz ftz_sm13 'D[A-Z]+\.FTZ' 0
sed 's/^\.version 1\.4/.version 2.0/' "$top/tests/ptx/ftz_sm13.ptx" > "$tmp/ftz20.ptx"
"$wc" "$tmp/ftz20.ptx" > "$tmp/ftz20.sass" 2>&1 || bad "ftz20" "$(head -2 "$tmp/ftz20.sass")"
count ftz ftz20 'F2I\.S64\.F32\.FTZ\.CEIL ' 1
count ftz ftz20 'F2F\.F64\.F32\.FTZ ' 1
count ftz ftz20 'F2F\.F32\.F64\.FTZ\.RN ' 1
sed 's/^\.target sm_13/.target sm_20/' "$tmp/ftz20.ptx" > "$tmp/ftz20b.ptx"
"$wc" "$tmp/ftz20b.ptx" > "$tmp/ftz20b.sass" 2>&1 || bad "ftz20b" "$(head -2 "$tmp/ftz20b.sass")"
count ftz ftz20b 'FTZ' 0
got=$("$wc" -dP "$top/tests/ptx/ftz_sm13.ptx" | grep -c '\.ftz')
[ "$got" = 0 ] && pass=$((pass + 1)) || bad ftz "-dP of ftz_sm13: no .ftz expected, $got lines with one"
cat > "$tmp/ptx13.ptx" <<'P'
.version 1.3
.target sm_10, map_f64_to_f32
.entry k
{
	.reg .u64 %rd<2>;
	.reg .f32 %f<6>;
	.param .u64 p;
	ld.param.u64 %rd1, [p];
	ld.global.f32 %f1, [%rd1];
	ld.global.f32 %f2, [%rd1+4];
	div.f32 %f3, %f1, %f2;
	rcp.f32 %f4, %f3;
	sqrt.f32 %f5, %f4;
	st.global.f32 [%rd1+8], %f5;
	exit;
}
P
"$wc" "$tmp/ptx13.ptx" > "$tmp/ptx13.sass" 2>&1 || bad "ptx13" "$(head -2 "$tmp/ptx13.sass")"
count ftz ptx13 'MUFU\.RCP\.FTZ ' 2
count ftz ptx13 'FMUL\.FTZ ' 1
count ftz ptx13 'MUFU\.SQRT\.FTZ ' 1
count ftz ptx13 'F(DIV|SQRT)' 0
got=$("$wc" -dP "$tmp/ptx13.ptx" | grep -cE '^	(div|rcp|sqrt)\.f32	')
[ "$got" = 3 ] && pass=$((pass + 1)) || bad ftz "-dP of a PTX 1.3 div.f32, rcp.f32, sqrt.f32: 3 printed as written expected, $got"

# -d under --func-params callers: one dump per function a kernel translates (func_params's two
# kernels reach 3 and 2), not one per round of the parameters' fixed point
got=$("$wc" --config "$top/sim/configs/kepler.cfg" -dG "$top/tests/ptx/func_params.ptx" 2>&1 >/dev/null |
	grep -c 'after cfg')
[ "$got" = 5 ] && pass=$((pass + 1)) || bad func_params "-dG: 5 dumps expected, $got"

# 16. fns (isel_bits.c): clang's two forms in Samples' binaryPartitionCG (a register base and
#     offset -17, base 0 and offset 32) and an upward one from a register base, each ptxas
#     11.8's branch-free binary search (4 POPC, 11 guarded instructions): no branch, and 111
#     instructions with kepler.cfg's settings, as many as ptxas's listing of the same kernel
#     (120 less its MOV R1, its closing BRA and 7 NOPs)
cat > "$tmp/fnsk.ptx" <<'P'
.version 7.8
.target sm_35
.address_size 64
.visible .entry fnsk(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.global.u32 %r1, [%rd1];
	mov.u32 %r2, %laneid;
	fns.b32 %r3, %r1, %r2, -17;
	fns.b32 %r4, %r1, 0, 32;
	fns.b32 %r5, %r1, %r2, 5;
	st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r1};
	ret;
}
P
"$wc" --config "$top/sim/configs/kepler.cfg" "$tmp/fnsk.ptx" > "$tmp/fnsk.sass" 2>&1 || bad fns "$(head -2 "$tmp/fnsk.sass")"
count fns fnsk '(@!?P[0-6] )?BRA' 0
count fns fnsk 'POPC ' 12
count fns fnsk '@!?P[0-6] ' 33
count fns fnsk '[@A-Z]' 111

echo "run-backend: $pass passed, $pend pending, $fail failed"
[ $fail = 0 ]
