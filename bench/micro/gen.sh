#!/bin/sh
# gen.sh DIR - writes the microbenchmarks of bench/micro as PTX kernels into DIR, one NAME.ptx
# each, and DIR/list: "NAME THREADS OPS UNIT [warpsim options]" per benchmark. Every kernel is
# written the way the papers wrote their CUDA (Arafa et al. 2019, Jia et al. 2018, Mei and Chu
# 2017, Wong et al. 2010): a warm-up, %clock, a chain of OPS operations per thread (dependent
# for a latency, independent accumulators for a throughput), %clock, and each thread stores
# its start, its end and the chain's result to out[3 tid .. 3 tid + 2] so that nothing is dead.
# A latency kernel reads its second clock after an instruction that waits for the chain's last
# result; a throughput kernel reads it as soon as its chains are issued, as the papers' loops
# do, and folds its accumulators into the stored result after it (that fold, a dependent
# chain of 8 adds per thread, is not the throughput being measured).
# measure.sh turns max(end) - min(start) into cycles per operation or operations per cycle.
set -e
D=$1
[ -n "$D" ] || { echo "usage: gen.sh DIR" >&2; exit 2; }
mkdir -p "$D"
: >"$D/list"
N=32            # operations in a timed dependent chain
ACC=8           # independent accumulators of a throughput kernel
U=32            # operations per accumulator
TT=1024         # threads of a throughput kernel (one CTA on one SM)

. "$(dirname "$0")/lib.sh"

# arithmetic: lat/thr NAME TYPE OP (OP reads and writes X, reads Y; TYPE b32, f32 or f64)
init_of() {
	case $1 in
	b32) echo "mov.b32 X, %r1;";;
	f32) echo "cvt.rn.f32.u32 X, %r1;";;
	f64) echo "cvt.rn.f64.u32 X, %r1;";;
	esac
}
sink_of() {
	case $1 in
	b32) echo "mov.b32 %r12, X;";;
	f32) echo "mov.b32 %r12, X;";;
	f64) echo "cvt.rzi.u32.f64 %r12, X;";;
	esac
}
reg_of() {
	case $1 in b32) echo x;; f32) echo y;; f64) echo z;; esac
}
lat() {
	n=$1 t=$2 op=$3 r=%$(reg_of "$2")0 y=%$(reg_of "$2")c
	{
		head "lat_$n" ""
		printf '\t%s\n' "$(init_of "$t" | sed "s/X/$r/")" "$(init_of "$t" | sed "s/X/$y/")"
		rep 4 "$(echo "$op" | sed "s/X/$r/g; s/Y/$y/g")"
		printf '\tmov.u32 %%r10, %%clock;\n'
		rep $N "$(echo "$op" | sed "s/X/$r/g; s/Y/$y/g")"
		tail %r12 "$(sink_of "$t" | sed "s/X/$r/")"
	} >"$D/lat_$n.ptx"
	add "lat_$n" 1 $N lat
}
thr() {
	n=$1 t=$2 op=$3 c=$(reg_of "$2")
	{
		head "thr_$n" ""
		printf '\t%s\n' "$(init_of "$t" | sed "s/X/%${c}c/")"
		j=0
		while [ $j -lt $ACC ]; do
			printf '\t%s\n' "$(init_of "$t" | sed "s/X/%$c$j/")"; j=$((j + 1))
		done
		printf '\tbar.sync 0;\n\tmov.u32 %%r10, %%clock;\n'
		i=0
		while [ $i -lt $U ]; do
			j=0
			while [ $j -lt $ACC ]; do
				printf '\t%s\n' "$(echo "$op" | sed "s/X/%$c$j/g; s/Y/%${c}c/g")"; j=$((j + 1))
			done
			i=$((i + 1))
		done
		printf '\tmov.u32 %%r11, %%clock;\n\tmov.u32 %%r13, 0;\n'
		j=0
		while [ $j -lt $ACC ]; do
			printf '\t%s\n\tadd.u32 %%r13, %%r13, %%r12;\n' "$(sink_of "$t" | sed "s/X/%$c$j/")"; j=$((j + 1))
		done
		stores %r13
	} >"$D/thr_$n.ptx"
	add "thr_$n" $TT $((ACC * U)) thr
}

# ---------------------------------------------------------------- arithmetic
for m in lat thr; do
	$m iadd b32 "add.u32 X, X, Y;"
	$m imul b32 "mul.lo.u32 X, X, Y;"
	$m imad b32 "mad.lo.u32 X, X, Y, Y;"
	$m and b32 "and.b32 X, X, Y;"
	$m shl b32 "shl.b32 X, X, Y;"
	$m popc b32 "popc.b32 X, X;"
	$m fadd f32 "add.f32 X, X, Y;"
	$m fmul f32 "mul.f32 X, X, Y;"
	$m ffma f32 "fma.rn.f32 X, X, Y, Y;"
	$m dadd f64 "add.f64 X, X, Y;"
	$m dfma f64 "fma.rn.f64 X, X, Y, Y;"
	$m sin f32 "sin.approx.f32 X, X;"
	$m cos f32 "cos.approx.f32 X, X;"
	$m ex2 f32 "ex2.approx.f32 X, X;"
	$m lg2 f32 "lg2.approx.f32 X, X;"
	$m rcp f32 "rcp.approx.f32 X, X;"
	$m rsqrt f32 "rsqrt.approx.f32 X, X;"
	$m cvt f32 "cvt.rni.f32.f32 X, X;"
done
lat fdiv f32 "div.rn.f32 X, X, Y;"
lat sqrt f32 "sqrt.rn.f32 X, X;"
lat shfl b32 "shfl.sync.idx.b32 X, X, 0, 31, 0xffffffff;"
thr shfl b32 "shfl.sync.idx.b32 X, X, 0, 31, 0xffffffff;"
