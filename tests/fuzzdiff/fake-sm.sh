#!/bin/sh
# fake-sm.sh - a deliberately broken "SM model" for the shrinker's own test (run-gen-shrink.sh):
# it runs the oracle instead, then, when the program's text holds FAKE_BUG (an opcode), it
# corrupts out.bin. Any program with that opcode "differs"; the shrinker must cut it down to
# the one statement that holds it.
ptx=
for a in "$@"; do case $a in *.ptx) ptx=$a ;; esac; done
n=$#
while [ "$n" -gt 0 ]; do          # drop --predicate-max V and --scheduler V
	a=$1; shift; n=$((n - 1))
	case $a in
	--predicate-max|--scheduler) shift; n=$((n - 1)) ;;
	*) set -- "$@" "$a" ;;
	esac
done
"$WARPSIM" --oracle "$@" || exit $?
if grep -q -F "$FAKE_BUG" "$ptx"; then printf 'x' >>out.bin; fi
exit 0
