#!/bin/sh
# run-coop.sh - cooperative launch and grid-wide sync (issue 15), beyond run-diff.sh's buffers
# of tests/ptx/coop_flag and coop_reduce.sm75/sm80 (nvcc's grid.sync()) at every threshold
# and coop_flag.nocoop.stop:
#   1. co-residency: a grid of as many CTAs as the SM model holds at once runs (on both
#      engines, same buffers, the C reference's total); one CTA more is refused before the
#      run, naming the two figures and CUDA's error; the limit follows the occupancy (a
#      bigger block halves it);
#   2. nvcc's own grid.sync() code without --cooperative stops both engines with a located
#      error naming --cooperative;
#   3. the spins are repeatable: two runs of each engine print the same statistics, and
#      --functional and --threads 2 leave the timed run's buffers; the SM model counts one
#      atomic per CTA and grid sync (6 CTAs x 6 syncs = 36 in coop_flag);
#   4. %envreg0 and the other undocumented envregs stay unsupported (run-unsup.sh);
#   5. an sm_35 listing reads the workspace's address from bank 0 as ptxas 11.8's code does
#      (c[0x0][0x50] the high word, %envreg1; c[0x0][0x54] the low, %envreg2): the same words
#      and wsSize as the PTX's %envreg1/%envreg2 on both engines; without --cooperative the
#      words are 0 and the load through them faults, located.
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-coop.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
top=$(pwd)
W=$top/$BIN/warpsim
case $BIN in /*) W=$BIN/warpsim ;; esac
R=$top/tests/ptx/coop_reduce.sm75.ptx
F=$top/tests/ptx/coop_flag.ptx

# rlaunch GRID BLOCK: coop_reduce's launch for GRID CTAs of BLOCK threads
rlaunch() {
	echo "--kernel coop_reduce --grid $1 --block $2 --arg buf:s32:5000:random:7:-1000:1000"
	echo "--arg buf:s32:$1:zero --arg buf:s32:1:zero --arg buf:s32:$(($1 * $2)):zero --arg s32:5000"
}

# ---- 1. co-residency
cd "$T" || exit 1
"$W" --quiet "$R" $(rlaunch 100000 128) --cooperative >big.out 2>big.err
rc=$?
lim=$(sed -n 's/.* x [0-9]* SMs = \([0-9]*\) (CUDA: cudaErrorCooperativeLaunchTooLarge)$/\1/p' big.err)
if [ $rc = 1 ] && [ -n "$lim" ] && grep -q "kernel 'coop_reduce': --cooperative: a grid of 100000 CTAs cannot be co-resident: at most" big.err; then ok
else bad "a grid of 100000 CTAs was not refused as too large (exit $rc): $(head -2 big.err)"; lim=1; fi
for e in --oracle ""; do
	# shellcheck disable=SC2046
	if "$W" --quiet $e "$R" $(rlaunch "$lim" 128) --cooperative --out "2:t$e.txt" >/dev/null 2>"e$e.err"; then ok
	else bad "a cooperative grid of $lim CTAs (the limit) failed on '$e': $(head -2 "e$e.err")"; fi
done
cmp -s t--oracle.txt t.txt && ok || bad "the engines' totals differ at $lim CTAs"
"$top/$BUILD/tests/tools/cref" coop_reduce $(rlaunch "$lim" 128) --out 2:tref.txt >/dev/null 2>&1
[ -s tref.txt ] && cmp -s tref.txt t.txt && ok || bad "the total at $lim CTAs is not the C reference's"
"$W" --quiet "$R" $(rlaunch $((lim + 1)) 128) --cooperative >/dev/null 2>over.err
rc=$?
[ $rc = 1 ] && grep -q "a grid of $((lim + 1)) CTAs cannot be co-resident: at most .* = $lim (CUDA" over.err && ok ||
	bad "one CTA above the limit ($((lim + 1))) was not refused (exit $rc): $(head -2 over.err)"
"$W" --quiet "$R" $(rlaunch 100000 1024) --cooperative >/dev/null 2>big2.err
lim2=$(sed -n 's/.* x [0-9]* SMs = \([0-9]*\) (CUDA: cudaErrorCooperativeLaunchTooLarge)$/\1/p' big2.err)
[ -n "$lim2" ] && [ "$lim2" -lt "$lim" ] && ok || bad "1024-thread CTAs did not lower the limit ($lim2 vs $lim)"

# ---- 2. nvcc's code without --cooperative
for e in --oracle --functional ""; do
	# shellcheck disable=SC2046
	"$W" --quiet $e "$R" $(rlaunch 6 128) >/dev/null 2>n.err
	rc=$?
	if [ $rc = 1 ] && grep -q "envreg[12].* reads the grid workspace of cooperative groups .*only a cooperative launch has (cudaLaunchCooperativeKernel; warpsim --cooperative)" n.err; then ok
	else bad "coop_reduce without --cooperative on '$e' (exit $rc): $(head -2 n.err)"; fi
done

# ---- 3. repeatable spins
for i in 1 2; do
	"$W" --oracle "$F" --launch "$top/tests/ptx/coop_flag.launch" >"o$i.txt" 2>&1
	"$W" --quiet "$F" --launch "$top/tests/ptx/coop_flag.launch" --stats-json "s$i.json" >/dev/null 2>&1
	cp coop_flag_b.out "b$i.out"
done
cmp -s o1.txt o2.txt && grep -q "6 CTAs, 72 barriers" o1.txt && ok || bad "the oracle's runs of coop_flag differ or miss its 72 barriers: $(cat o1.txt)"
cmp -s s1.json s2.json && ok || bad "the SM model's statistics of coop_flag differ between two runs"
grep -q '"gpgpu_n_mem_atomic": 36,' s1.json && ok || bad "coop_flag: not 36 atomics: $(grep atomic s1.json)"
for m in --functional "--threads 2"; do
	# shellcheck disable=SC2086
	"$W" --quiet "$F" --launch "$top/tests/ptx/coop_flag.launch" $m >/dev/null 2>m.err &&
		cmp -s coop_flag_b.out b1.out && ok || bad "coop_flag under '$m' differs: $(head -2 m.err)"
done

# ---- 5. the envreg words of bank 0 in an sm_35 listing
cat >env.sass <<'EOF'
.kernel envws
.arch sm_35
.layout sm_35
.registers 8
.param 0x140 8
        MOV R2, c[0x0][0x140];
        MOV R3, c[0x0][0x144];
        MOV R6, c[0x0][0x54];
        MOV R7, c[0x0][0x50];
        LD.E R4, [R6];
        ST.E [R2], R7;
        ST.E [R2+0x4], R6;
        ST.E [R2+0x8], R4;
        EXIT;
EOF
cat >env.ptx <<'EOF'
.version 7.0
.target sm_35
.address_size 64
.visible .entry envws(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %envreg1;
	mov.u32 %r2, %envreg2;
	mov.b64 %rd2, {%r2, %r1};
	ld.global.u32 %r3, [%rd2];
	st.global.u32 [%rd1], %r1;
	st.global.u32 [%rd1+4], %r2;
	st.global.u32 [%rd1+8], %r3;
	ret;
}
EOF
el="--grid 1 --block 1 --arg buf:u32:3:zero --quiet"
# shellcheck disable=SC2086
"$W" --oracle env.ptx $el --cooperative --out 0:env-o.txt >/dev/null 2>&1
# shellcheck disable=SC2086
"$W" env.ptx $el --cooperative --out 0:env-p.txt >/dev/null 2>&1
# shellcheck disable=SC2086
"$W" env.sass $el --cooperative --out 0:env-s.txt >/dev/null 2>env.err
if [ "$(sed -n 3p env-o.txt)" = 8 ] && [ "$(head -n 1 env-o.txt)" != 0 ] &&
   cmp -s env-o.txt env-p.txt && cmp -s env-o.txt env-s.txt; then ok
else bad "the listing's c[0x0][0x50], c[0x0][0x54] are not the PTX's %envreg1, %envreg2: $(cat env-s.txt env.err 2>/dev/null | tr '\n' ' ') against $(tr '\n' ' ' <env-o.txt)"; fi
# shellcheck disable=SC2086
"$W" env.sass $el >/dev/null 2>env.err
rc=$?
[ $rc = 1 ] && grep -q "env.sass:10: error: global load of 4 bytes at 0x0000000000000000 is outside every allocation" env.err && ok ||
	bad "the listing without --cooperative did not fault at its load through the zero words (exit $rc): $(head -n 1 env.err)"

echo "run-coop: $pass passed, $fail failed"
[ "$fail" = 0 ]
