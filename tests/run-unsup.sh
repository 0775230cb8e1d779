#!/bin/sh
# run-unsup.sh - valid PTX that warpsim does not support stops only the kernels that reach it
# (tests/unsup/): warpc --parse-only warns and succeeds; translating or running a kernel that
# reaches such an instruction (itself or through a call) fails with the located
# "unsupported: ..." error, on the translator and on the oracle; the module's other kernels
# translate and run, and the SM model agrees with the oracle on them.
BIN=${BIN:-bin}
here=$(cd "$(dirname "$0")" && pwd)
M=$here/unsup/mixed.ptx
tmp=$(mktemp -d "${TMPDIR:-/tmp}/unsup.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
name=run-unsup
. "$here/expect.sh"
U="error: unsupported: instruction"
# stopped PATTERN FILE KERNEL LAUNCH...: the oracle and the SM model each stop KERNEL with
# exit status 1 and PATTERN on stderr
stopped() {
	sp=$1 sf=$2 sk=$3; shift 3
	expect 1 "$sp" "$BIN/warpsim" --quiet --oracle "$sf" --kernel "$sk" "$@"
	expect 1 "$sp" "$BIN/warpsim" --quiet "$sf" --kernel "$sk" "$@"
}
# agree FILE KERNEL ARG LAUNCH...: KERNEL runs on the oracle and on the SM model, and buffer
# argument ARG is the same after both (the SM model's in $tmp/s.bin)
agree() {
	af=$1 ak=$2 aa=$3; shift 3
	expect 0 "" "$BIN/warpsim" --quiet --oracle "$af" --kernel "$ak" "$@" --out "$aa:$tmp/o.bin"
	expect 0 "" "$BIN/warpsim" --quiet "$af" --kernel "$ak" "$@" --out "$aa:$tmp/s.bin"
	cmp -s "$tmp/o.bin" "$tmp/s.bin" && ok || bad "kernel $ak (${af##*/}): the SM model and the oracle differ"
}
expect 0 "mixed.ptx:14:2: warning: unsupported: instruction 'tex'.*cannot be translated or run" \
	"$BIN/warpc" --parse-only "$M"
expect 0 "mixed.ptx:39:2: warning: unsupported: instruction 'ldmatrix'" "$BIN/warpc" --parse-only "$M"
expect 0 "" "$BIN/warpc" --kernel good "$M"
grep -q "^.kernel good" "$tmp/out" && ok || bad "warpc --kernel good printed no listing"
expect 1 "mixed.ptx:39:2: $U 'ldmatrix'.*in kernel 'direct'" "$BIN/warpc" --kernel direct "$M"
expect 1 "mixed.ptx:14:2: $U 'tex'.*kernel 'viacall' reaches 'helper'" "$BIN/warpc" --kernel viacall "$M"
expect 1 "$U" "$BIN/warpc" "$M"
expect 1 "unsupported_ins.ptx:10:2: $U 'ldmatrix'" "$BIN/warpc" "$here/unsup/unsupported_ins.ptx"
# the engines: good runs and agrees; the others stop with the located message
L="--grid 1 --block 32 --arg buf:u32:32:zero"
agree "$M" good 0 $L
expect 1 "mixed.ptx:39:2: $U 'ldmatrix'.*in kernel 'direct'" "$BIN/warpsim" --quiet --oracle "$M" --kernel direct $L
stopped "mixed.ptx:14:2: $U 'tex'" "$M" viacall $L
# textures (tests/unsup/tex_forms.ptx): a multisample fetch, an independent sampler, a layered
# tld4, a cube tld4, a txq at a level of detail and a layered tex.level stop their own
# kernel, on the translator, the oracle and the SM model; the plain fetch of the same module
# translates and runs alike on both engines
X=$here/unsup/tex_forms.ptx
XL="--grid 1 --block 1 --arg buf:f32:1:zero --tex img:f32:2x2:iota"
expect 0 "" "$BIN/warpc" --kernel fetch "$X"
expect 1 "tex_forms.ptx:26:2: $U 'tex' with a multisample geometry" "$BIN/warpc" --kernel ms "$X"
expect 1 "tex_forms.ptx:33:2: $U 'tex' with an independent sampler" "$BIN/warpc" --kernel sampler "$X"
expect 1 "tex_forms.ptx:42:2: $U 'tld4' with a layered or cube geometry" "$BIN/warpc" --kernel gatherarray "$X"
expect 1 "tex_forms.ptx:49:2: $U 'tld4' with a layered or cube geometry" "$BIN/warpc" --kernel gathercube "$X"
expect 1 "tex_forms.ptx:56:2: $U 'txq' with a level of detail" "$BIN/warpc" --kernel query "$X"
expect 1 "tex_forms.ptx:64:2: $U 'tex' with an explicit level of detail on a layered or cube geometry" "$BIN/warpc" --kernel levelarray "$X"
for k in ms sampler gatherarray gathercube query levelarray; do
	stopped "$U '(tex|tld4|txq|suld|sust)' (with|of)" "$X" $k $XL
done
agree "$X" fetch 0 $XL
# texel (1, 1) of iota 0..3 is 3.0
[ "$(od -An -tf4 "$tmp/s.bin" | tr -d ' ')" = 3 ] && ok || bad "kernel fetch: texel (1,1) is not 3"
# dynamic parallelism (tests/unsup/cdp.ptx): the kernel that calls cudaDeviceSynchronize is
# refused by the translator and stopped by the oracle, the module's other kernel translates and
# runs on both engines (calls to an .extern without a body otherwise translate: tests/ptx/
# call_extern)
N=$here/unsup/cdp.ptx
NL="--grid 1 --block 1 --arg u64:0 --arg buf:u32:1:zero"
C="unsupported: call .*'cudaDeviceSynchronize': a kernel's wait for its child grids .dynamic parallelism. is not simulated"
expect 1 "cdp.ptx:20:2: error: $C" "$BIN/warpc" --kernel launcher "$N"
stopped "cdp.ptx:20:2: error: $C" "$N" launcher $NL
expect 0 "" "$BIN/warpc" --kernel other "$N"
agree "$N" other 1 $NL
[ "$(od -An -tu4 "$tmp/s.bin" | tr -d ' ')" = 7 ] && ok || bad "kernel other did not store 7"
# %envreg0 (tests/unsup/envreg.ptx; only %envreg1/%envreg2, a cooperative launch's grid
# workspace, have a value): its kernel is refused by the translator and both engines, naming
# the construct; the other kernel runs
E=$here/unsup/envreg.ptx
EL="--grid 1 --block 1 --arg buf:u32:2:zero"
G="unsupported: %envreg0.*meaning is not documented; warpsim gives only %envreg1 and %envreg2, the grid workspace"
expect 1 "envreg.ptx:16:16: error: $G" "$BIN/warpc" --kernel gridsync "$E"
expect 1 "envreg.ptx:16:.*$G" "$BIN/warpsim" --quiet --oracle "$E" --kernel gridsync $EL
expect 1 "envreg.ptx:16:16: error: $G" "$BIN/warpsim" --quiet "$E" --kernel gridsync $EL
agree "$E" other 0 $EL
# a misaligned kernel-parameter read (tests/unsup/param_misaligned.ptx; undefined in the PTX
# ISA): a located error of the translator and of the oracle; the other kernel runs
A=$here/unsup/param_misaligned.ptx
AL="--grid 1 --block 1 --arg u32:7 --arg buf:u32:1:zero"
expect 1 "param_misaligned.ptx:13:2: error: misaligned 4-byte access to the kernel parameters at byte 1" \
	"$BIN/warpc" --kernel odd "$A"
expect 1 "param_misaligned.ptx:13:2: error: misaligned 4-byte param access" \
	"$BIN/warpsim" --quiet --oracle "$A" --kernel odd $AL
expect 1 "param_misaligned.ptx:13:2: error: misaligned 4-byte access to the kernel parameters" \
	"$BIN/warpsim" --quiet "$A" --kernel odd $AL
expect 0 "" "$BIN/warpsim" --quiet "$A" --kernel even $AL --out "1:$tmp/ae.bin"
[ "$(od -An -tu4 "$tmp/ae.bin" | tr -d ' ')" = 7 ] && ok || bad "kernel even did not store 7"
# 16-bit atomics (tests/unsup/atom16.ptx): add.noftz on .f16 runs alike on both engines (a
# compare-and-swap loop on the word in the SM model); atom.cas.b16 and an add on .f16 without
# .noftz stop their own kernel on the translator and on both engines (before, the translator
# made them 32-bit atomics)
H=$here/unsup/atom16.ptx
HL="--grid 1 --block 1 --arg buf:u16:2:const:0"
agree "$H" half 0 $HL
[ "$(od -An -tx2 "$tmp/s.bin" | tr -d ' ')" = 00003c00 ] && ok || bad "kernel half: not 0 returned, 1.0 stored"
expect 1 "atom16.ptx:25:2: error: unsupported: atom: a 16-bit atomic other than add.noftz" "$BIN/warpc" --kernel cas16 "$H"
stopped "atom16.ptx:25:2: error: unsupported: (atom: a 16-bit atomic|.b16 atomics)" "$H" cas16 $HL
expect 1 "atom16.ptx:36:2: error: unsupported: atom: an atomic on a 16-bit float other than add.noftz" "$BIN/warpc" --kernel ftz "$H"
stopped "atom16.ptx:36:2: error: unsupported: (atom: an atomic on a 16-bit float|atom.add on .f16)" "$H" ftz $HL
echo "run-unsup: $pass passed, $fail failed"
[ $fail = 0 ]
