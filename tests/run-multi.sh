#!/bin/sh
# run-multi.sh - several launches in one run, sharing device memory (docs/warpsim.md, "Several
# launches"): each --kernel after the first starts a launch, --buf NAME=... declares a buffer
# of the run that later launches pass as --arg buf:NAME, module variables, the device heap
# and --const values live from one launch to the next, --out saves the memory after the last.
#
# tests/ptx/multi/multi.cu (nvcc 13 -arch=sm_75 -ptx: multi.ptx) and its launches: a two-pass
# reduction (reduce), a producer and a consumer over a __device__ variable (produce), a Table
# made with new in one launch, used by two and deleted in a fourth (heap), a __constant__ set
# before one launch and read by the later ones (const), objects with virtual functions made
# in one launch and called in the next (vtable), a texture and a surface bound anew for each
# launch, the surface over a --buf buffer in one (tex, surf). Each leaves the buffers its formula
# gives on the oracle, and the SM model leaves the oracle's bytes at every setting of
# tests/settings.sh (run-diff's thresholds, --functional) and with --threads 2; two launches
# of tests/ptx/cdp_rec (dynamic parallelism) over one buffer. The
# statistics: one table per launch and the total, whose counters are the launches' sums
# (gpu_sim_cycle too: launches on one stream run one after another), launch 1's table equals
# the same kernel's run alone; --stats-json holds the launches and then the total. The
# command-line form (--kernel ... --kernel ...) equals the launch file; a --sweep runs the
# sequence at each point (its cycles the total's, every launch's --out kept). Refusals: a launch
# that does not fit its kernel, an undeclared or twice-declared buffer, an offset past its
# end, a new size for the heap in use, bad --buf syntax, a fault in a later launch (each
# located: the launch file's line, the kernel). The observers of every launch (docs/traces.md,
# "Several launches"): --trace in each format (each launch marked, its cycles continuing, its
# lines its kernel's alone), --line-stats per launch and summed per kernel, --bounds per launch
# and summed, --explore (every kernel's branches, counts summed over launches, the sequence's
# cycles), --report (the launches, every kernel's cards and source). A kernel is its name
# (cli/kernels.c): one kernel launched twice, then another, is numbered alike by every
# observer; two kernels of one name cannot be linked or listed.
#
# env: BIN (warpsim), BUILD (tests/tools/tracecheck)
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
ws=$(cd "$BIN" && pwd)/warpsim
CHK=$(cd "$BUILD" && pwd)/tests/tools/tracecheck
[ -x "$CHK" ] || { echo "run-multi.sh: $CHK is missing: build the test tools first (make tests)" >&2; exit 1; }
dir=$top/tests/ptx/multi
ptx=$dir/multi.ptx
. "$top/tests/verdict.sh"
. "$top/tests/settings.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-multi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 pend=0
pending=/dev/null

# outs LAUNCH: the files its out lines write
outs() {
	sed -n 's/^[[:space:]]*-*out[[:space:]]\{1,\}[A-Za-z0-9_.]*:\(.*\)$/\1/p' "$1"
}

# words FILE: a .bin file's u32 words, one a line; a text file as it is
words() {
	case $1 in
	*.bin) od -An -v -tu4 "$1" | tr -s ' ' '\n' | sed '/^$/d' ;;
	*) cat "$1" ;;
	esac
}

# the formulas of the fixtures' buffers (their launch files say why)
want_reduce_sum() { echo 499500; }
want_reduce_part() { awk 'BEGIN { for (b = 0; b < 4; b++) { s = 0; for (i = b * 256; i < (b + 1) * 256 && i < 1000; i++) s += i; print s } }'; }
want_produce_out() { awk 'BEGIN { for (t = 0; t < 96; t++) print 41904 * (t + 1) + (t % 2 ? 7 : 0) }'; }
want_produce_total() { echo 41904; }
want_heap_r() { awk 'BEGIN { for (t = 0; t < 64; t++) if (t < 50) { i = 49 - t; print 3 * i + (i % 3 ? 0 : 100) + 50 } else print "4294967295" }'; }
want_heap_n() { echo 50; }
want_heap_table() { printf '0\n0\n'; }
want_vtable_out() { awk 'BEGIN { for (t = 0; t < 64; t++) print t % 2 ? 3 * t : t + 5 }'; }
want_vtable_ops() { printf '0\n0\n0\n0\n'; }
want_tex_x() { awk 'BEGIN { for (t = 0; t < 32; t++) print 4 * t }'; }
want_tex_y() { awk 'BEGIN { for (t = 0; t < 32; t++) print 21 + t }'; }
want_surf_p() { awk 'BEGIN { for (t = 0; t < 32; t++) print 100 + t }'; }
want_surf_q() { awk 'BEGIN { for (t = 0; t < 32; t++) print 500 + t }'; }
want_const() { awk -v s="$1" 'BEGIN { for (t = 0; t < 32; t++) print s * t + 1 }'; }
want_const_a() { want_const 3; }
want_const_b() { want_const 3; }
want_const_c() { want_const 5; }
want_const_d() { want_const 5; }

# the oracle against the formulas, the SM model against the oracle --------------------------
for launch in "$dir"/*.launch; do
	name=$(basename "$launch" .launch)
	d=$tmp/$name
	mkdir -p "$d/oracle"
	why=""
	(cd "$d/oracle" && "$ws" --oracle "$ptx" --launch "$launch" --quiet) >"$d/oracle.err" 2>&1 ||
		why="the oracle failed: $(head -1 "$d/oracle.err")"
	for f in $(outs "$launch"); do
		[ -n "$why" ] && break
		b=${f%.*}
		words "$d/oracle/$f" >"$d/got" 2>/dev/null
		"want_${name}_$b" >"$d/want"
		cmp -s "$d/got" "$d/want" || why="$f is not the formula's: $(diff "$d/want" "$d/got" | sed -n 2p)"
	done
	verdict "$name: the oracle's buffers are the formula's" "$why"
	for s in $settings threads; do
		why=""
		mkdir -p "$d/$s"
		if [ "$s" = threads ]; then opts="--threads 2"; else opts=$(popts "$s"); fi
		# shellcheck disable=SC2086
		(cd "$d/$s" && "$ws" $opts "$ptx" --launch "$launch" --quiet) >"$d/$s.err" 2>&1 ||
			why="the SM model failed: $(head -1 "$d/$s.err")"
		for f in $(outs "$launch"); do
			[ -z "$why" ] && ! cmp -s "$d/oracle/$f" "$d/$s/$f" && why="$f differs from the oracle's"
		done
		verdict "$name at $s: the oracle's bytes" "$why"
	done
done

# statistics: a table per launch, then the total ----------------------------------------
d=$tmp/stats
mkdir -p "$d"
why=""
(cd "$d" && "$ws" "$ptx" --launch "$dir/reduce.launch" --stats-json s.json) 2>"$d/table" ||
	why="the run failed: $(head -1 "$d/table")"
heads=$(grep -c '^launch [12]: kernel\|^all 2 launches' "$d/table")
[ -z "$why" ] && [ "$heads" != 3 ] && why="$heads headings, not 3"
# row NAME N: the value of row NAME in the N-th table
row() { awk -v r="$1" -v n="$2" '$1 == "gpu_sim_cycle" { t++ } t == n && $1 == r { print $2; exit }' "$d/table"; }
for r in gpu_sim_cycle gpgpu_n_tot_w_icount gpu_sim_insn ctas stall_barrier dram_bytes; do
	a=$(row $r 1) b=$(row $r 2) c=$(row $r 3)
	[ -z "$why" ] && { [ -z "$a" ] || [ $((a + b)) != "$c" ]; } && why="$r: $a + $b is not the total's $c"
done
verdict "the total's counters are the sums of the launches'" "$why"
# the total's occupancy rows are the longest launch's: reduce_pass1 in blocks of 128 (8 CTAs
# per SM, 2364 cycles alone), of 64 (8, 2118), then of 256 (6 CTAs per SM, 2661: the longest,
# though shorter than the two before it together)
why=""
ra="--arg buf:u32:1000:iota --arg buf:u32:16 --arg u32:1000"
# shellcheck disable=SC2086
(cd "$d" && "$ws" "$ptx" --kernel reduce_pass1 --grid 8 --block 128 $ra --kernel reduce_pass1 \
	--grid 16 --block 64 $ra --kernel reduce_pass1 --grid 4 --block 256 $ra) 2>"$d/occ" ||
	why="the run failed: $(head -1 "$d/occ")"
occ=$(awk '$1 == "occupancy_ctas_per_sm" { v = $2 } END { print v }' "$d/occ")
cyc=$(awk '$1 == "gpu_sim_cycle" { n++; if (n == 3) print $2 }' "$d/occ")
[ -z "$why" ] && [ "$occ" != 6 ] && why="the total's occupancy_ctas_per_sm is $occ, not the longest launch's 6"
[ -z "$why" ] && [ "$cyc" != 2661 ] && why="launch 3 took $cyc cycles, not 2661 (the fixture's premise)"
verdict "the total's occupancy rows are the longest launch's" "$why"
why=""
(cd "$d" && "$ws" "$ptx" --kernel reduce_pass1 --grid 4 --block 256 --arg buf:u32:1000:iota \
	--arg buf:u32:4 --arg u32:1000) 2>"$d/alone" || why="the kernel alone failed"
awk 'NR > 1 { print } /^gpu_occupancy/ { exit }' "$d/table" >"$d/first"
[ -z "$why" ] && ! cmp -s "$d/alone" "$d/first" && why="launch 1's table differs: $(diff "$d/alone" "$d/first" | sed -n 2p)"
verdict "launch 1's table is its kernel's run alone" "$why"
why=""
# JSON: the launches' objects (6 spaces in), then the total's members (2)
n6=$(grep -c '^      "gpu_sim_cycle"' "$d/s.json") n2=$(grep -c '^  "gpu_sim_cycle"' "$d/s.json")
tot=$(sed -n 's/^  "gpu_sim_cycle": \([0-9]*\),$/\1/p' "$d/s.json")
[ "$n6" = 2 ] && [ "$n2" = 1 ] || why="$n6 launch objects and $n2 totals"
[ -z "$why" ] && [ "$tot" != "$(row gpu_sim_cycle 3)" ] && why="the JSON total $tot is not the table's"
head -2 "$d/s.json" | tr -d '\n' | grep -q '^{  "launches": \[' || why="no launches array first: $(head -2 "$d/s.json")"
[ -z "$why" ] && ! "$CHK" --json "$d/s.json" 2>"$d/s.err" && why="not valid JSON: $(head -1 "$d/s.err")"
verdict "--stats-json: the launches, then the total" "$why"

# a sweep of several launches: each point runs the sequence; its cycles are the total's --
why=""
mkdir -p "$d/sweep"
(cd "$d/sweep" && "$ws" "$ptx" --launch "$dir/reduce.launch" --sweep predicate-max=0,inf) \
	>"$d/sweep.out" 2>&1 || why="the sweep failed: $(tail -1 "$d/sweep.out")"
(cd "$d/sweep" && "$ws" "$ptx" --launch "$dir/reduce.launch" --predicate-max 0 --quiet \
	--stats-json p0.json) 2>/dev/null
c0=$(sed -n 's/^  "gpu_sim_cycle": \([0-9]*\),$/\1/p' "$d/sweep/p0.json")
[ -z "$why" ] && [ "$(awk '/^0 / { print $2 }' "$d/sweep.out")" != "$c0" ] &&
	why="point 0's cycles are not the total's $c0: $(grep '^0 ' "$d/sweep.out")"
[ -z "$why" ] && grep -q 'OUTPUTS DIFFER' "$d/sweep.out" && why="the points' buffers differ"
for f in part.predicate-max-0.bin part.predicate-max-inf.bin sum.predicate-max-inf.bin; do
	[ -z "$why" ] && ! cmp -s "$d/sweep/$f" "$tmp/reduce/oracle/${f%%.*}.bin" && why="$f is not the oracle's"
done
verdict "--sweep over several launches: totals and every launch's buffers" "$why"

# the command line: --kernel ... --kernel ... -------------------------------------------
why=""
mkdir -p "$d/cmd"
(cd "$d/cmd" && "$ws" "$ptx" --quiet --buf 'total_out=u32:4:const:9' --kernel produce --grid 2 \
	--block 64 --arg u32:10 --kernel produce --block 32 --arg u32:1000 --kernel consume \
	--block 96 --buf out=u32:96:const:5 --arg buf:out --out out:out.bin --out total:total.bin \
	--out total_out:t.txt) 2>"$d/cmd.err" || why="failed: $(head -1 "$d/cmd.err")"
[ -z "$why" ] && ! cmp -s "$d/cmd/out.bin" "$tmp/produce/oracle/out.bin" && why="out differs from the launch file's"
[ -z "$why" ] && [ "$(cat "$d/cmd/t.txt" | tr '\n' ' ')" != "9 9 9 9 " ] && why="a --buf no launch passes: $(cat "$d/cmd/t.txt")"
verdict "the command line's launches equal the launch file's" "$why"

# refusals --------------------------------------------------------------------------------
# refused NAME STATUS WANT LAUNCH-TEXT: both engines exit STATUS and print WANT (a fixed
# string; @ is the launch file's path)
refused() {
	rn=$1 rs=$2 rw=$3
	printf '%s\n' "$4" >"$tmp/$rn.launch"
	rw=$(printf '%s' "$rw" | sed "s|@|$tmp/$rn.launch|")
	for e in "" --oracle; do
		why=""
		# shellcheck disable=SC2086
		(cd "$tmp" && "$ws" $e "$ptx" --launch "$tmp/$rn.launch" --quiet) >"$tmp/$rn.err" 2>&1
		rc=$?
		[ $rc = "$rs" ] || why="exit $rc, not $rs"
		[ -z "$why" ] && ! grep -qF -- "$rw" "$tmp/$rn.err" && why="no '$rw' in: $(head -2 "$tmp/$rn.err")"
		verdict "$rn${e:+ $e}" "$why"
	done
}
refused "arity" 2 "@:5: error: launch 2 of 2 (kernel 'consume'): kernel 'consume' has 1 parameter, got 0 --arg options" \
"kernel produce
arg u32:1
# the consumer without its buffer

kernel consume"
refused "undeclared" 2 "@:4: error: launch 2 of 2 (kernel 'consume'): --arg 0 (buf:nosuch): no --buf of this launch or an earlier one declares a buffer 'nosuch'" \
"kernel produce
arg u32:1
buf x=u32:4
kernel consume
arg buf:nosuch"
refused "twice" 2 "@:4: error: launch 2 of 2 (kernel 'consume'): --buf x=u32:8: a buffer 'x' exists already" \
"kernel produce
arg u32:1
buf x=u32:4
kernel consume
buf x=u32:8
arg buf:x"
refused "offset" 2 "--arg 0 (buf:x+5): buffer 'x' holds 4 elements, the offset is 5" \
"kernel consume
buf x=u32:4
arg buf:x+5"
refused "fault" 1 "in launch 2 of 3 (kernel 'table_fill', @:3)" \
"kernel produce
arg u32:1
kernel table_fill
arg u32:3
kernel table_new
arg u32:4"
refused "heapsize" 2 "@:3: error: launch 2 of 2 (kernel 'table_fill'): --heap-bytes 4096: an earlier launch placed the device heap with 8388608 bytes" \
"kernel table_new
arg u32:4
kernel table_fill
heap-bytes 4096
arg u32:3"
refused "syntax" 2 "@:2:5: error: --buf: expected NAME=TYPE:COUNT[:INIT]" \
"kernel produce
buf u32=u32:4
arg u32:1"
# dynamic parallelism in two launches (tests/ptx/cdp_rec: grid d adds 20 d + 3 to r[d] and 2 to
# r[63], then launches grid d + 1 up to max): max 8, then max 3 over the same buffer; the
# total counts the 8 + 3 child grids
cdp=$top/tests/ptx/cdp_rec.ptx
want=$(awk 'BEGIN { for (d = 0; d < 64; d++) printf "%d ", d < 4 ? 2 * (20 * d + 3) : d < 9 ? 20 * d + 3 : d == 63 ? 26 : 0 }')
for e in --oracle "" --functional; do
	why=""
	mkdir -p "$tmp/cdp$e"
	# shellcheck disable=SC2086
	(cd "$tmp/cdp$e" && "$ws" $e "$cdp" --buf r=s32:64 --kernel cdp_rec --block 2 --arg buf:r \
		--arg s32:0 --arg s32:8 --kernel cdp_rec --block 2 --arg buf:r --arg s32:0 --arg s32:3 \
		--out r:r.txt --stats-json s.json) >"$tmp/cdp.err" 2>&1 || why="failed: $(head -1 "$tmp/cdp.err")"
	[ -z "$why" ] && [ "$(tr '\n' ' ' <"$tmp/cdp$e/r.txt")" != "$want" ] && why="r: $(tr '\n' ' ' <"$tmp/cdp$e/r.txt")"
	if [ -z "$why" ] && [ "$e" != --oracle ]; then
		n=$(sed -n 's/^  "cdp_child_grids": \([0-9]*\),$/\1/p' "$tmp/cdp$e/s.json")
		[ "$n" = 11 ] || why="the total's cdp_child_grids is '$n', not 11"
	fi
	[ -z "$why" ] && [ "$e" = --oracle ] && ! grep -q "^oracle: the 2 launches: .*" "$tmp/cdp.err" && why="no summary of both"
	verdict "dynamic parallelism in two launches${e:+ $e}" "$why"
done

# a trap in the last launch: exit 1, named; every launch's --out buffers are still saved
printf '%s\n' "kernel produce" "arg u32:10" "kernel consume" "block 4" "buf out=u32:4" \
	"arg buf:out" "kernel stop_here" "block 32" "buf z=u32:32" "arg buf:z" "out out:out.txt" \
	"out z:z.txt" >"$tmp/trap.launch"
for e in "" --oracle; do
	why=""
	mkdir -p "$tmp/trap$e"
	# shellcheck disable=SC2086
	(cd "$tmp/trap$e" && "$ws" $e "$ptx" --launch "$tmp/trap.launch" --quiet) >"$tmp/trap.err" 2>&1
	rc=$?
	[ $rc = 1 ] || why="exit $rc, not 1"
	[ -z "$why" ] && ! grep -qF "in launch 3 of 3 (kernel 'stop_here', $tmp/trap.launch:7)" "$tmp/trap.err" &&
		why="no launch named: $(head -3 "$tmp/trap.err")"
	[ -z "$why" ] && [ "$(tr '\n' ' ' <"$tmp/trap$e/out.txt")" != "10 27 30 47 " ] &&
		why="launch 2's buffer: $(tr '\n' ' ' <"$tmp/trap$e/out.txt")"
	[ -z "$why" ] && [ "$(sort -u "$tmp/trap$e/z.txt")" != 9 ] && why="launch 3's stores are not saved"
	verdict "a trap in launch 3 saves every launch's buffers${e:+ $e}" "$why"
done

# observers of several launches: --trace, --line-stats, --bounds --------------------------
# (docs/traces.md, "Several launches"). o.launch: reduce.launch's two kernels and then
# reduce_pass1 again in another shape, so one kernel has two launches to sum
o=$tmp/obs
mkdir -p "$o"
{ sed '/^out /d' "$dir/reduce.launch" | sed 's/^buf part=u32:4$/buf part=u32:8/'
  printf '%s\n' "kernel reduce_pass1" "grid 8" "block 128" "arg buf:in" "arg buf:part" "arg u32:1000"; } >"$o/o.launch"
ra1="--arg buf:u32:1000:iota --arg buf:u32:8 --arg u32:1000"
why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --trace t.txt --stats-json s.json) 2>"$o/table" ||
	why="the run failed: $(head -1 "$o/table")"
# cyc N / wi N: the N-th table's gpu_sim_cycle / warp instructions (4: the total)
cyc() { awk -v n="$1" '$1 == "gpu_sim_cycle" { t++; if (t == n) print $2 }' "$o/table"; }
wi() { awk -v n="$1" '$1 == "gpgpu_n_tot_w_icount" { t++; if (t == n) print $2 }' "$o/table"; }
c1=$(cyc 1) c2=$(cyc 2) c3=$(cyc 3) ct=$(cyc 4)
heads=$(grep '^# launch ' "$o/t.txt" | sed 's/ (grid.*) from cycle / from /')
want="# launch 1 of 3: kernel 'reduce_pass1' from 0
# launch 2 of 3: kernel 'reduce_pass2' from $c1
# launch 3 of 3: kernel 'reduce_pass1' from $((c1 + c2))"
[ -z "$why" ] && [ "$heads" != "$want" ] && why="the launch records: $(echo "$heads" | tr '\n' '|')"
# each launch's instruction lines: its warp instructions, within its cycles
got=$(awk '/^# launch / { l++; next } /^#/ { next } { n[l]++; if (l == 1 && $1 >= c1 || l == 2 && ($1 < c1 || $1 >= c1 + c2) ||
	l == 3 && $1 < c1 + c2) bad++ } END { print n[1] + 0, n[2] + 0, n[3] + 0, bad + 0 }' c1="$c1" c2="$c2" "$o/t.txt")
[ -z "$why" ] && [ "$got" != "$(wi 1) $(wi 2) $(wi 3) 0" ] &&
	why="lines per launch and lines outside their launch's cycles: $got, not $(wi 1) $(wi 2) $(wi 3) 0"
[ -z "$why" ] && ! grep -q "^# end: the run took $ct cycles (every launch); $(wi 4) instruction lines above$" "$o/t.txt" &&
	why="the end record: $(tail -1 "$o/t.txt")"
# launch 1's lines are its kernel's trace alone, byte for byte; launch 3's, shifted by the
# cycles before it, are reduce_pass1's alone in its shape (the device memory is the only state
# a launch inherits, and this kernel's timing does not depend on it)
(cd "$o" && "$ws" "$ptx" --kernel reduce_pass1 --grid 4 --block 256 $ra1 --trace a1.txt --quiet &&
	"$ws" "$ptx" --kernel reduce_pass1 --grid 8 --block 128 $ra1 --trace a3.txt --quiet) 2>/dev/null
awk '/^# launch 2 /{ exit } !/^#/' "$o/t.txt" >"$o/l1"
awk -v b=$((c1 + c2)) '/^# launch 3 /{ on = 1; next } on && !/^#/ { $1 = sprintf("%10d", $1 - b); print }' "$o/t.txt" >"$o/l3"
grep -v '^#' "$o/a1.txt" >"$o/w1"
awk '!/^#/ { $1 = sprintf("%10d", $1); print }' "$o/a3.txt" >"$o/w3"
[ -z "$why" ] && ! cmp -s "$o/l1" "$o/w1" && why="launch 1's lines differ from its run alone: $(diff "$o/w1" "$o/l1" | sed -n 2p)"
[ -z "$why" ] && ! cmp -s "$o/l3" "$o/w3" && why="launch 3's lines differ from its run alone: $(diff "$o/w3" "$o/l3" | sed -n 2p)"
verdict "--trace of 3 launches (text): each marked, its cycles continuing, its lines its run's" "$why"
why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --trace t2.txt --threads 2 --quiet) 2>/dev/null
cmp -s "$o/t.txt" "$o/t2.txt" || why="differs: $(diff "$o/t.txt" "$o/t2.txt" | sed -n 2p)"
verdict "--trace of 3 launches with --threads 2 is one thread's" "$why"

why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --trace t.json --quiet) 2>"$o/json.err" || why="failed: $(head -1 "$o/json.err")"
# 32 + 2 + 32 warps, and the track of the launches
[ -z "$why" ] && ! "$CHK" "$o/t.json" --tracks 67 >"$o/chk" 2>&1 && why="tracecheck: $(head -2 "$o/chk" | tr '\n' ' ')"
names=$(grep -o '"thread_name","pid":[0-9]*,"tid":[0-9]*,"args":{"name":"launch [0-9]* cta [0-9]* warp 0"' "$o/t.json" |
	sed 's/.*"name":"//; s/"$//' | sort | uniq -c | awk '{ n[$3]++ } END { print n[1] + 0, n[2] + 0, n[3] + 0 }')
[ -z "$why" ] && [ "$names" != "4 1 8" ] && why="warp 0 tracks per launch: $names, not 4 1 8"
ls=$(grep -o '"ph":"X","pid":1024,"tid":0,"ts":[0-9.]*,"dur":[0-9.]*,"name":"[^"]*"' "$o/t.json" | sed 's/.*"ts"://; s/,"dur":/ /; s/,"name":"/ /; s/"$//')
want="0.000 $(awk -v c="$c1" 'BEGIN { printf "%.3f", c / 1000 }') launch 1: reduce_pass1
$(awk -v a="$c1" -v c="$c2" 'BEGIN { printf "%.3f %.3f", a / 1000, c / 1000 }') launch 2: reduce_pass2
$(awk -v a=$((c1 + c2)) -v c="$c3" 'BEGIN { printf "%.3f %.3f", a / 1000, c / 1000 }') launch 3: reduce_pass1"
[ -z "$why" ] && [ "$ls" != "$want" ] && why="the launches' slices: $(echo "$ls" | tr '\n' '|')"
[ -z "$why" ] && ! grep -q "\"metadata\":{\"complete\":true,\"cycles\":$ct,\"launches\":3}" "$o/t.json" &&
	why="metadata: $(tail -1 "$o/t.json")"
verdict "--trace of 3 launches (JSON): a track per warp of each launch, a slice per launch" "$why"

why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --trace t.svg --quiet) 2>"$o/svg.err" || why="failed: $(head -1 "$o/svg.err")"
[ -z "$why" ] && ! xmllint --noout "$o/t.svg" 2>"$o/x.err" && why="not well-formed: $(head -1 "$o/x.err")"
marks=$(grep -o '<text class="lt"[^>]*>[^<]*' "$o/t.svg" | sed 's/.*>//' | tr '\n' '|')
[ -z "$why" ] && [ "$marks" != "launch 1: reduce_pass1|launch 2: reduce_pass2|launch 3: reduce_pass1|" ] && why="marks: $marks"
[ -z "$why" ] && ! grep -q "cycles 0\.\.$((ct - 1))," "$o/t.svg" && why="the x axis does not span the $ct cycles"
verdict "--trace of 3 launches (SVG): a mark per launch, every cycle" "$why"

# a window across the launches' border keeps both sides; a run that faults keeps its trace
why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --trace w.txt --trace-window $((c1 - 50)):$((c1 + 50)) --quiet) 2>/dev/null
n1=$(awk '/^# launch 2 /{ exit } !/^#/' "$o/w.txt" | wc -l) n2=$(awk '/^# launch 2 /{ on = 1 } on && !/^#/' "$o/w.txt" | wc -l)
want=$(awk -v a=$((c1 - 50)) -v b=$((c1 + 50)) '!/^#/ && $1 >= a && $1 <= b' "$o/t.txt" | wc -l)
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ $((n1 + n2)) = "$want" ] || why="$n1 + $n2 lines, not $want on both sides"
verdict "--trace-window across two launches" "$why"
why=""
(cd "$tmp/trap" && "$ws" "$ptx" --launch "$tmp/trap.launch" --trace t.txt --quiet) >"$o/trap.err" 2>&1
[ "$(grep -c '^# launch ' "$tmp/trap/t.txt")" = 3 ] && tail -1 "$tmp/trap/t.txt" | grep -q '^# the run did not complete' &&
	grep -q 't.txt holds the run up to the error' "$o/trap.err" || why="$(tail -1 "$tmp/trap/t.txt"); $(head -1 "$o/trap.err")"
verdict "--trace of launches that trap: what ran, marked incomplete" "$why"
# one launch goes through the same observers (cli/observe.c): a run that stops closes its
# trace, says so, then gives the error, which names the launch only when there are several
why=""
(cd "$tmp/trap" && "$ws" "$ptx" --kernel stop_here --block 32 --arg buf:u32:32 --trace t1.txt --quiet) >"$o/trap1.err" 2>&1
[ "$(sed -n 1p "$o/trap1.err")" = "warpsim: --trace: t1.txt holds the run up to the error" ] &&
	sed -n 2p "$o/trap1.err" | grep -q '^warpsim: error: trap: ' && ! grep -q 'in launch' "$o/trap1.err" &&
	tail -1 "$tmp/trap/t1.txt" | grep -q '^# the run did not complete' || why="one launch: $(head -3 "$o/trap1.err" | tr '\n' '|')"
[ -z "$why" ] && { [ "$(sed -n 1p "$o/trap.err")" != "warpsim: --trace: t.txt holds the run up to the error" ] ||
	[ "$(tail -1 "$o/trap.err")" != "    in launch 3 of 3 (kernel 'stop_here', $tmp/trap.launch:7)" ]; } &&
	why="several: $(tr '\n' '|' <"$o/trap.err")"
verdict "a trace that stops: its note, then the error, for one launch and several" "$why"

# line statistics: a table per launch, then reduce_pass1's two summed ---------------------
why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --line-stats l.csv --quiet &&
	"$ws" "$ptx" --launch "$o/o.launch" --line-stats l.txt --quiet &&
	"$ws" "$ptx" --kernel reduce_pass1 --grid 4 --block 256 $ra1 --line-stats a1.txt --quiet) 2>"$o/ls.err" ||
	why="failed: $(head -1 "$o/ls.err")"
# per launch label: the PTX level's warp instructions
got=$(awk -F, 'NR > 1 && $3 == "ptx" { n[$1 " " $2] += $7 } END { for (k in n) print k, n[k] }' "$o/l.csv" | sort | tr '\n' '|')
want="1 \"reduce_pass1\" $(wi 1)|2 \"reduce_pass2\" $(wi 2)|3 \"reduce_pass1\" $(wi 3)|sum \"reduce_pass1\" $(($(wi 1) + $(wi 3)))|"
[ -z "$why" ] && [ "$got" != "$want" ] && why="warp instructions by launch: $got, not $want"
# every sum row is its line's launches 1 and 3 added, column by column (but the mean)
bad=$(awk -F, 'NR > 1 && $3 == "ptx" { k = $5; if ($1 == 1 || $1 == 3) for (c = 6; c <= 20; c++) if (c != 9) s[k, c] += $c
	if ($1 == "sum") for (c = 6; c <= 20; c++) if (c != 9) { got[k, c] = $c; keys[k] = 1 } }
	END { for (k in keys) for (c = 6; c <= 20; c++) if (c != 9 && got[k, c] != s[k, c]) n++; print n + 0 }' "$o/l.csv")
[ -z "$why" ] && [ "$bad" != 0 ] && why="$bad sum cells are not launches 1 + 3"
heads=$(grep '^warpsim line statistics' "$o/l.txt" | sed 's/ (grid.*//; s/ ([^(]*)$//')
want="warpsim line statistics: launch 1 of 3: kernel 'reduce_pass1'
warpsim line statistics: launch 2 of 3: kernel 'reduce_pass2'
warpsim line statistics: launch 3 of 3: kernel 'reduce_pass1'
warpsim line statistics: kernel 'reduce_pass1', launches 1, 3 summed"
[ -z "$why" ] && [ "$heads" != "$want" ] && why="headings: $(echo "$heads" | tr '\n' '|')"
# launch 1's table is its kernel's alone
awk '/^warpsim line statistics: launch 2 /{ exit } NR > 1 && NF' "$o/l.txt" >"$o/ls1"
awk 'NR > 1 && NF' "$o/a1.txt" >"$o/lsa"
[ -z "$why" ] && ! cmp -s "$o/ls1" "$o/lsa" && why="launch 1's table differs from its run alone: $(diff "$o/lsa" "$o/ls1" | sed -n 2p)"
verdict "--line-stats of 3 launches: each launch's rows, a kernel's launches summed" "$why"

# bounds: each launch's, then the run's cycles against their sum ----------------------------
why=""
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" --bounds b.txt --quiet &&
	"$ws" "$ptx" --kernel reduce_pass1 --grid 8 --block 128 $ra1 --bounds a3.txt --quiet) 2>"$o/b.err" ||
	why="failed: $(head -1 "$o/b.err")"
got=$(sed -n 's/^bounds of kernel \([a-z_0-9]*\): \([0-9]*\) cycles$/\1 \2/p' "$o/b.txt" | tr '\n' '|')
[ -z "$why" ] && [ "$got" != "reduce_pass1 $c1|reduce_pass2 $c2|reduce_pass1 $c3|" ] && why="the launches' bounds: $got"
sum=$(awk '$1 == "bound" { s += $2 } END { print s }' "$o/b.txt")
[ -z "$why" ] && ! grep -q "^all 3 launches: $ct cycles; their bounds summed $sum; " "$o/b.txt" && why="the total: $(tail -1 "$o/b.txt")"
sed -n '/^launch 3 of 3/,/^  bound/p' "$o/b.txt" | sed 1d >"$o/b3"
[ -z "$why" ] && ! cmp -s "$o/b3" "$o/a3.txt" && why="launch 3's bounds differ from its run alone: $(diff "$o/a3.txt" "$o/b3" | sed -n 2p)"
verdict "--bounds of 3 launches: each launch's, and their sum" "$why"
why=""
(cd "$tmp/cdp" && "$ws" "$cdp" --buf r=s32:64 --kernel cdp_rec --block 2 --arg buf:r --arg s32:0 --arg s32:8 \
	--kernel cdp_rec --block 2 --arg buf:r --arg s32:0 --arg s32:3 --bounds b.txt --quiet) >"$o/cdpb.err" 2>&1
rc=$?
[ $rc = 1 ] || why="exit $rc, not 1"
[ -z "$why" ] && ! grep -qF "warpsim: --bounds bounds one grid; launch 1 of 2: kernel 'cdp_rec' (grid 1,1,1, block 2,1,1) also ran 8 child grids" "$o/cdpb.err" &&
	why="message: $(head -1 "$o/cdpb.err")"
verdict "--bounds of launches with child grids is refused, the launch named" "$why"

# --explore of several launches: every launched kernel's branches, each variant the whole
# sequence; a branch's counts summed over the launches of its kernel -------------------------
why=""
xo="--out part:part.bin --out sum:sum.bin"
# shellcheck disable=SC2086
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" $xo --explore -j 2 --explore-json x.json >x.txt &&
	"$ws" "$ptx" --kernel reduce_pass1 --grid 4 --block 256 $ra1 --out 1:p.bin --explore -j 2 >x1.txt &&
	"$ws" "$ptx" --kernel reduce_pass1 --grid 8 --block 128 $ra1 --out 1:p.bin --explore -j 2 >x3.txt &&
	"$ws" "$ptx" --launch "$o/o.launch" --decide '#9=branch' --quiet --stats-json d9.json) 2>"$o/x.err" ||
	why="failed: $(head -1 "$o/x.err")"
# col FILE N COLUMN: branch #N's column in an explore table (its rows, not those of the
# where-the-cycles-went table, indented under them)
col() { awk -v b="#$2" -v c="$3" '/^  #/ && $1 == b { print $c }' "$o/$1"; }
[ -z "$why" ] && ! grep -q "^warpsim: explore $ptx (reduce_pass1, reduce_pass2, reduce_pass1): 11 branches," "$o/x.txt" &&
	why="the heading: $(head -1 "$o/x.txt")"
[ -z "$why" ] && ! grep -q "^  as compiled: $ct cycles, $(wi 4) warp instructions" "$o/x.txt" && why="as compiled: $(sed -n 2p "$o/x.txt")"
e1=$(col x.txt 1 6) a1=$(col x1.txt 1 6) a3=$(col x3.txt 1 6)
[ -z "$why" ] && { [ -z "$a1" ] || [ "$e1" != $((a1 + a3)) ]; } && why="#1's executions $e1, not launch 1's $a1 + launch 3's $a3"
[ -z "$why" ] && [ "$(col x.txt 9 6)" != 12 ] && why="#9 (reduce_pass2's) executions: $(col x.txt 9 6), not 12"
d9=$(sed -n 's/^  "gpu_sim_cycle": \([0-9]*\),$/\1/p' "$o/d9.json")
[ -z "$why" ] && [ "$(col x.txt 9 9)" != "$(printf '%+d' $((d9 - ct)))" ] &&
	why="#9's d.cycles $(col x.txt 9 9), not the sequence's with --decide #9=branch: $d9 - $ct"
[ -z "$why" ] && ! grep -q "every variant left the same memory as the program as compiled (2 buffers compared)" "$o/x.txt" &&
	why="the buffers: $(grep memory "$o/x.txt")"
[ -z "$why" ] && ! grep -qF '"launches": ["reduce_pass1", "reduce_pass2", "reduce_pass1"]' "$o/x.json" && why="the JSON's launches"
[ -z "$why" ] && ! grep -q '^  {"index": 9, "kernel": "reduce_pass2", "ptx_line": 349,' "$o/x.json" && why="the JSON's #9: $(grep '"index": 9,' "$o/x.json" | cut -c1-80)"
[ -z "$why" ] && ! "$CHK" --json "$o/x.json" 2>"$o/x.err" && why="x.json is not valid JSON: $(head -1 "$o/x.err")"
verdict "--explore of 3 launches: every kernel's branches, counts summed, the sequence's cycles" "$why"

# --report of several launches: each launch's kernel and figures, a card per branch of every
# kernel, linked to its kernel's source table ------------------------------------------------
why=""
# shellcheck disable=SC2086
(cd "$o" && "$ws" "$ptx" --launch "$o/o.launch" $xo --report r.html -j 2 --quiet) 2>"$o/r.err" ||
	why="failed: $(head -1 "$o/r.err")"
P=$o/r.html
[ -z "$why" ] && ! grep -q "wrote r.html (11 branch cards)" "$o/r.err" && why="$(head -1 "$o/r.err")"
[ -z "$why" ] && ! grep -qF '<h1>warpsim report: 3 launches (<code>reduce_pass1</code>, <code>reduce_pass2</code>, <code>reduce_pass1</code>) of' "$P" &&
	why="the heading: $(grep -o '<h1>.*</h1>' "$P")"
rows=$(sed -n 's|^<tr><td>\([0-9]\)</td><td><code>\([a-z_0-9]*\)</code></td><td>[0-9,]*</td><td>[0-9,]*</td><td>\([0-9]*\)</td>.*|\1 \2 \3|p' "$P" | tr '\n' '|')
[ -z "$why" ] && [ "$rows" != "1 reduce_pass1 $c1|2 reduce_pass2 $c2|3 reduce_pass1 $c3|" ] && why="the launches' rows: $rows"
[ -z "$why" ] && ! grep -q "<tr><td>cycles</td><td>$ct</td></tr>" "$P" && why="the run's cycles are not the total's $ct"
[ -z "$why" ] && [ "$(grep -o '<div class="card [a-z]*" id="b[0-9]*">' "$P" | wc -l)" != 11 ] && why="not a card per branch of both kernels"
[ -z "$why" ] && ! grep -A1 'id="b9"' "$P" | grep -q 'href="#k1-ptx349">PTX line 349</a> &middot; reduce_pass2 ' &&
	why="#9's card does not link reduce_pass2's table: $(grep -A1 'id="b9"' "$P" | tail -1)"
[ -z "$why" ] && ! grep -q '<tr id="k1-ptx349"[^>]*><td class="n"><a href="#b9">#9</a> 349</td>' "$P" && why="no row k1-ptx349 for #9"
[ -z "$why" ] && ! grep -qF '<h3 id="k0">kernel <code>reduce_pass1</code>, launches 1, 3</h3>' "$P" && why="reduce_pass1's part does not name launches 1, 3"
[ -z "$why" ] && [ "$(grep -o 'src="data:image/svg+xml;base64,' "$P" | wc -l)" != 2 ] && why="not two pictures"
[ -z "$why" ] && [ "$(grep -c ' id="src"' "$P")" != 1 ] && why="$(grep -c ' id="src"' "$P") elements with id src"
verdict "--report of 3 launches: the launches, every kernel's cards and source" "$why"

# a kernel is its name (cli/kernels.c): launches 1 and 2 run reduce_pass1, launch 3 reduce_pass2,
# which is so kernel 1 though it is launch 3; every list of the kernels launched numbers them
# alike: the line statistics' sums, --explore's launches and branches, and on the --report page
# each branch card's link to its kernel's source table -----------------------------------------
why=""
a=$o/aab
mkdir -p "$a"
{ printf '%s\n' "buf in=u32:1000:iota" "buf part=u32:8" "buf sum=u32:1"
  for s in "8 128" "4 256"; do
	printf '%s\n' "kernel reduce_pass1" "grid ${s% *}" "block ${s#* }" "arg buf:in" "arg buf:part" "arg u32:1000"
  done
  printf '%s\n' "kernel reduce_pass2" "block 64" "arg buf:part" "arg buf:sum" "arg u32:4" "out sum:sum.bin"; } >"$a/aab.launch"
(cd "$a" && "$ws" "$ptx" --launch aab.launch --line-stats l.txt --report r.html -j 2 --quiet &&
	"$ws" "$ptx" --launch aab.launch --explore -j 2 --explore-json x.json >x.txt) 2>"$a/err" ||
	why="failed: $(head -1 "$a/err")"
heads=$(grep '^warpsim line statistics: kernel' "$a/l.txt" | sed 's/ (.*//')
[ -z "$why" ] && [ "$heads" != "warpsim line statistics: kernel 'reduce_pass1', launches 1, 2 summed" ] &&
	why="the sums: $(echo "$heads" | tr '\n' '|')"
[ -z "$why" ] && ! grep -q "^warpsim: explore $ptx (reduce_pass1, reduce_pass1, reduce_pass2): 11 branches," "$a/x.txt" &&
	why="the explore heading: $(head -1 "$a/x.txt")"
[ -z "$why" ] && ! grep -qF '"launches": ["reduce_pass1", "reduce_pass1", "reduce_pass2"]' "$a/x.json" && why="the JSON's launches"
[ -z "$why" ] && ! grep -q '^  {"index": 9, "kernel": "reduce_pass2", ' "$a/x.json" && why="the JSON's #9: $(grep '"index": 9,' "$a/x.json" | cut -c1-60)"
P=$a/r.html
[ -z "$why" ] && ! grep -qF '<h3 id="k0">kernel <code>reduce_pass1</code>, launches 1, 2</h3>' "$P" && why="no part k0 of launches 1, 2"
[ -z "$why" ] && ! grep -qF '<h3 id="k1">kernel <code>reduce_pass2</code>, launch 3</h3>' "$P" && why="no part k1 of launch 3"
# every card: "#N &middot; <a href="#kK-ptxL">PTX line L</a> &middot; KERNEL": part K is KERNEL's
# and holds row kK-ptxL
cards=$(sed -n 's|^<h3>#[0-9]* &middot; <a href="#k\([0-9]*\)-ptx\([0-9]*\)">PTX line [0-9]*</a> &middot; \([a-z_0-9]*\) .*|\1 \2 \3|p' "$P")
[ -z "$why" ] && [ "$(echo "$cards" | grep -c .)" != 11 ] && why="$(echo "$cards" | grep -c .) cards with a link, not 11"
[ -z "$why" ] && [ "$(echo "$cards" | awk '{ print $1, $3 }' | sort -u | tr '\n' '|')" != "0 reduce_pass1|1 reduce_pass2|" ] &&
	why="cards' kernels and parts: $(echo "$cards" | awk '{ print $1, $3 }' | sort -u | tr '\n' '|')"
echo "$cards" | while read -r k l n; do
	grep -qF "<h3 id=\"k$k\">kernel <code>$n</code>" "$P" && grep -q "<tr id=\"k$k-ptx$l\"" "$P" || echo "k$k-ptx$l ($n)"
done >"$a/miss"
[ -z "$why" ] && [ -s "$a/miss" ] && why="cards link rows not in their kernel's part: $(head -3 "$a/miss" | tr '\n' ' ')"
verdict "a kernel launched twice then another: one numbering of the kernels everywhere" "$why"

# two kernels of one name never meet in one program: linking refuses a .entry defined in two
# files, the listing parser a .kernel defined twice (so the name can stand for the kernel)
for f in a b; do
	cat >"$a/$f.ptx" <<PTX
.version 7.0
.target sm_35
.address_size 64
.entry k(.param .u64 p)
{
	.reg .u64 %rd<2>;
	.reg .u32 %r<2>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, $([ $f = a ] && echo 1 || echo 2);
	st.global.u32 [%rd1], %r1;
	ret;
}
PTX
done
kk="--buf x=u32:1 --kernel k --block 1 --arg buf:x --kernel k --block 1 --arg buf:x --out x:k.txt"
why=""
# shellcheck disable=SC2086
(cd "$a" && "$ws" a.ptx b.ptx $kk) >"$a/two.err" 2>&1
rc=$?
[ $rc = 1 ] || why="exit $rc, not 1"
[ -z "$why" ] && ! grep -q "^b.ptx:4:8: error: kernel 'k' is defined in two files$" "$a/two.err" && why="$(head -1 "$a/two.err")"
[ -z "$why" ] && [ -e "$a/k.txt" ] && why="k.txt was written"
verdict "two PTX files that define one kernel name are refused" "$why"
why=""
{ "$(dirname "$ws")/warpc" "$a/a.ptx" && echo && "$(dirname "$ws")/warpc" "$a/b.ptx"; } >"$a/two.sass" 2>"$a/warpc.err" ||
	why="warpc failed: $(head -1 "$a/warpc.err")"
# shellcheck disable=SC2086
[ -z "$why" ] && { (cd "$a" && "$ws" two.sass $kk) >"$a/two.err" 2>&1; rc=$?; [ $rc = 1 ] || why="exit $rc, not 1"; }
[ -z "$why" ] && ! grep -q "^two.sass:[0-9]*:9: error: kernel 'k' defined twice$" "$a/two.err" && why="$(head -1 "$a/two.err")"
verdict "a listing that defines one kernel name twice is refused" "$why"

echo "run-multi: $pass passed, $fail failed"
[ "$fail" = 0 ]
