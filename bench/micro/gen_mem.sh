#!/bin/sh
# gen_mem.sh DIR - the memory microbenchmarks of bench/micro: writes one NAME.ptx each into DIR
# and appends "NAME THREADS OPS lat" to DIR/list (calib.sh and tests/run-micro.sh run it after
# gen.sh). Every kernel is written the way the papers wrote their CUDA (Mei and Chu 2017, Jia
# et al. 2018, Arafa et al. 2019): the data set up by the kernel, a warm-up, %clock, a chain of
# N operations in which each one's address or operand is the previous one's result (a pointer
# chase), %clock, and start, end and the chain's value stored to out[3 tid ..]. measure.sh
# turns max(end) - min(start) into cycles per operation. The pointer chases store addresses, not indices, so a
# step is one load and nothing else (as Jia et al. chase in SASS): what they time is the load.
#   lat_lds            one thread, a shared word that holds its own address
#   lat_lds_cK         one warp, lane t on word t*K: a K-way bank conflict (K = 1..32)
#   lat_sts_cK         one warp, N stores on word t*K: cycles per store instruction (nothing
#                      waits for a store, so this is its issue cost, K bank passes)
#   lat_gld_ca/cg/nc   as lat_gld_l1 (S = 128) with ld.global.ca / .cg / .nc: the cache each
#                      operator goes through (--cache-OP), hit after the warm-up passes
#   lat_ldl_l1         one thread chases a ring of 32 words in its local memory (a hit in L1
#                      when --cache-local is l1)
#   lat_gld_l1/l2/dram one thread chases 32 pointers S bytes apart in buf after two passes
#                      that bring them in (the first %clock does not wait for the last warm-up
#                      load, so that load is timed too and must hit where the others do):
#                      S = 128 (4 KB, fits any L1); 4096 (one set of a 16 KB 4-way L1 of 128 B
#                      lines: every pass misses L1 and hits L2); 98304 (one set of the L2 of
#                      fermi.cfg and of kepler.cfg, 768 sets of 128 B each: 32 lines in 8 or 16
#                      ways miss every time, so every load goes to DRAM)
#   lat_ldc_uni/div    one warp chases a .const table, every lane at one word / its own word
#   lat_atom_{g,s}_{uni,div}  one warp, atom.add whose operand is the previous result: every
#                      lane on one word (contention) / each on its own word
#   lat_bar_w1/w32     N bar.sync in a CTA of 1 / 32 warps: cycles per barrier
set -e
D=$1
[ -n "$D" ] || { echo "usage: gen_mem.sh DIR" >&2; exit 2; }
mkdir -p "$D"
N=32

. "$(dirname "$0")/lib.sh"

# timed K TEXT SINK: K copies of TEXT as a warm-up, %clock, N copies, then lib.sh's tail with
# SINK (the chain's value into %r12, after the second clock)
timed() {
	rep "$1" "$2"
	printf '\tmov.u32 %%r10, %%clock;\n'
	rep $N "$2"
	tail %r12 "$3"
}

# ---------------------------------------------------------------- shared memory
# shared NAME THREADS K OP: lane t's word is t*K of a 4 KB array that holds its own address
shared() {
	{
		head "$1" ".shared .align 4 .b32 sm[1024];"
		cat <<S
	mov.u32 %r3, sm;
	mul.lo.u32 %r4, %r2, $(($3 * 4));
	add.u32 %r3, %r3, %r4;
	st.shared.u32 [%r3], %r3;
	bar.sync 0;
S
		timed 2 "$4" "mov.u32 %r12, %r3;"
	} >"$D/$1.ptx"
	add "$1" "$2" $N lat
}
shared lat_lds 1 1 "ld.shared.u32 %r3, [%r3];"
for k in 1 2 4 8 16 32; do
	shared "lat_lds_c$k" 32 $k "ld.shared.u32 %r3, [%r3];"
done
for k in 1 2 4 8 16 32; do
	shared "lat_sts_c$k" 32 $k "st.shared.u32 [%r3], %r2;"
done

# ---------------------------------------------------------------- global memory
# global NAME STRIDE [COP]: a ring of 32 pointers STRIDE bytes apart, built by the one thread,
# chased by ld.global.COP (ca, cg, nc; none: plain ld.global, which is .ca)
global() {
	{
		head "$1" ""
		i=0
		while [ $i -lt 32 ]; do
			printf '\tadd.u64 %%rd4, %%rd3, %d;\n\tadd.u64 %%rd5, %%rd3, %d;\n\tst.global.u64 [%%rd4], %%rd5;\n' \
				$((i * $2)) $((((i + 1) % 32) * $2))
			i=$((i + 1))
		done
		printf '\tmov.u64 %%rd6, %%rd3;\n'
		timed 64 "ld.global${3:+.$3}.u64 %rd6, [%rd6];" "cvt.u32.u64 %r12, %rd6;"
	} >"$D/$1.ptx"
	add "$1" 1 $N lat
}
global lat_gld_l1 128
global lat_gld_l2 4096
global lat_gld_dram 98304
global lat_gld_ca 128 ca
global lat_gld_cg 128 cg
global lat_gld_nc 128 nc

# lcl NAME: a ring of 32 words of the thread's local memory, each holding the local address
# of the next (consecutive words: the hardware interleaves local memory per lane, so one
# thread's words are 128 bytes apart, 32 lines that fit any L1)
lcl() {
	{
		head "$1" ""
		cat <<L
	.local .align 4 .b32 ring[32];
	mov.u32 %r3, ring;
L
		i=0
		while [ $i -lt 32 ]; do
			printf '\tadd.u32 %%r4, %%r3, %d;\n\tadd.u32 %%r5, %%r3, %d;\n\tst.local.u32 [%%r4], %%r5;\n' \
				$((i * 4)) $((((i + 1) % 32) * 4))
			i=$((i + 1))
		done
		timed 64 "ld.local.u32 %r3, [%r3];" "mov.u32 %r12, %r3;"
	} >"$D/$1.ptx"
	add "$1" 1 $N lat
}
lcl lat_ldl_l1

# ---------------------------------------------------------------- constant memory
# constant NAME LANESTEP: a table of 32 words each holding its own address (the module's only
# .const variable, at 0 in its bank); lane t starts at word t*LANESTEP/4
constant() {
	tab=$(i=0; while [ $i -lt 32 ]; do printf '%s%d' "${i:+, }" $((i * 4)); i=$((i + 1)); done | sed 's/^, //')
	{
		head "$1" ".const .align 4 .u32 ctab[32] = {$tab};"
		printf '\tmul.lo.u32 %%r3, %%r2, %d;\n' "$2"
		timed 2 "ld.const.u32 %r3, [%r3];" "mov.u32 %r12, %r3;"
	} >"$D/$1.ptx"
	add "$1" 32 $N lat
}
constant lat_ldc_uni 0
constant lat_ldc_div 4

# ---------------------------------------------------------------- atomics
# atomg NAME LANESTEP / atoms NAME LANESTEP: lane t adds to word t*LANESTEP/4
atomg() {
	{
		head "$1" ""
		printf '\tmul.wide.u32 %%rd4, %%r2, %d;\n\tadd.u64 %%rd4, %%rd3, %%rd4;\n\tmov.u32 %%r3, 1;\n' "$2"
		timed 2 "atom.global.add.u32 %r3, [%rd4], %r3;" "mov.u32 %r12, %r3;"
	} >"$D/$1.ptx"
	add "$1" 32 $N lat
}
atoms() {
	{
		head "$1" ".shared .align 4 .b32 sm[32];"
		cat <<S
	mov.u32 %r4, sm;
	mul.lo.u32 %r5, %r2, $2;
	add.u32 %r4, %r4, %r5;
	mov.u32 %r3, 0;
	st.shared.u32 [%r4], %r3;
	bar.sync 0;
	mov.u32 %r3, 1;
S
		timed 2 "atom.shared.add.u32 %r3, [%r4], %r3;" "mov.u32 %r12, %r3;"
	} >"$D/$1.ptx"
	add "$1" 32 $N lat
}
atomg lat_atom_g_uni 0
atomg lat_atom_g_div 4
atoms lat_atom_s_uni 0
atoms lat_atom_s_div 4

# ---------------------------------------------------------------- bar.sync
bar() {
	{
		head "$1" ""
		timed 2 "bar.sync 0;" "mov.u32 %r12, %r2;"
	} >"$D/$1.ptx"
	add "$1" "$2" $N lat
}
bar lat_bar_w1 32
bar lat_bar_w32 1024
