#!/bin/sh
# run-docs-excerpts.sh - tests/docs-excerpts.sh, the check make docs-check makes of the output
# README.md quotes, on documents of its own: every rule of tests/README.md's "Output quoted
# in the documents" holds on one that passes (the number of checks counted), and each way an
# excerpt goes stale fails with the line that names it.
BIN=${BIN:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/run-docs-excerpts.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

# doc NAME STATUS PATTERN: the document on stdin, checked; the exit status must be STATUS and
# the messages must hold the fixed string PATTERN
doc() {
	cat > "$T/$1.md"
	sh tests/docs-excerpts.sh BIN="$BIN" "$T/$1.md" > "$T/$1.log" 2>&1
	rc=$?
	if [ $rc = "$2" ] && grep -qF -- "$3" "$T/$1.log"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $1: exit $rc (want $2), want the message: $3"; sed 's/^/    /' "$T/$1.log"
		fail=$((fail + 1))
	fi
}

doc good 0 "docs-excerpts: 9 checks of quoted output pass" <<'EOF'
# A document whose excerpts hold

Lines in order, elided, and a trailing blank:

    $ printf 'a\nb\nc\nd  \n'
    a
    ...
    c
    d

Within a line, and the two streams as one, a continued command and one showing nothing:

    $ echo 'best of 16 (12 feasible): x'; echo oops >&2
    best of ... (12 ...): x
    oops
    $ printf '%s\n' \
        one two
    two
    $ true

A file written by one command is read by the next, beside links to the tree:

    $ echo 7 > seven.txt
    $ cat seven.txt
    7
    $ ls examples/divergence.ptx bin/warpc
    bin/warpc
    examples/divergence.ptx

<!-- docs-check: printf 'x 1\ny 2\nz 3\n' -->

    y 2
    z 3

<!-- docs-check: printf 'cycles 31023 (+2.28%%)\n' shows: 31023 2.28% -->
The best takes 31023 cycles, 2.28% more.

<!-- docs-check: skip -->

    $ false
    not run

```
    $ exit 3
```
EOF
[ -e seven.txt ] && { echo "FAIL: good: seven.txt was written in the tree"; fail=$((fail + 1)); }

doc stale 1 "line 4 shows:  c 1" <<'EOF'
    $ printf 'a\nb\nc 2\n'
    a
    b
    c 1
EOF
grep -qF "output line 3:  c 2" "$T/stale.log" ||
	{ echo "FAIL: stale: the nearest output line is not named"; fail=$((fail + 1)); }
doc unlike 1 "no output line like it; the output from line 2:" <<'EOF'
    $ printf 'a\nb\n'
    a
    c
EOF
doc order 1 "line 3 shows:  a" <<'EOF'
    $ printf 'a\nb\n'
    b
    a
EOF
doc wild 1 "line 2 shows:  best of ... (13 ...): x" <<'EOF'
    $ echo 'best of 16 (12 feasible): x'
    best of ... (13 ...): x
EOF
doc status 1 "exited with status 1 (it shows no output, so it must succeed)" <<'EOF'
    $ printf 'why\n'; false
EOF
doc comment 1 "line 4 shows:  y 3" <<'EOF'
<!-- docs-check: printf 'x 1\ny 2\n'
     -->

    y 3
EOF
doc printed 1 "does not print 31024" <<'EOF'
<!-- docs-check: echo 31023 shows: 31024 -->
It takes 31024 cycles.
EOF
doc text 1 "31023 is not in the text under the comment" <<'EOF'
<!-- docs-check: echo 31023 shows: 31023 -->
It takes 31024 cycles.
EOF
doc noblock 1 "needs an indented block of output" <<'EOF'
<!-- docs-check: echo 1 -->
A paragraph.
EOF

echo "run-docs-excerpts: $pass passed, $fail failed"
[ "$fail" = 0 ]
