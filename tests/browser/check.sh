#!/bin/sh
# check.sh - make check-browser (opt-in, issue 18 part 5): warpsim --report's page opened in a
# real browser, headless Chromium (Debian's chromium package, /usr/bin/chromium), for each
# example kernel, a program linked from two PTX files (tests/ptx/link/xa.ptx + xb.ptx, a
# source table per file) and a run of two launches (tests/ptx/multi/reduce.launch: a card per
# branch of both kernels, a source part per kernel): it renders, its script ran without an error (the page catches window.onerror
# into #status) and the DOM holds every branch card warpc --explain lists. A copy of the page
# with a broken script must show the error (so the check can fail). With PNG, also a
# screenshot of the first page (make report-screenshot: docs/img/report.png).
# Usage: sh tests/browser/check.sh BIN [PNG]
BIN=${1:-bin}
PNG=$2
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
T=$(mktemp -d "${TMPDIR:-/tmp}/check-browser.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

if [ ! -x "$CHROMIUM" ]; then
	echo "check-browser: $CHROMIUM is missing: sudo apt-get install -y chromium" >&2
	exit 1
fi
# headless, no GPU, no sandbox (root in a container has none), a private profile; the virtual
# time budget lets the page's script run before the DOM is taken
browse() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/profile" --virtual-time-budget=5000 "$@" 2>> "$T/chromium.log"
}
status() { grep -o '<p id="status"[^>]*>' "$1"; }

case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
ln -s "$(pwd)/examples" "$T/examples"      # the page shows the command as a user types it
ln -s "$(pwd)/tests/ptx/link" "$T/link"
ln -s "$(pwd)/tests/ptx/multi" "$T/multi"
first=
# NAME|PTX FILES|OPTIONS (the kernels explained: every kernel of the module, or --kernel K...)
for item in "hammocks|examples/hammocks.ptx|--launch examples/hammocks.launch" \
	"divergence|examples/divergence.ptx|--launch examples/divergence.launch" \
	"linked|link/xa.ptx link/xb.ptx|--grid 1 --block 64 --arg buf:u32:64" \
	"launches|multi/multi.ptx|--launch multi/reduce.launch --out part:part.bin --out sum:sum.bin|reduce_pass1 reduce_pass2"; do
	name=${item%%|*} rest=${item#*|}
	files=${rest%%|*} opts=${rest#*|} kernels=
	case $opts in *'|'*) kernels=${opts#*|} opts=${opts%%|*} ;; esac
	[ -f "$T/${files%% *}" ] || continue
	P="$T/$name.html"
	# shellcheck disable=SC2086
	if ! (cd "$T" && "$BIN/warpsim" $files $opts --quiet --report $name.html -j 2) 2> "$T/err"; then
		bad "$name: warpsim --report failed: $(head -3 "$T/err")"
		continue
	fi
	[ -n "$first" ] || first=$P
	# shellcheck disable=SC2086
	if [ -n "$kernels" ]; then
		n=0
		for k in $kernels; do
			n=$((n + $(cd "$T" && "$BIN/warpc" --explain --kernel "$k" $files | grep -c '^  #[0-9]')))
		done
	else
		n=$(cd "$T" && "$BIN/warpc" --explain $files | grep -c '^  #[0-9]')
	fi
	browse --dump-dom "file://$P" > "$T/$name.dom"
	s=$(status "$T/$name.dom")
	case $s in
	*'data-ready="yes"'*'data-errors="0"'*) ok ;;
	*'data-errors="0"'*'data-ready="yes"'*) ok ;;
	*) bad "$name: the page's script did not run cleanly: ${s:-no #status in the DOM}" ;;
	esac
	echo "$s" | grep -q "data-cards=\"$n\".*data-cards-seen=\"$n\"" && ok ||
		bad "$name: $n branch cards expected, the browser saw: $s"
	for i in $(seq 1 "$n"); do
		grep -q "<div class=\"card [a-z]*\" id=\"b$i\">" "$T/$name.dom" || bad "$name: card #$i missing"
	done
	grep -q '<img class="pic" alt="the warp timeline" src="data:image/svg+xml;base64,' "$T/$name.dom" &&
		grep -q '<img class="pic" alt="the sweep chart" src="data:image/svg+xml;base64,' "$T/$name.dom" &&
		ok || bad "$name: the two pictures"
	echo "check-browser: $name: $n branch cards, $(echo "$s" | sed 's/.*data-ready="\([a-z]*\)".*/ready \1/')"
done
if [ -n "$first" ]; then      # the check itself: a script error must show
	sed 's|</body>|<script>undefinedFunctionOfTheTest();</script></body>|' "$first" > "$T/broken.html"
	browse --dump-dom "file://$T/broken.html" > "$T/broken.dom"
	status "$T/broken.dom" | grep -q 'data-errors="1"' &&
		grep -q 'script errors: .*undefinedFunctionOfTheTest' "$T/broken.dom" && ok ||
		bad "a broken script in the page did not show in #status: $(status "$T/broken.dom")"
fi
if [ -n "$PNG" ] && [ -n "$first" ]; then
	browse --hide-scrollbars --window-size=1400,1700 --screenshot="$T/shot.png" "file://$first" >/dev/null &&
		[ -s "$T/shot.png" ] && cp "$T/shot.png" "$PNG" && echo "check-browser: wrote $PNG" ||
		bad "the screenshot"
fi
echo "check-browser: $pass passed, $fail failed"
[ "$fail" = 0 ]
