# merge.awk - one listing of tests/ptxas-ref: cuobjdump -sass output (the input) with the
# directives elfinfo.awk found (the file named by -v dirs=) inserted after each kernel's
# .headerflags line, `.func NAME` before the first instruction of each subroutine (a
# function whose address is a Kepler scheduling-control slot starts at the next one), and
# `.jcal NAME` before each JCAL that calls the external function NAME.
function hexv(s,    v, i) {
	s = tolower(s); sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
BEGIN {
	while ((getline l < dirs) > 0) {
		t = index(l, "\t"); kn = substr(l, 1, t - 1); d = substr(l, t + 1)
		if (d ~ /^\.func /) { split(d, g, " "); fn[kn, hexv(g[2])] = g[3] }
		else if (d ~ /^\.jcal /) { split(d, g, " "); jc[kn, hexv(g[2])] = g[3] }
		else hdr[kn] = hdr[kn] "\t" d "\n"
	}
}
/Function : / { k = $0; sub(/.*Function : /, "", k) }
{
	if (match($0, /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]+\*\//)) {
		a = hexv(substr($0, RSTART + 2, RLENGTH - 4))
		if ((k, a) in fn) printf "\t.func %s\n", fn[k, a]
		else if (a % 64 == 8 && (k, a - 8) in fn) printf "\t.func %s\n", fn[k, a - 8]
		if ((k, a) in jc) printf "\t.jcal %s\n", jc[k, a]
	}
	print
	if ($0 ~ /^[ \t]*\.headerflags/) printf "%s", hdr[k]
}
