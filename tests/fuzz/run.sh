#!/bin/sh
# run.sh [SECONDS] - build every libFuzzer target tests/fuzz/fuzz_NAME.c with clang
# (-fsanitize=fuzzer,address,undefined) and run each for SECONDS (default 60); `make fuzz`
# calls it. A target names the module directories it needs in a "fuzz-sources:" comment
# line; without one, the modules of its #include "MODULE/..." lines are used. Seeds: tests/fuzz/seeds-NAME/ when present; the listing target also uses tests/listings
# (hand-written, real cuobjdump and bad listings); the PTX target also uses tests/ptx and
# tests/bad-ptx, the launch target tests/ptx/multi (several launches). Findings land in build-fuzz/artifacts/; turn each into a regression test
# (tests/bad-ptx or a unit test). Exits non-zero when a target crashes, leaks or hangs.
# FUZZ_ONLY=NAME runs that target only.
secs=${1:-60}
CLANG=${CLANG:-clang}
out=build-fuzz
cd "$(dirname "$0")/../.." || exit 1
command -v "$CLANG" >/dev/null 2>&1 || { echo "fuzz: clang not found" >&2; exit 1; }
mkdir -p $out/artifacts || exit 1
FLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
CPP="-std=c11 -D_POSIX_C_SOURCE=200809L -DWARPSIM_VERSION=\"fuzz\" -I."
status=0
for src in tests/fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	[ -z "$FUZZ_ONLY" ] || [ "$FUZZ_ONLY" = "$name" ] || continue
	mods=$(sed -n 's/.*fuzz-sources:[[:space:]]*//p' "$src" | head -1)
	[ -n "$mods" ] || mods=$(sed -n 's/^#include "\(isa\|frontend\|arith\|device\|backend\|sim\|report\|oracle\)\/.*/\1/p' "$src" | sort -u)
	objs=""
	inc=""
	for m in $mods; do
		gen=$out/gen/$m
		mkdir -p "$gen" $out/obj/$m || exit 1
		inc="$inc -I$gen"
		for y in $m/*.y; do
			[ -f "$y" ] || continue
			b=$(basename "$y" .y)
			bison --defines=$gen/$b.tab.h -o $gen/$b.tab.c "$y" || exit 1
		done
		for l in $m/*.l; do
			[ -f "$l" ] || continue
			b=$(basename "$l" .l)
			flex --header-file=$gen/$b.lex.h -o $gen/$b.lex.c "$l" || exit 1
		done
	done
	for m in $mods; do
		for c in $m/*.c $out/gen/$m/*.c; do
			[ -f "$c" ] || continue
			o=$out/obj/$m/$(basename "$c" .c).o
			$CLANG $CPP $inc $FLAGS -fsanitize=fuzzer-no-link -w -c "$c" -o "$o" || exit 1
			objs="$objs $o"
		done
	done
	if ! $CLANG $CPP $inc $FLAGS -fsanitize=fuzzer "$src" $objs -lm -lz -o $out/fuzz_$name; then
		echo "fuzz: $name does not build" >&2
		status=1
		continue
	fi
	corpus=$out/corpus-$name
	mkdir -p "$corpus"
	seeds=""
	[ -d tests/fuzz/seeds-$name ] && seeds="tests/fuzz/seeds-$name"
	[ "$name" = ptx ] && seeds="$seeds tests/ptx tests/bad-ptx"
	[ "$name" = launch ] && seeds="$seeds tests/ptx/multi"
	[ "$name" = listing ] && seeds="$seeds tests/listings tests/listings/cuobjdump tests/listings/bad"
	echo "fuzz: $name for ${secs}s (seeds: ${seeds:-none})"
	ASAN_OPTIONS=detect_leaks=1 $out/fuzz_$name -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix=$out/artifacts/$name- "$corpus" $seeds >$out/fuzz_$name.log 2>&1
	rc=$?
	tail -12 $out/fuzz_$name.log | grep -E 'stat::number_of_executed_units|stat::new_units_added|ERROR|SUMMARY' 
	if [ $rc -ne 0 ]; then
		echo "fuzz: $name FAILED (status $rc), see $out/fuzz_$name.log and $out/artifacts/" >&2
		status=1
	fi
done
exit $status
