#!/bin/sh
# tests/real/diff.sh DIR [SET...] - `make real-diff`: every kernel of the real-world PTX under
# DIR (or under DIR/SET for each SET) run on the SM model and on the oracle, with a launch made
# from its parameter list, and the two engines' output buffers compared byte for byte.
#
# The launch: one CTA of 64 threads (the kernel's .reqntid when it has one, at most its
# .maxntid); a 64-bit parameter is a buffer of 8,192 u32 of random values 0..64 (a pointer,
# most often: small values keep loaded indices in range), a 32-, 16- or 8-bit integer 32, 5
# or 3, a float 0.5, a struct its size of zero bytes; 8,192 bytes of dynamic shared memory
# when the module declares an extern .shared array; --shared-per-sm 262144 and at most
# 200,000 warp instructions. A kernel with a texture, surface or sampler parameter is skipped.
# Each kernel then has one of these verdicts:
#   agree     both engines finish and every buffer is the same
#   order     they differ, and so does the oracle's own run with its threads and CTAs in
#             descending order (--oracle-order reverse): the output depends on the order of
#             the threads (a race, or code that assumes a warp runs in lock-step, as the
#             CUDA 2.2 SDK's warp-synchronous reductions do); not a verdict on the translation
#   racy      they differ, and so do the SM model's own runs under other schedules (lrr, the
#             predication thresholds 0 and inf, kepler.cfg, --functional): the output depends
#             on the order of the threads (a race on the made-up data) or on what PTX leaves
#             undefined; not a verdict on the translation
#   DIFFER    they differ, and every SM-model run gives the same output: look at it (a race
#             within a warp, undefined behaviour both engines document, or a bug)
#   ONE-FAILS one engine stops with an error and the other finishes: look at it
#   both-fail both stop (the made-up data sends an address out of range, a texture is unbound)
#   skipped   a texture, surface or sampler parameter
# One line per DIFFER and ONE-FAILS kernel, then the totals per set. Nothing is fetched and
# nothing of the corpus is kept (tests/real/README.md). Env: BIN (warpsim's folder); SIM, more
# arguments of every SM-model run (SIM="--config sim/configs/kepler.cfg": kepler.cfg's
# translator rules and timing; the other schedules are then tried on top of it).
set -u
DIR=${1:?usage: diff.sh DIR [SET...]}
shift
BIN=${BIN:-bin}
[ -d "$DIR" ] || { echo "diff.sh: '$DIR' is not a folder" >&2; exit 2; }
ws=$(cd "$BIN" && pwd)/warpsim
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/real-diff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
if [ $# -gt 0 ]; then sets=$*; else sets=$(cd "$DIR" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | LC_ALL=C sort); fi
: > "$tmp/verdicts"

# kernels FILE: one line per .entry: NAME<TAB>BLOCK<TAB>ARGS (space-separated --arg values,
# or "skip")
kernels() {
	awk '
	function flush(   i, n, a, args, p, m, blk) {
		if (name == "")
			return
		n = split(params, a, ",")
		args = ""
		for (i = 1; i <= n; i++) {
			p = a[i]
			if (p ~ /^[ \t]*$/)
				continue
			if (p ~ /\.(texref|surfref|samplerref)/) { args = "skip"; break }
			if (match(p, /\[[0-9]+\]/))
				m = "struct:pad:" substr(p, RSTART + 1, RLENGTH - 2)
			else if (p ~ /\.(u64|b64|s64)/) m = "buf:u32:8192:random:" (i + 2) ":0:64"
			else if (p ~ /\.(u32|b32|s32)/) m = "u32:32"
			else if (p ~ /\.(u16|b16|s16)/) m = "u16:5"
			else if (p ~ /\.(u8|b8|s8)/) m = "u8:3"
			else if (p ~ /\.f32/) m = "f32:0.5"
			else if (p ~ /\.f64/) m = "f64:0.5"
			else { args = "skip"; break }
			args = args (args == "" ? "" : " ") m
		}
		blk = req != "" ? req : (max != "" && max + 0 < 64 ? max : 64)
		printf "%s\t%s\t%s\n", name, blk, args == "" ? "-" : args
		name = ""
	}
	# the header of an entry: from ".entry NAME(" to the "{" of its body
	inhead && /\{/ {
		s = $0; sub(/\{.*/, "", s); head = head " " s
		if (match(head, /\([^)]*\)/))
			params = substr(head, RSTART + 1, RLENGTH - 2)
		req = max = ""
		if (match(head, /\.reqntid[ \t]+[0-9, \t]+/)) {
			r = substr(head, RSTART + 8, RLENGTH - 8); gsub(/[ \t]/, "", r); req = r
		}
		if (match(head, /\.maxntid[ \t]+[0-9, \t]+/)) {
			r = substr(head, RSTART + 8, RLENGTH - 8); gsub(/[ \t]/, "", r)
			k = split(r, d, ","); max = 1
			for (j = 1; j <= k; j++) max *= d[j]
		}
		inhead = 0; flush(); next
	}
	inhead { head = head " " $0; next }
	/\.entry[ \t]+[A-Za-z_$.%][A-Za-z0-9_$.%]*/ {
		match($0, /\.entry[ \t]+[A-Za-z_$.%][A-Za-z0-9_$.%]*/)
		s = substr($0, RSTART, RLENGTH); sub(/\.entry[ \t]+/, "", s); name = s
		head = substr($0, RSTART + RLENGTH); inhead = 1; params = ""
		if (head ~ /\{/) {
			s = head; sub(/\{.*/, "", s); head = s
			if (match(head, /\([^)]*\)/)) params = substr(head, RSTART + 1, RLENGTH - 2)
			req = max = ""; inhead = 0; flush()
		}
	}' "$1"
}

# run OUT FILE KERNEL BLOCK ARGS EXTRA...: one run into OUT (a digest of every buffer, or
# "error: the first line"), the buffers' parameter indexes from ARGS
run() {
	out=$1 f=$2 k=$3 blk=$4 args=$5
	shift 5
	set -- "$@" --kernel "$k" --grid 1 --block "$blk" --max-warp-insts 200000 --quiet --shared-per-sm 262144
	grep -q '\.extern[[:space:]]*\.shared' "$f" && set -- "$@" --shared-bytes 8192
	i=0; bufs=""
	for a in $args; do
		[ "$a" = - ] && continue
		set -- "$@" --arg "$a"
		case $a in buf:*) set -- "$@" --out "$i:$tmp/b$i.bin"; bufs="$bufs $i" ;; esac
		i=$((i + 1))
	done
	rm -f "$tmp"/b*.bin
	if timeout 120 "$ws" "$f" "$@" > /dev/null 2> "$tmp/err"; then
		( for b in $bufs; do cat "$tmp/b$b.bin"; done ) | cksum > "$out"
	else
		printf 'error: %s\n' "$(head -n 1 "$tmp/err" | cut -c 1-160)" > "$out"
	fi
}

for set in $sets; do
	[ -d "$DIR/$set" ] || { echo "diff.sh: no folder $DIR/$set" >&2; exit 2; }
	for f in $(find "$DIR/$set" -maxdepth 1 -name '*.ptx' | LC_ALL=C sort); do
		kernels "$f" > "$tmp/kernels"
		while IFS="	" read -r k blk args; do
			if [ "$args" = skip ]; then echo "$set skipped" >> "$tmp/verdicts"; continue; fi
			run "$tmp/o" "$f" "$k" "$blk" "$args" --oracle
			# shellcheck disable=SC2086
			run "$tmp/s" "$f" "$k" "$blk" "$args" ${SIM:-}
			oe=0; se=0
			grep -q '^error:' "$tmp/o" && oe=1
			grep -q '^error:' "$tmp/s" && se=1
			if [ $oe = 1 ] && [ $se = 1 ]; then v=both-fail
			elif [ $oe = 1 ] || [ $se = 1 ]; then v=ONE-FAILS
			elif cmp -s "$tmp/o" "$tmp/s"; then v=agree
			else
				v=DIFFER
				run "$tmp/x" "$f" "$k" "$blk" "$args" --oracle --oracle-order reverse
				cmp -s "$tmp/x" "$tmp/o" || v=order
				[ $v = order ] || for x in "--scheduler lrr" "--predicate-max 0 --predicate-max-uniform 0" \
				         "--predicate-max inf --predicate-max-uniform inf" \
				         "--config $top/sim/configs/kepler.cfg" "--functional"; do
					# shellcheck disable=SC2086
					run "$tmp/x" "$f" "$k" "$blk" "$args" ${SIM:-} $x
					cmp -s "$tmp/x" "$tmp/s" || { v=racy; break; }
				done
			fi
			echo "$set $v" >> "$tmp/verdicts"
			case $v in
			DIFFER) printf '%s %s %s: DIFFER (every SM-model run the same)\n' "$set" "${f##*/}" "$k" ;;
			ONE-FAILS)
				if [ $oe = 1 ]; then printf '%s %s %s: ONE-FAILS: oracle: %s\n' "$set" "${f##*/}" "$k" "$(cut -c 8- "$tmp/o")"
				else printf '%s %s %s: ONE-FAILS: SM model: %s\n' "$set" "${f##*/}" "$k" "$(cut -c 8- "$tmp/s")"; fi ;;
			esac
		done < "$tmp/kernels"
	done
done
echo
awk '{ n[$1]++; c[$1 " " $2]++; t[$2]++; all++ }
     END {
	printf "%-24s %7s %7s %7s %7s %7s %9s %9s %7s\n", "set", "kernels", "agree", "order", "racy", "DIFFER", "ONE-FAILS", "both-fail", "skipped"
	for (s in n)
		printf "%-24s %7d %7d %7d %7d %7d %9d %9d %7d\n", s, n[s], c[s " agree"], c[s " order"], c[s " racy"], c[s " DIFFER"], c[s " ONE-FAILS"], c[s " both-fail"], c[s " skipped"] | "LC_ALL=C sort"
	close("LC_ALL=C sort")
	printf "%-24s %7d %7d %7d %7d %7d %9d %9d %7d\n", "all", all, t["agree"], t["order"], t["racy"], t["DIFFER"], t["ONE-FAILS"], t["both-fail"], t["skipped"]
     }' "$tmp/verdicts"
