#!/bin/sh
# run-launch.sh - the launch description's structs and constants (docs/warpsim.md, "Structs and
# constants"), with tests/ptx/launch_struct.ptx on both engines:
#   1. a struct by value (--arg struct:...: a buffer, scalars, a bare value list, C layout with
#      tail padding) and __constant__ variables set by --const (values, a buffer pointer, an
#      @file), with a PTX initializer the launch leaves (bias) and one it replaces (scale): the
#      oracle, the SM model, --functional and the SM model on the translated listing leave the
#      same buffers, and they hold the values the fixture's formula gives;
#   1b. a struct's padding as C lays it out (launch_align4), implicit and pad:N;
#   2. a --const in a launch file reads @PATH relative to the file; a --const stays for child
#      grids (2b);
#   3. bad input: the exact message naming the parameter or variable and a non-zero exit, on
#      both engines (sizes, alignments, types, unknown names, files, --out fields), and located
#      messages (file:line:col) for bad syntax in a launch file;
#   4. --out NAME:PATH.bin saves a __device__ variable's bytes (launch_align4's last).
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-launch.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=tests/ptx/launch_struct.ptx
L=tests/ptx/launch_struct.launch

# 1. the same buffers everywhere, and the expected ones
want_out=$T/want.out want_p=$T/want.p
t=0
while [ $t -lt 48 ]; do
	if [ $t -lt 40 ]; then
		# alpha*t + beta + (1 - 2 + 30) + 2*mat[t % 12] + bias[t & 1] + 1000
		m=0; case $((t % 12)) in 0|5|10) m=1 ;; 11) m=-4 ;; esac
		awk -v t=$t -v m=$m 'BEGIN { printf "%.9g\n", 0.5 * t + 100.25 + 29 + 2 * m + (t % 2 ? 9 : 7) + 1000 }'
		echo $((3 * t + 7)) >>"$want_p"
	else
		echo -1
		echo 5 >>"$want_p"
	fi
	t=$((t + 1))
done >"$want_out"
"$BIN/warpc" $P -o "$T/k.sass" --kernel launch_struct 2>"$T/c.err" || bad "warpc: $(head -1 "$T/c.err")"
for e in --oracle "" --functional listing; do
	prog=$P opt=$e
	[ "$e" = listing ] && prog=$T/k.sass opt=
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $opt "$prog" --launch $L --quiet --out 0.0:"$T/o.txt" --out outp:"$T/p.txt" \
		>"$T/e" 2>&1 && cmp -s "$T/o.txt" "$want_out" && cmp -s "$T/p.txt" "$want_p"; then
		ok
	else
		bad "launch_struct ($e): $(head -2 "$T/e"; diff "$want_out" "$T/o.txt" | head -3; diff "$want_p" "$T/p.txt" | head -3)"
	fi
done

# 1b. the C layout's padding: launch_align4 adds the words at q and q+4 of its 8-byte struct
#     (u16 then u32: the u32 at 4; u8, u16, u32: the u16 at 2, the u32 at 4; zero padding)
layout() {
	for e in --oracle ""; do
		# shellcheck disable=SC2086
		if "$BIN/warpsim" $e $P --kernel launch_align4 --quiet --arg "struct:$1" --arg buf:u32:1 \
			--out 1:"$T/q.txt" >"$T/e" 2>&1 && [ "$(cat "$T/q.txt")" = "$2" ]; then
			ok
		else
			bad "launch_align4 struct:$1 ($e): got '$(cat "$T/q.txt" 2>/dev/null)', want $2; $(head -1 "$T/e")"
		fi
	done
}
layout u16:5,u32:7 12
layout u8:1,u16:2,u32:3 131076
layout u8x3:iota,pad:1,s32:-2 131326

# 2. --const NAME=@PATH in a launch file, relative to it: the matrix as raw bytes
mkdir -p "$T/d"
printf '\000\000\200\077\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200\077\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200\077\000\000\200\300' >"$T/d/mat.bin"
sed 's/^--const mat=.*/--const mat=@mat.bin/' $L >"$T/d/f.launch"
for e in --oracle ""; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $e $P --launch "$T/d/f.launch" --quiet --out 0.0:"$T/o.txt" >"$T/e" 2>&1 &&
	   cmp -s "$T/o.txt" "$want_out"; then
		ok
	else
		bad "--const mat=@mat.bin ($e): $(head -2 "$T/e")"
	fi
done

# 2b. a --const stays for child grids (dynamic parallelism, whose kernels' constant data the SM
#     model writes again): cdp_rec with its factor 10 read from a .const initialised to 1 and set
#     to 10 by the launch leaves what cdp_rec leaves; with the initializer it does not
sed -e 's/^\.visible \.entry cdp_rec(/.const .u32 step = 1;\n&/' -e 's/%r<13>/%r<14>/' \
    -e 's/^\tmad\.lo\.s32 \t%r4, %r1, 10, %r3;/\tld.const.u32 \t%r13, [step];\n\tmad.lo.s32 \t%r4, %r1, %r13, %r3;/' \
    tests/ptx/cdp_rec.ptx >"$T/cdp_step.ptx"
grep -q 'ld.const.u32' "$T/cdp_step.ptx" || bad "cdp_step: the sed did not apply"
for e in --oracle "" --functional; do
	# shellcheck disable=SC2086
	"$BIN/warpsim" $e tests/ptx/cdp_rec.ptx --launch tests/ptx/cdp_rec.launch --quiet --out 0:"$T/c0.txt" >"$T/e" 2>&1 &&
	"$BIN/warpsim" $e "$T/cdp_step.ptx" --launch tests/ptx/cdp_rec.launch --const step=u32:10 --quiet --out 0:"$T/c1.txt" >>"$T/e" 2>&1 &&
	"$BIN/warpsim" $e "$T/cdp_step.ptx" --launch tests/ptx/cdp_rec.launch --quiet --out 0:"$T/c2.txt" >>"$T/e" 2>&1 &&
	cmp -s "$T/c0.txt" "$T/c1.txt" && ! cmp -s "$T/c0.txt" "$T/c2.txt" && ok ||
		bad "cdp_step ($e): $(head -2 "$T/e"; cmp "$T/c0.txt" "$T/c1.txt")"
done

# 3. bad input: refuse STATUS MESSAGE OPTIONS...: every engine exits STATUS with MESSAGE as its
# whole first line of stderr
S="struct:buf:f32:48,s32:40,f32:0.5,f64:100.25,s16:1,-2,30"
refuse() {
	st=$1 msg=$2
	shift 2
	for e in --oracle ""; do
		# shellcheck disable=SC2086
		"$BIN/warpsim" $e $P --quiet "$@" >"$T/r.out" 2>"$T/r.err"
		rc=$?
		if [ $rc = "$st" ] && [ "$(head -1 "$T/r.err")" = "$msg" ]; then
			ok
		else
			bad "$* ($e): exit $rc, got '$(head -1 "$T/r.err")', want '$msg'"
		fi
	done
}
K="--kernel launch_struct"
refuse 2 "warpsim: --arg 0 (struct:buf:f32:4,s32:4,f32:1,f64:2): parameter 0 'p' of kernel 'launch_struct' is 32 bytes, the struct is 24" \
	$K --arg struct:buf:f32:4,s32:4,f32:1,f64:2 --arg u32:1
refuse 2 "warpsim: --arg 0 (struct:u64:5): parameter 0 'q' of kernel 'launch_align4' is aligned to 4 bytes (.align 4), the struct's fields need 8" \
	--kernel launch_align4 --arg struct:u64:5 --arg buf:u32:1
refuse 2 "warpsim: --const mat=f32:1,2: .const variable 'mat' is 48 bytes, the value is 8" \
	$K --arg $S --arg u32:1 --const mat=f32:1,2
refuse 2 "warpsim: --const nope=f32:1: the program has no __constant__ variable 'nope' (a module .const variable)" \
	$K --arg $S --arg u32:1 --const nope=f32:1
refuse 2 "warpsim: --const bias=f32:1,2: .const variable 'bias' is .s32, field 0 (f32:1) is not" \
	$K --arg $S --arg u32:1 --const bias=f32:1,2
refuse 2 "warpsim: --const bias=u64:1: .const variable 'bias' is aligned to 4 bytes, the value's fields need 8" \
	$K --arg $S --arg u32:1 --const bias=u64:1
refuse 2 "warpsim: --const scale=@$T/d/mat.bin: '$T/d/mat.bin' holds more than 4 bytes, expected 4 (the size of .const variable 'scale')" \
	$K --arg $S --arg u32:1 --const scale=@"$T/d/mat.bin"
refuse 2 "warpsim: --arg 0 field 0 (tex:img): no --tex binds a texture 'img'" \
	$K --arg struct:tex:img,s32:40,f32:0.5,f64:1,s16:1,2,3 --arg u32:1
refuse 2 "warpsim: --const outp field 0 (tex:img): no --tex binds a texture 'img'" \
	$K --arg $S --arg u32:1 --const outp=tex:img
# --out of what is no buffer: refused before the run (exit 2)
for o in "0.1:$T/x" "outp.1:$T/x" "c:$T/x"; do
	for e in --oracle ""; do
		# shellcheck disable=SC2086
		"$BIN/warpsim" $e $P --quiet $K --arg $S --arg u32:1 --const outp=buf:u32:48 --out "$o" >"$T/r.out" 2>"$T/r.err"
		rc=$?
		case $o in 0.1*) w="warpsim: --out $o: field 1 of parameter 0 is not a buffer" ;;
		outp.1*) w="warpsim: --out $o: field 1 of --const outp is not a buffer" ;;
		*) w="warpsim: --out c:$T/x: no --const sets 'c' and the program has no module variable 'c' (.global)" ;;
		esac
		[ $rc = 2 ] && [ "$(head -1 "$T/r.err")" = "$w" ] && ok || bad "--out $o ($e): exit $rc, got '$(head -1 "$T/r.err")', want '$w'"
	done
done
# --out NAME of a __device__ variable (cudaMemcpyFromSymbol's): its bytes, .bin only
for e in --oracle ""; do
	# shellcheck disable=SC2086
	if "$BIN/warpsim" $e $P --kernel launch_align4 --quiet --arg struct:u16:5,u32:7 --arg buf:u32:1 \
		--out last:"$T/last.bin" >"$T/e" 2>&1 && [ "$(od -An -tu4 "$T/last.bin" | tr -s ' ')" = " 0 12" ]; then
		ok
	else
		bad "--out last ($e): got '$(od -An -tu4 "$T/last.bin" 2>/dev/null)', want 0 12; $(head -1 "$T/e")"
	fi
done
refuse 2 "warpsim: --out last:$T/last.txt: module variable 'last' has no element type here: its bytes go to a .bin file" \
	--kernel launch_align4 --arg struct:u16:5,u32:7 --arg buf:u32:1 --out last:"$T/last.txt"
refuse 2 "warpsim: --out last.1:$T/l.bin: no --const sets 'last'" \
	--kernel launch_align4 --arg struct:u16:5,u32:7 --arg buf:u32:1 --out last.1:"$T/l.bin"

# syntax: located in a launch file
printf -- '--kernel launch_struct\n--const mat=f32:1\n--const mat=f32:2\n--arg struct:pad:0\n--arg struct:7\n--out 0.x:a\n--arg struct:s32:1,struct:u8:1\n--arg struct:u8x0\n--const =f32:1\n--const outp=struct:u64:1,struct:u8:1\n' >"$T/bad.launch"
"$BIN/warpsim" $P --launch "$T/bad.launch" >"$T/r.out" 2>"$T/r.err"
rc=$?
grep ': error: ' "$T/r.err" >"$T/got"
cat >"$T/want" <<EOF2
$T/bad.launch:3:9: error: --const: expected a variable no other --const sets ('mat' is set already), got 'mat=f32:2'
$T/bad.launch:4:7: error: --arg: expected pad:N with N an integer in 1..65536, got 'struct:pad:0'
$T/bad.launch:5:7: error: --arg: expected FIELD[,FIELD...] with each FIELD TYPE:VALUE, buf:TYPE:COUNT[:INIT], tex:NAME, surf:NAME, TYPExN[:INIT], pad:N or a VALUE after a TYPE:VALUE, got 'struct:7'
$T/bad.launch:6:7: error: --out: expected N[.F]:PATH with N a parameter index, or NAME[.F]:PATH with NAME a --const, got '0.x:a'
$T/bad.launch:7:7: error: --arg: expected no struct: inside a struct (write the inner struct's fields, with pad:N for its tail padding), got 'struct:s32:1,struct:u8:1'
$T/bad.launch:8:7: error: --arg: expected TYPExN with N an integer in 1..65536, got 'struct:u8x0'
$T/bad.launch:9:9: error: --const: expected NAME=FIELD[,FIELD...] or NAME=@PATH with NAME a .const variable, got '=f32:1'
$T/bad.launch:10:9: error: --const: expected no struct: inside a struct (write the inner struct's fields, with pad:N for its tail padding), got 'outp=struct:u64:1,struct:u8:1'
EOF2
[ $rc = 2 ] && cmp -s "$T/got" "$T/want" && ok || bad "bad.launch: exit $rc; $(diff "$T/want" "$T/got")"

echo "run-launch: $pass passed, $fail failed"
[ $fail = 0 ]
