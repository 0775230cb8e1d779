#!/bin/sh
# docs-excerpts.sh - the command output that README.md, docs/report.md and docs/explore.md's
# head (tests/explore/head.md) show is what the commands print today. make docs-check runs it.
# Usage: sh tests/docs-excerpts.sh [BIN=DIR] [FILE.md ...]   (from the top directory)
#
# The rules (tests/README.md, "Output quoted in the documents", says them in full):
#   - an indented block whose first line starts with `$ ` is a session: each `$ ` command (with
#     its `\` lines) is run, and the lines under it must be lines of its output (2>&1), in the
#     same order; others may be left out. A line `...` is not compared; `...` inside a line is
#     any text. Trailing blanks do not count. A command that shows nothing must exit 0.
#   - `<!-- docs-check: CMD -->` before an indented block: the block is an excerpt of CMD's.
#   - `<!-- docs-check: CMD shows: W1 W2 ... -->` before a paragraph or block: each word W is a
#     word of CMD's output and of the paragraph (figures quoted in sentences).
#   - `<!-- docs-check: skip -->` before a `$ ` block: not run.
# A document's commands run in its order in one scratch directory whose entries link to the
# tree's top-level ones (bin to BIN). Exit status 1 when a line is stale: each is named with
# the output line most like it.
set -u
BIN=bin
files=
for a in "$@"; do
	case $a in
	BIN=*) BIN=${a#BIN=} ;;
	*=*) ;;
	*) files="$files $a" ;;
	esac
done
[ -n "$files" ] || files=" README.md docs/report.md tests/explore/head.md"
export LC_ALL=C
top=$(pwd)
bin=$(cd "$BIN" 2>/dev/null && pwd) || { echo "docs-excerpts: no directory $BIN" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/docs-excerpts.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# parse FILE into checks $T/p/N.{kind,where,cmd,exp}: kind excerpt (exp: LINE<TAB>text per
# excerpt line) or words (exp: the words, then a line "--", then the paragraph's text)
parse() {
	awk -v dir="$T/p" -v file="$1" '
	function emit(kind, where, cmd, xp,   f) {
		f = sprintf("%s/%04d", dir, ++n)
		print kind > (f ".kind"); close(f ".kind")
		print where > (f ".where"); close(f ".where")
		printf "%s\n", cmd > (f ".cmd"); close(f ".cmd")
		printf "%s", xp > (f ".exp"); close(f ".exp")
	}
	function bad(line, msg) {
		printf "docs-excerpts: %s:%d: %s\n", file, line, msg > "/dev/stderr"; err = 1
	}
	# a unit (paragraph or block) ended: apply the comments before it, or run its $ lines
	function unit_end(   i, k, s, cmd, xp, where, open, body, words) {
		if (nu == 0)
			return
		for (k = 1; k <= np; k++) {
			if (pk[k] == "skip")
				continue
			if (pw[k] != "") {
				body = ""
				for (i = 1; i <= nu; i++)
					body = body ul[i] "\n"
				emit("words", file ":" pl[k], pc[k], pw[k] "\n--\n" body)
			} else if (!ublock || substr(ul[1], 5, 2) == "$ ")
				bad(pl[k], "docs-check: CMD without shows: needs an indented block of output")
			else {
				xp = ""
				for (i = 1; i <= nu; i++)
					xp = xp un[i] "\t" substr(ul[i], 5) "\n"
				emit("excerpt", file ":" pl[k], pc[k], xp)
			}
		}
		if (ublock && substr(ul[1], 5, 2) == "$ " && !(np == 1 && pk[1] == "skip")) {
			open = 0
			for (i = 1; i <= nu; i++) {
				s = substr(ul[i], 5)
				if (open) {
					cmd = cmd "\n" s
				} else if (substr(s, 1, 2) == "$ ") {
					if (where != "")
						emit("excerpt", where, cmd, xp)
					cmd = substr(s, 3); xp = ""; where = file ":" un[i]
				} else {
					xp = xp un[i] "\t" s "\n"
				}
				open = (open || substr(s, 1, 2) == "$ ") && s ~ /\\$/
			}
			emit("excerpt", where, cmd, xp)
		}
		nu = np = 0
	}
	BEGIN { prevblank = 1 }
	/^```/ { unit_end(); fence = !fence; prevblank = 1; next }
	fence { next }
	incomment || /^<!-- *docs-check/ {
		unit_end()
		text = incomment ? text " " $0 : $0
		if (!incomment)
			cline = NR
		incomment = index($0, "-->") == 0
		if (incomment)
			next
		sub(/^<!-- *docs-check *:? */, "", text); sub(/ *-->.*$/, "", text)
		gsub(/[ \t]+/, " ", text)
		np++; pl[np] = cline; pk[np] = ""; pw[np] = ""
		if (text == "skip")
			pk[np] = "skip"
		else if ((i = index(text, " shows: ")) > 0) {
			pc[np] = substr(text, 1, i - 1); pw[np] = substr(text, i + 8)
		} else
			pc[np] = text
		if (pc[np] == "" && pk[np] != "skip")
			bad(cline, "docs-check comment without a command")
		prevblank = 1
		next
	}
	/^[ \t]*$/ { unit_end(); prevblank = 1; next }
	{
		if (nu == 0)
			ublock = prevblank && /^    /
		ul[++nu] = $0; un[nu] = NR; prevblank = 0
	}
	END { unit_end(); if (np) bad(NR, "docs-check comment at the end of the file"); exit err }
	' "$1"
}

# compare: check $1 (prefix) against its output $1.out and status $1.rc; prints what is stale
compare() {
	KIND=$(cat "$1.kind") WHERE=$(cat "$1.where") RC=$(cat "$1.rc") CMD=$(cat "$1.cmd") awk '
	BEGIN {
		kind = ENVIRON["KIND"]; where = ENVIRON["WHERE"]; rc = ENVIRON["RC"]
		cmd = ENVIRON["CMD"]; gsub(/[ \t]*\\?\n[ \t]*/, " ", cmd)
	}
	function trim(s) { sub(/[ \t]+$/, "", s); return s }
	# does output line o match excerpt line e (a "..." in e stands for any text)?
	function matches(e, o,   np, p, i, at, k) {
		if (index(e, "...") == 0)
			return e == o
		np = split(e, p, /\.\.\./)
		if (substr(o, 1, length(p[1])) != p[1])
			return 0
		at = length(p[1]) + 1
		for (i = 2; i < np; i++) {
			k = index(substr(o, at), p[i])
			if (k == 0)
				return 0
			at += k - 1 + length(p[i])
		}
		return length(o) - at + 1 >= length(p[np]) &&
			substr(o, length(o) - length(p[np]) + 1) == p[np]
	}
	# how alike two lines are: blank-separated fields equal at the same position
	function alike(a, b,   fa, fb, i, na, c) {
		na = split(a, fa); split(b, fb); c = 0
		for (i = 1; i <= na; i++)
			if (fa[i] == fb[i])
				c++
		return c
	}
	function words(s, w,   n, t, i, x) {
		n = split(s, t, /[ \t\n(),;:`*"\[\]]+/)
		for (i = 1; i <= n; i++) {
			x = t[i]; sub(/\.$/, "", x)
			if (x != "")
				w[x] = 1
			if (sub(/^\+/, "", x) && x != "")
				w[x] = 1
		}
	}
	FILENAME ~ /\.out$/ { out[++no] = trim($0); next }
	kind == "words" && !inbody { if ($0 == "--") inbody = 1; else want = want " " $0; next }
	kind == "words" { body = body $0 "\n"; next }
	{ tab = index($0, "\t"); eline[++ne] = substr($0, 1, tab - 1)
	  etext[ne] = trim(substr($0, tab + 1)) }
	END {
		head = sprintf("%s: `%s`", where, cmd)
		if (kind == "words") {
			for (i = 1; i <= no; i++)
				all = all out[i] "\n"
			words(all, ow); words(body, bw)
			n = split(want, w, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (w[i] == "")
					continue
				if (!(w[i] in ow))
					printf "%s does not print %s\n", head, w[i]
				if (!(w[i] in bw))
					printf "%s: %s is not in the text under the comment\n", where, w[i]
			}
			exit
		}
		j = 1; shown = 0
		for (i = 1; i <= ne; i++) {
			if (etext[i] ~ /^[ \t]*\.\.\.$/)
				continue
			shown++
			for (k = j; k <= no && !matches(etext[i], out[k]); k++)
				;
			if (k <= no) {
				j = k + 1
				continue
			}
			if (!stale++)
				printf "%s printed something else (exit status %d):\n", head, rc
			best = 0; bk = 0
			for (k = (j <= no ? j : 1); k <= no; k++)
				if ((s = alike(etext[i], out[k])) > best) {
					best = s; bk = k
				}
			printf "  line %d shows:  %s\n", eline[i], etext[i]
			if (bk)
				printf "  output line %d:  %s\n", bk, out[bk]
			else {
				printf "  no output line like it; the output from line %d:\n", j
				for (k = j; k <= no && k < j + 5; k++)
					printf "  %s\n", out[k]
			}
		}
		if (shown == 0 && rc != 0) {
			printf "%s exited with status %d (it shows no output, so it must succeed):\n",
				head, rc
			for (k = 1; k <= no && k <= 10; k++)
				printf "  %s\n", out[k]
		}
	}' "$1.exp" "$1.out"
}

bad=0 nchecks=0
for f in $files; do
	rm -rf "$T/p" "$T/run"
	mkdir "$T/p" "$T/run" || exit 1
	parse "$f" || { bad=1; continue; }
	for e in "$top"/*; do
		[ "${e##*/}" = bin ] || ln -s "$e" "$T/run/${e##*/}"
	done
	ln -s "$bin" "$T/run/bin"
	for c in "$T"/p/*.kind; do
		[ -e "$c" ] || continue
		c=${c%.kind}
		(cd "$T/run" && sh -c "$(cat "$c.cmd")") > "$c.out" 2>&1 </dev/null
		echo $? > "$c.rc"
		compare "$c" > "$c.stale"
		if [ -s "$c.stale" ]; then
			cat "$c.stale" >&2
			bad=1
		fi
		nchecks=$((nchecks + 1))
	done
done
[ $bad = 0 ] && echo "docs-excerpts: $nchecks checks of quoted output pass in ${files# }"
exit $bad
