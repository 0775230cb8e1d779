# listing.sh - sourced by generate.sh (make ptxas-reference), fidelity.sh (make fidelity) and
# tests/real/fidelity.sh (make real-fidelity): NVIDIA's CUDA 11.8 toolkit in a cache folder,
# one PTX file made into a listing warpsim reads, as tests/ptxas-ref/README.md describes, and
# a generated section of docs/fidelity.md replaced. Needs $cache (the toolkit's folder) and
# $tmp (a scratch folder) set by the caller, and runs from the top directory.

# ptxas_toolkit: unpacks NVIDIA's CUDA 11.8 (Debian 12 non-free: nvidia-cuda-toolkit and
# nvidia-cuda-dev) into $cache once, without installing anything: apt-get download through a
# private sources list that adds non-free to this machine's own Debian mirror, then dpkg-deb -x.
# Sets ptxas, cuobjdump and version.
ptxas_toolkit() {
	[ -x "$cache/usr/bin/ptxas" ] && [ -x "$cache/usr/bin/cuobjdump" ] || ptxas_fetch
	ptxas=$cache/usr/bin/ptxas
	cuobjdump=$cache/usr/bin/cuobjdump
	version=$("$ptxas" --version | sed -n 's/^Cuda compilation tools, //p')
}

ptxas_fetch() {
	apt="$cache.apt"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/debs" "$cache"
	# this machine's Debian mirror and release (deb822 or one-line sources), plus non-free
	uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	suite=$(sed -n 's/^Suites: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		set -- $(grep -m 1 '^deb ' /etc/apt/sources.list | sed 's/\[[^]]*\]//')
		uri=${2:-}; suite=${3:-}
	fi
	[ -n "$uri" ] && [ -n "$suite" ] || { echo "ptxas-reference: no Debian mirror in /etc/apt" >&2; exit 1; }
	echo "deb $uri $suite main contrib non-free" > "$apt/sources.list"
	opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
	      -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt -o Debug::NoLocking=1
	      -o APT::Sandbox::User=$(id -un)"
	echo "ptxas-reference: fetching nvidia-cuda-toolkit and nvidia-cuda-dev (about 900 MB) into $apt"
	# shellcheck disable=SC2086
	apt-get -q $opts update
	# shellcheck disable=SC2086
	(cd "$apt/debs" && apt-get -q $opts download nvidia-cuda-toolkit nvidia-cuda-dev)
	for d in "$apt"/debs/*.deb; do
		dpkg-deb -x "$d" "$cache"
	done
}

# retarget PTX [KEEP]: the file for `.target sm_35` and `.version 7.8`, on stdout; with KEEP its
# own .target and .version. A .reg whose name is a special register's (%tid, %ntid, %laneid, ...)
# is valid PTX that ptxas 11.8 refuses ("Unknown video selector"); it is renamed (%tid -> %tid_r)
# in the copy, and the names renamed are left in $tmp/renamed.
retarget() {
	sregs=$(grep -o '\.reg[^;]*' "$1" | grep -oE '%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64)\b' | sort -u || true)
	script=
	[ -n "${2:-}" ] || script="s/^\.target .*/.target sm_35/; s/^\.version .*/.version 7.8/"
	for r in $sregs; do
		script="${script:+$script; }s/$r\([^.a-zA-Z0-9_]\)/${r}_r\1/g"
	done
	sed -e "$script" "$1"
	[ -z "$sregs" ] || echo "$sregs" | tr '\n' ' ' > "$tmp/renamed"
}

# compile PTX NAME [KEEP]: PTX retargeted (retarget) into $tmp/NAME.ptx and compiled by `ptxas
# -arch sm_35 -v` into $tmp/NAME.cubin, its output in $tmp/NAME.v; ptxas's status in $st
compile() {
	retarget "$1" ${3:-} > "$tmp/$2.ptx"
	st=0
	"$ptxas" -arch sm_35 -v "$tmp/$2.ptx" -o "$tmp/$2.cubin" > "$tmp/$2.v" 2>&1 || st=$?
}

# sm1x PTX: 0 when the file's .target is sm_10 .. sm_13
sm1x() {
	grep -qE '^[[:space:]]*\.target[[:space:]]+sm_1[0-3]([^0-9]|$)' "$1"
}

# ptxas_listing PTX NAME: PTX retargeted, compiled by `ptxas -arch sm_35 -v` and made into
# $tmp/NAME.listing: a comment header (the source, ptxas's version, the retargeting, the ptxas
# -v lines), then `cuobjdump -sass` with elfinfo.awk's directives merged in (merge.awk).
# A file for .target sm_1x is compiled as it is written when ptxas takes it so, as the
# driver compiles an old program's PTX for a Kepler GPU: retargeted, it would lose what sm_1x
# means (single precision flushes subnormals, docs/frontend.md "sm_1x"); only one that ptxas
# refuses as written (legacy_ptx1: .param parameters of a .func, which sm_1x has not) is
# retargeted. Returns 0; or 1 when ptxas refuses the file, 2 when its cubin cannot be carried
# over into a listing, with the reason in $why.
ptxas_listing() {
	rm -f "$tmp/renamed"
	st=1 how="Retargeted to .target sm_35, .version 7.8"
	if sm1x "$1"; then
		compile "$1" "$2" keep
		tgt=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*//p' "$1" | head -n 1)
		ver=$(sed -n 's/^[[:space:]]*\.version[[:space:]]*//p' "$1" | head -n 1)
		how="Compiled as written (.target $tgt, .version $ver)"
		[ "$st" = 0 ] || how="Retargeted to .target sm_35, .version 7.8 (ptxas refuses it as written for
# .target $tgt: $(grep -m 1 -E 'error|fatal' "$tmp/$2.v" | sed "s|^ptxas $tmp/$2.ptx, ||; s/  */ /g"))"
	fi
	if [ "$st" != 0 ]; then
		rm -f "$tmp/renamed"
		compile "$1" "$2"
	fi
	if [ "$st" != 0 ]; then
		why=$(grep -m 1 -E 'error|fatal' "$tmp/$2.v" | sed "s|$tmp/||")
		if [ -z "$why" ] && [ "$st" -gt 128 ]; then
			why="ptxas $2.ptx: no error, killed by signal $((st - 128)) (a crash of ptxas)"
		fi
		[ -n "$why" ] || why="ptxas $2.ptx: no error, exit status $st"
		return 1
	fi
	if ! "$cuobjdump" -elf "$tmp/$2.cubin" > "$tmp/$2.elf" 2> "$tmp/$2.err" ||
	   ! awk -f tests/ptxas-ref/elfinfo.awk "$tmp/$2.elf" > "$tmp/$2.dirs" 2> "$tmp/$2.err" ||
	   ! "$cuobjdump" -sass "$tmp/$2.cubin" > "$tmp/$2.sass" 2> "$tmp/$2.err"; then
		why=$(head -n 1 "$tmp/$2.err")
		why=${why:-cuobjdump failed}
		return 2
	fi
	{
		echo "# $1 compiled by ptxas ($version) for sm_35, disassembled by cuobjdump -sass."
		echo "# $how$( [ -f "$tmp/renamed" ] && echo "; registers renamed: $(cat "$tmp/renamed")")."
		echo "# Written by make ptxas-reference (tests/ptxas-ref/generate.sh); do not edit."
		echo "# The directives after each .headerflags come from cuobjdump -elf (elfinfo.awk)."
		echo "# ptxas -v:"
		grep -v '^ptxas info    : 0 bytes gmem' "$tmp/$2.v" | sed "s|$tmp/||; s/^/#   /"
		awk -v dirs="$tmp/$2.dirs" -f tests/ptxas-ref/merge.awk "$tmp/$2.sass"
	} > "$tmp/$2.listing"
}

# ptxas_linemap NAME: after ptxas_listing PTX NAME, ptxas's line table of that listing in
# $tmp/NAME.lines, the line map `warpc --compare-lines` reads (docs/isa.md, "Line maps"): the
# PTX ptxas compiled ($tmp/NAME.ptx) compiled again with -lineinfo, whose cubin holds a
# table from each SASS instruction to the PTX line it comes from (.nv_debug_line_sass), which
# `cuobjdump -elf` prints decoded and linemap.awk reads; one ".kernel NAME" a function, then
# "ADDR LINE" per instruction (an instruction with no row of its own has the line of the one
# before it). -lineinfo must leave the code as it was: `cuobjdump -sass` of both cubins must be
# the same, or there is no map. Returns 0; or 1, with the reason in $why.
ptxas_linemap() {
	if ! "$ptxas" -arch sm_35 -lineinfo "$tmp/$1.ptx" -o "$tmp/$1.li.cubin" > "$tmp/$1.li.v" 2>&1; then
		why="ptxas -lineinfo fails: $(grep -m 1 -E 'error|fatal' "$tmp/$1.li.v" | sed "s|$tmp/||")"
		return 1
	fi
	if ! "$cuobjdump" -sass "$tmp/$1.li.cubin" > "$tmp/$1.li.sass" 2> "$tmp/$1.err" ||
	   ! "$cuobjdump" -elf "$tmp/$1.li.cubin" > "$tmp/$1.li.elf" 2> "$tmp/$1.err"; then
		why=$(head -n 1 "$tmp/$1.err")
		why=${why:-cuobjdump failed}
		return 1
	fi
	if ! cmp -s "$tmp/$1.sass" "$tmp/$1.li.sass"; then
		why="ptxas -lineinfo makes other code"
		return 1
	fi
	{
		echo "# ptxas line table of $1.ptx: SASS address -> PTX line (warpc --compare-lines)"
		awk -f tests/ptxas-ref/linemap.awk "$tmp/$1.li.elf" "$tmp/$1.li.sass"
	} > "$tmp/$1.lines"
}

# splice_section WHO GEN DOC: the section of DOC from its line "<!-- generated by make WHO"
# to the next "<!-- generated: end -->" replaced by the file GEN (which holds both lines);
# returns 1, DOC untouched, when DOC has no such section
splice_section() {
	[ -f "$3" ] && grep -q "^<!-- generated by make $1 " "$3" || return 1
	awk -v gen="$2" -v start="<!-- generated by make $1 " '
		index($0, start) == 1 { while ((getline l < gen) > 0) print l; skip = 1; next }
		skip && /^<!-- generated: end -->/ { skip = 0; next }
		!skip { print }' "$3" > "$tmp/splice"
	cp "$tmp/splice" "$3"
}
