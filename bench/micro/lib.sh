# lib.sh - the pieces every bench/micro generator (gen.sh, gen_mem.sh, ...) writes its
# kernels with; sourced after D (the output directory) is set. ACC: the independent
# accumulators a throughput kernel declares (8 unless the generator says otherwise).
ACC=${ACC:-8}

# head NAME EXTRA-DECLS: the kernel's opening, this thread's out pointer in %rd1, a in %r1
head() {
	cat <<H
// bench/micro/$1.ptx - written by bench/micro/$(basename "$0") (see there); do not edit
.version 7.8
.target sm_35
.address_size 64
$2
.visible .entry $1(.param .u64 out, .param .u32 a, .param .u64 buf)
{
	.reg .pred %p<8>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<16>;
	.reg .f32 %f<16>;
	.reg .f64 %fd<16>;
	.reg .b32 %x<$ACC>;
	.reg .f32 %y<$ACC>;
	.reg .f64 %z<$ACC>;
	.reg .b32 %xc;
	.reg .f32 %yc;
	.reg .f64 %zc;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u64 %rd3, [buf];
	cvta.to.global.u64 %rd3, %rd3;
	ld.param.u32 %r1, [a];
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd2, %r2, 12;
	add.u64 %rd1, %rd1, %rd2;
H
}

# tail SINK [INSTR]: the second clock, INSTR (an instruction that makes SINK from the chain's
# value: after the clock, so that the clock does not wait for the chain's last result and a
# chain of N dependent operations spans N latencies), the stores, the end
tail() {
	printf '\tmov.u32 %%r11, %%clock;\n'
	[ -z "$2" ] || printf '\t%s\n' "$2"
	stores "$1"
}

# stores SINK: the stores and the end, the second clock already read into %r11
stores() {
	cat <<T
	st.global.u32 [%rd1], %r10;
	st.global.u32 [%rd1+4], %r11;
	st.global.u32 [%rd1+8], $1;
	ret;
}
T
}

# rep K TEXT: TEXT K times, one line each
rep() {
	i=0
	while [ $i -lt "$1" ]; do printf '\t%s\n' "$2"; i=$((i + 1)); done
}

# add NAME THREADS OPS UNIT [OPTIONS]: a line of the list
add() {
	echo "$*" >>"$D/list"
}
