#!/bin/sh
# run-layers.sh - the project's calls go one way (README.md "Layout", docs/backend.md "Files"):
#   (1) folders: every symbol an object file of folder F uses from another folder's object,
#       and every #include "G/..." in F's sources, names a folder F may depend on:
#         isa, frontend, opt nothing of ours (opt: the option engine)
#         ptxisa             frontend, isa (a header: the PTX-to-ISA type and rounding maps)
#         arith, device      isa
#         backend            ptxisa, frontend, isa, opt
#         sim                isa, arith, device, opt
#         report             sim
#         oracle             ptxisa, frontend, arith, device
#         cli                oracle, report, backend (the programs' option tables)
#       and what those depend on (tools/ sits on top and is not checked);
#   (2) files of backend/: no two call each other and no longer cycle exists (a file calls
#       only files below it: util, layout, cfg/dom, sel, the isel families, isel.c, the
#       passes, backend.c). Pairs of files that call each other in other folders are
#       counted and printed, not failed.
# Who calls whom comes from the objects (nm): file A calls file B when A's object has an
# undefined symbol that B's object defines (functions and data alike). The checks also run
# on the real calls plus one planted back-call of each kind, and must fail there.
# Env: BUILD (the objects; `make tests` has built them). Exits non-zero on any violation.
set -u
BUILD=${BUILD:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
TMP=$BUILD/tests/run-layers
mkdir -p "$TMP"
pass=0
fail=0

FOLDERS="opt isa frontend ptxisa arith device backend sim report oracle cli"
deps() {
	case $1 in
	isa|frontend|opt) echo "" ;;
	ptxisa) echo "frontend isa" ;;
	arith|device) echo "isa" ;;
	backend) echo "ptxisa frontend isa opt" ;;
	sim) echo "isa arith device opt" ;;
	report) echo "sim" ;;
	oracle) echo "ptxisa frontend arith device" ;;
	cli) echo "oracle report backend" ;;
	esac
}
INCLUDE_EXCEPTIONS=""

# the transitive closure of deps, one "F G" line per allowed dependency
: > "$TMP/allowed"
for f in $FOLDERS; do
	all=$(deps "$f")
	for round in 1 2 3 4; do
		for g in $all; do
			all="$all $(deps "$g")"
		done
	done
	for g in $(echo $all | tr ' ' '\n' | sort -u); do
		echo "$f $g" >> "$TMP/allowed"
	done
done

# ------------------------------------------------------------------ the objects
# each source file's object (a stale object of a removed source does not count)
: > "$TMP/objs"
for f in $FOLDERS; do
	for src in "$ROOT/$f"/*.c "$ROOT/$f"/*.y "$ROOT/$f"/*.l; do
		[ -f "$src" ] || continue
		name=$(basename "$src")
		case $name in
		*.c) obj=$BUILD/$f/${name%.c}.o ;;
		*.y) obj=$BUILD/gen/$f/${name%.y}.tab.o ;;
		*.l) obj=$BUILD/gen/$f/${name%.l}.lex.o ;;
		esac
		if [ ! -f "$obj" ]; then
			echo "FAIL no object $obj for $f/$name (run make tests first)"
			fail=$((fail + 1))
			continue
		fi
		echo "$f/${name%.*} $obj" >> "$TMP/objs"
	done
done
# "D file symbol" for definitions, "U file symbol" for uses (one nm over every object)
nm -A $(awk '{ print $2 }' "$TMP/objs") | awk 'FILENAME == ARGV[1] { id[$2] = $1; next }
	{ i = index($0, ":"); o = substr($0, 1, i - 1); n = split(substr($0, i + 1), x, " ")
	  if (n == 2 && x[1] == "U") print "U", id[o], x[2]
	  else if (n == 3 && x[2] ~ /^[TDBRCGSV]$/) print "D", id[o], x[3] }' "$TMP/objs" - > "$TMP/syms"
# "caller callee symbol" for every use of another file's symbol
awk '$1 == "D" { def[$3] = $2; next }
     ($3 in def) && def[$3] != $2 { print $2, def[$3], $3 }' "$TMP/syms" "$TMP/syms" |
	sort -u > "$TMP/calls"

# ------------------------------------------------------------------ (1) folders
# check_folders CALLS [quiet]: the folder direction of the calls in CALLS and of the includes
check_folders() {
	awk 'FILENAME == ARGV[1] { ok[$1 " " $2] = 1; next }
	     { split($1, a, "/"); split($2, b, "/")
	       if (a[1] != b[1] && !ok[a[1] " " b[1]])
	           printf "FAIL %s calls %s (%s): %s/ may not depend on %s/\n", $1, $2, $3, a[1], b[1] }' \
		"$TMP/allowed" "$1" > "$TMP/folders"
	# "F G file" for every #include "G/..." in folder F's sources
	for f in $FOLDERS; do
		for src in "$ROOT/$f"/*.c "$ROOT/$f"/*.h "$ROOT/$f"/*.y "$ROOT/$f"/*.l; do
			[ -f "$src" ] && echo "$src"
		done
	done | xargs grep -H '^#[ 	]*include[ 	]*"[a-z0-9_]*/' |
	sed 's|^'"$ROOT"'/\([a-z0-9_]*\)/\([^:]*\):#[ 	]*include[ 	]*"\([a-z0-9_]*\)/.*|\1 \3 \2|' |
	awk -v exc=" $INCLUDE_EXCEPTIONS " 'FILENAME == ARGV[1] { ok[$1 " " $2] = 1; next }
		$1 != $2 && !ok[$1 " " $2] && !seen[$0]++ {
			if (index(exc, " " $1 ":" $2 " "))
				printf "note: %s/%s includes %s/ (temporary exception)\n", $1, $3, $2
			else
				printf "FAIL %s/%s includes %s/: %s/ may not depend on %s/\n", $1, $3, $2, $1, $2
		}' "$TMP/allowed" - >> "$TMP/folders"
	[ "${2:-}" = quiet ] || grep '^note' "$TMP/folders"
	grep '^FAIL' "$TMP/folders"
	! grep -q '^FAIL' "$TMP/folders"
}

# ------------------------------------------------------------------ (2) files
# check_files CALLS [quiet]: the file edges inside each folder, the pairs of files that call
# each other, and the files on a cycle. Only backend/ fails; the other folders' pairs are
# printed.
check_files() {
	bad=0
	awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] == b[1]) print $1, $2 }' "$1" |
		sort -u > "$TMP/edges"
	for f in $FOLDERS; do
		grep "^$f/" "$TMP/edges" > "$TMP/edges.$f"
		pairs=$(awk '{ e[$1 " " $2] = 1 }
		             END { for (k in e) { split(k, x, " ")
		                   if ((x[2] " " x[1]) in e && x[1] < x[2]) print x[1], x[2] } }' \
			"$TMP/edges.$f" | sort)
		cyc=$(awk '{ node[$1]; node[$2]; from[NR] = $1; to[NR] = $2 }
		           END { # drop files that call no remaining file or that no remaining file
		                 # calls, until none is left: what remains lies on a cycle
		                 do { changed = 0
		                      for (n in node) { o = i = 0
		                          for (e = 1; e <= NR; e++) {
		                              if (from[e] == n && to[e] in node) o++
		                              if (to[e] == n && from[e] in node) i++
		                          }
		                          if (!o || !i) { drop[n]; changed = 1 }
		                      }
		                      for (n in drop) delete node[n]
		                      split("", drop)
		                 } while (changed)
		                 for (n in node) printf "%s ", n }' "$TMP/edges.$f")
		if [ "$f" != backend ]; then
			[ -n "$pairs" ] && [ "${2:-}" != quiet ] &&
				echo "note: $f/ has $(echo "$pairs" | wc -l) pairs of files that call each other" \
				     "(not checked):" $(echo "$pairs" | sed 's/ /<->/')
			continue
		fi
		[ -z "$pairs" ] && [ -z "$cyc" ] && continue
		echo "FAIL backend/ files call each other:"
		echo "$pairs" | while read -r x y; do
			[ -n "$x" ] || continue
			echo "  $x <-> $y:" \
			     $(awk -v a="$x" -v b="$y" '$1 == a && $2 == b { print $3 }' "$1") "/" \
			     $(awk -v a="$y" -v b="$x" '$1 == a && $2 == b { print $3 }' "$1")
		done
		[ -n "$cyc" ] && echo "  on a cycle: $cyc"
		bad=1
	done
	return $bad
}

# ------------------------------------------------------------------ the checks
if check_folders "$TMP/calls"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
if check_files "$TMP/calls"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
echo "run-layers: $(wc -l < "$TMP/calls") uses of another file's symbol," \
     "$(grep -c '^backend/' "$TMP/edges") backend file edges"
# and each check must catch a planted back-call: the bottom of backend/ calling the
# selection driver (a pair), a cycle through three backend files, isa/ calling the translator
plant() {
	{ cat "$TMP/calls"; printf '%s\n' "$@"; } > "$TMP/planted"
	if $check "$TMP/planted" quiet > /dev/null; then
		echo "FAIL $check accepts a planted back-call: $*"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}
check=check_files
plant "backend/util backend/isel be_isel"
plant "backend/cfg backend/isel be_isel"
check=check_folders
plant "isa/isa backend/backend be_translate"

echo "run-layers: $pass passed, $fail failed"
[ $fail -eq 0 ]
