#!/bin/sh
# run-bounds.sh - warpsim --bounds (report/bounds.c; docs/timing.md, "Bounds"):
#   1. on every corpus kernel with a launch (tests/ptx, tests/workloads, tests/sim) under
#      fermi.cfg and kepler.cfg, each of path, occupancy and issue is at most
#      gpu_sim_cycle (they are lower bounds), the block's cycles are the statistics' and the
#      bound named is the largest;
#   2. it only observes: the statistics JSON, the --out buffers and a --trace are the same
#      byte for byte with and without it;
#   3. a straight-line chain of N dependent IADDs: path = N x --alu-latency exactly, and the
#      model counts just that; with a store of the result, the start and the exit costs
#      worked out by hand from --issue-width;
#      a divergent constant load's split into one request per address counts in the path
#      and the issue bound (bench/micro's lat_ldc_uni and lat_ldc_div);
#   4. intloop on 120 CTAs x 256 threads is issue-bound (ALU) under both configs, its issue
#      figure the unit's pipeline cycles over its pipelines; one warp per CTA and one CTA at
#      a time is occupancy-bound at twice its path;
#   5. the same output twice; the refusals (--functional, --oracle, --sweep, --explore) and a
#      file that cannot be written, with their messages;
#   6. docs/calibration.md's whole-kernel table is bench/micro/kernels.sh's output (make micro).
# Run by `make check` with BIN set.
BIN=${BIN:-bin}
top=$(pwd)
case $BIN in /*) W=$BIN/warpsim ;; *) W=$top/$BIN/warpsim ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/run-bounds.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
. tests/launch.sh
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
mkdir "$T/run"
cfgval() { awk -v k="--$2" '$1 == k { print $2 }' "$top/sim/configs/$1.cfg"; }
# fig FILE NAME: the cycles of line NAME of a --bounds block ("cycles": the block's own)
fig() {
	if [ "$2" = cycles ]; then sed -n 's/^bounds of kernel .*: \([0-9]*\) cycles$/\1/p' "$1"
	else awk -v n="$2" '$1 == n { print $2 }' "$1"; fi
}

# ---- 1. lower bounds on the corpus
corpus_runs >"$T/list"
while read -r n p l; do
	case $n in cdp_*) continue ;; esac   # child grids: --bounds refuses (tests/run-cdp.sh)
	for cfg in fermi kepler; do
		if ! (cd "$T/run" && "$W" "$p" --launch "$l" --config "$top/sim/configs/$cfg.cfg" \
			--quiet --stats-json "$T/s.json" --bounds "$T/b.txt") 2>"$T/err"; then
			bad "$n on $cfg: warpsim failed: $(head -n 1 "$T/err")"; continue
		fi
		cy=$(sed -n 's/^  "gpu_sim_cycle": \([0-9]*\),$/\1/p' "$T/s.json")
		why=$(awk -v cy="$cy" '
			/^bounds of kernel/ { c = $(NF - 1) }
			$1 == "path" || $1 == "occupancy" || $1 == "issue" { v[$1] = $2; if ($2 + 0 > m) m = $2 + 0 }
			$1 == "bound" { b = $2; w = $5 }
			END {
				if (c != cy) { print "block says " c " cycles, the statistics " cy; exit }
				if (!("path" in v) || !("occupancy" in v) || !("issue" in v)) { print "a line is missing"; exit }
				for (k in v) if (v[k] + 0 > cy + 0) { print k " " v[k] " > gpu_sim_cycle " cy; exit }
				if (v["path"] + 0 < 1) { print "path " v["path"] " < 1"; exit }
				if (b + 0 != m || w != "(" (v["path"] == m ? "path" : v["occupancy"] == m ? "occupancy" : "issue") ");") {
					print "bound " b " " w " is not the largest"; exit }
			}' "$T/b.txt")
		if [ -n "$why" ]; then bad "$n on $cfg: $why"; else ok; fi
	done
done <"$T/list"

# ---- 2. an observer only: statistics, buffers and trace unchanged
# (PROGRAM LAUNCH CONFIG BUFFER: the kernel's output parameter)
for c in "tests/ptx/bar_guarded.ptx tests/ptx/bar_guarded.launch fermi 0" \
         "tests/ptx/reduce.sm75.ptx tests/cuda/reduce.launch kepler 1" \
         "tests/workloads/spmv.ptx tests/workloads/spmv.launch fermi 3" \
         "tests/ptx/cf_recurse_deep.ptx tests/ptx/cf_recurse_deep.launch kepler 0"; do
	set -- $c
	n=$(basename "$1" .ptx)
	for with in no yes; do
		extra=""; [ $with = yes ] && extra="--bounds $T/b.txt"
		# shellcheck disable=SC2086
		(cd "$T/run" && "$W" "$top/$1" --launch "$top/$2" --config "$top/sim/configs/$3.cfg" --quiet \
			--stats-json "$T/s-$with.json" --trace "$T/t-$with.txt" --out "$4:$T/o-$with" $extra) \
			2>"$T/err" || bad "$n: warpsim failed: $(head -n 1 "$T/err")"
	done
	if [ -s "$T/o-no" ] && [ -s "$T/b.txt" ] && cmp -s "$T/s-no.json" "$T/s-yes.json" &&
	   cmp -s "$T/t-no.txt" "$T/t-yes.txt" && cmp -s "$T/o-no" "$T/o-yes"; then ok
	else bad "$n on $3: --bounds changed the statistics, the trace or the buffer"; fi
	rm -f "$T/b.txt"
done

# ---- 3. a dependent chain worked out by hand
chain() { # N STORE: N dependent IADDs on R0 (STORE: then stored to out[0])
	printf '# run-bounds: %s dependent IADDs\n.kernel chain\n.arch sm_35\n.registers 4\n' "$1"
	[ "$2" = store ] && printf '.param 0x20 8 out\n        MOV R2, c[0x0][0x20];\n        MOV R3, c[0x0][0x24];\n'
	i=0; while [ $i -lt "$1" ]; do echo '        IADD R0, R0, 0x1;'; i=$((i + 1)); done
	[ "$2" = store ] && echo '        ST.E [R2], R0;'
	echo '        EXIT;'
}
N=12
chain $N plain >"$T/chain.sass"
chain $N store >"$T/chain_st.sass"
for cfg in fermi kepler; do
	lat=$(cfgval $cfg alu-latency) w=$(cfgval $cfg issue-width)
	# the IADDs issue lat apart from cycle 0; EXIT issues with or after the last; the warp
	# ends when the last result lands, N x lat
	"$W" "$T/chain.sass" --config "$top/sim/configs/$cfg.cfg" --grid 1 --block 32 --quiet \
		--bounds "$T/b.txt" || bad "chain on $cfg: warpsim failed"
	want=$((N * lat))
	if [ "$(fig "$T/b.txt" path)" = $want ] && [ "$(fig "$T/b.txt" cycles)" = $want ]; then ok
	else bad "chain of $N on $cfg: path $(fig "$T/b.txt" path), cycles $(fig "$T/b.txt" cycles), want $want (N x $lat)"; fi
	# with the store: the two MOVs take the first cycle (dual issue) or two; the IADDs follow
	# lat apart; ST waits for the last, EXIT issues with it or one cycle later; the warp ends
	# one cycle after its EXIT
	if [ "$w" -ge 2 ]; then want=$((1 + N * lat + 1)); else want=$((2 + N * lat + 2)); fi
	"$W" "$T/chain_st.sass" --config "$top/sim/configs/$cfg.cfg" --grid 1 --block 32 --quiet \
		--arg buf:u32:1 --out "0:$T/o.txt" --bounds "$T/b.txt" || bad "chain+store on $cfg: warpsim failed"
	if [ "$(fig "$T/b.txt" path)" = $want ] && [ "$(fig "$T/b.txt" cycles)" = $want ] &&
	   [ "$(cat "$T/o.txt")" = $N ]; then ok
	else bad "chain+store on $cfg: path $(fig "$T/b.txt" path), cycles $(fig "$T/b.txt" cycles), out $(cat "$T/o.txt"), want $want"; fi
done

# ---- 3b. a divergent constant load: the model splits it into one request per distinct
# address, an LSU-const interval apart (docs/timing.md, "Constant memory"); the bounds count
# the split too. bench/micro's lat_ldc_uni and lat_ldc_div chase a .const table with one warp,
# every lane on one word / on its own: the same K dependent LDCs, so the paths differ by
# exactly K x 31 intervals, and the divergent one's issue bound is the LSU-const unit's
# K x 32 intervals over its pipelines, less one instruction's 32
sh bench/micro/gen_mem.sh "$T/micro" >/dev/null
K=$(grep -c 'ld\.const' "$T/micro/lat_ldc_div.ptx")
for cfg in fermi kepler; do
	iv=$(cfgval $cfg lsu-const-interval) units=$(cfgval $cfg lsu-const-units)
	for v in uni div; do
		"$W" "$T/micro/lat_ldc_$v.ptx" --config "$top/sim/configs/$cfg.cfg" --grid 1 --block 32 \
			--arg buf:u32:96 --arg u32:1 --arg buf:u32:1 --quiet --bounds "$T/b_$v.txt" ||
			bad "lat_ldc_$v on $cfg: warpsim failed"
	done
	d=$(( $(fig "$T/b_div.txt" path) - $(fig "$T/b_uni.txt" path) ))
	i=$(fig "$T/b_div.txt" issue)
	wi=$(( (K * 32 * iv + units - 1) / units - 32 * iv + 1 ))
	if [ "$d" = $((K * 31 * iv)) ] && [ "$i" = "$wi" ] && grep -q 'unit LSU_CONST' "$T/b_div.txt"; then ok
	else bad "divergent constant load on $cfg: path difference $d, want $K x 31 x $iv; issue $i, want $wi"; cat "$T/b_div.txt"; fi
done

# ---- 4. issue-bound and occupancy-bound
for cfg in fermi kepler; do
	"$W" bench/sim/intloop.sass --config "sim/configs/$cfg.cfg" --grid 120 --block 256 \
		--arg buf:u32:30720 --arg u32:50 --quiet --bounds "$T/b.txt" || bad "intloop on $cfg: warpsim failed"
	units=$(cfgval $cfg alu-units) iv=$(cfgval $cfg alu-interval)
	why=$(awk -v units="$units" -v iv="$iv" '
		$1 == "path" { p = $2 } $1 == "occupancy" { o = $2 } $1 == "bound" { w = $5 }
		$1 == "issue" { i = $2; u = $6; busy = $10 }
		END {
			if (w != "(issue);") { print "bound " w ", not issue"; exit }
			if (!(i > p && i > o)) { print "issue " i " not above path " p " and occupancy " o; exit }
			if (u != "ALU:") { print "unit " u ", not ALU"; exit }
			want = int((busy + units - 1) / units) - iv + 1
			if (i != want) print "issue " i ", want ceil(" busy " / " units ") - " iv " + 1 = " want
		}' "$T/b.txt")
	if [ -z "$why" ]; then ok; else bad "intloop 120x256 on $cfg: $why"; fi
done
"$W" bench/sim/intloop.sass --config sim/configs/fermi.cfg --max-ctas 1 --grid 30 --block 32 \
	--arg buf:u32:960 --arg u32:20 --quiet --bounds "$T/b.txt" || bad "intloop one CTA at a time: warpsim failed"
p=$(fig "$T/b.txt" path) o=$(fig "$T/b.txt" occupancy)
if grep -q '(occupancy);' "$T/b.txt" && [ "$o" = $((2 * p)) ] && grep -q ': 2 CTAs.* 1 resident at once' "$T/b.txt"; then ok
else bad "intloop 30 CTAs of one warp, one CTA at a time on 15 SMs: occupancy $o, path $p, want 2 x path"; cat "$T/b.txt"; fi

# ---- 5. the same twice; refusals and an unwritable file
V="$top/tests/ptx/bar_guarded.ptx --launch $top/tests/ptx/bar_guarded.launch --quiet"
# shellcheck disable=SC2086
(cd "$T/run" && "$W" $V --bounds "$T/b1.txt" && "$W" $V --bounds "$T/b2.txt") || bad "bar_guarded: warpsim failed"
if [ -s "$T/b1.txt" ] && cmp -s "$T/b1.txt" "$T/b2.txt"; then ok; else bad "two runs give different --bounds"; fi
refuse() { # WANT-STATUS MESSAGE ARGS...
	st=$1 msg=$2; shift 2
	(cd "$T/run" && "$W" "$@") >/dev/null 2>"$T/err"
	got=$?
	if [ "$got" = "$st" ] && [ "$(cat "$T/err")" = "$msg" ]; then ok
	else bad "warpsim $*: exit $got, '$(cat "$T/err")'; want exit $st, '$msg'"; fi
}
# shellcheck disable=SC2086
refuse 2 "warpsim: --functional runs without the timing model: --bounds needs it" $V --functional --bounds "$T/x"
# shellcheck disable=SC2086
refuse 2 "warpsim: --bounds observes the SM model's timing: it cannot be given with --oracle" $V --oracle --bounds "$T/x"
# shellcheck disable=SC2086
refuse 2 "warpsim: --bounds observes one run: it cannot be given with --sweep" $V --sweep predicate-max=0,4 --bounds "$T/x"
# shellcheck disable=SC2086
refuse 2 "warpsim: --bounds observes one run: it cannot be given with --explore" $V --explore --bounds "$T/x"
# shellcheck disable=SC2086
refuse 1 "warpsim: --bounds: cannot write '$T/no/such/dir/b.txt': No such file or directory" $V --bounds "$T/no/such/dir/b.txt"
[ ! -e "$T/x" ] && ok || bad "a refused run wrote its --bounds file"

# 6. docs/calibration.md's whole-kernel table is what bench/micro/kernels.sh writes today: a
#    change to the model or the corpus that moves it fails here until `make micro` renews it
sh "$top/bench/micro/kernels.sh" "$BIN" >"$T/kernels.out" 2>"$T/kernels.err" || bad "bench/micro/kernels.sh failed: $(head -3 "$T/kernels.err")"
sed '/./,$!d' "$T/kernels.out" >"$T/kernels.md"
sed -n '/^## The whole-kernel check$/,$p' "$top/docs/calibration.md" >"$T/kernels.doc"
if [ -s "$T/kernels.doc" ] && cmp -s "$T/kernels.md" "$T/kernels.doc"; then ok
else bad "docs/calibration.md's whole-kernel table is not kernels.sh's output (run make micro and commit it): $(diff "$T/kernels.doc" "$T/kernels.md" | head -4 | tr '\n' ' ')"; fi

echo "run-bounds: $pass passed, $fail failed"
[ "$fail" = 0 ]
