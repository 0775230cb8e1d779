# elfinfo.awk - what `cuobjdump -elf` says about each kernel of a cubin that a run needs and
# `cuobjdump -sass` does not print, as warpsim listing directives (docs/isa.md section 11).
# Used by generate.sh; reads the -elf dump on stdin (cuobjdump sometimes prints a table row
# twice: rows are keyed by their index, so a repeat changes nothing). Writes one line per
# directive, "KERNEL<TAB>directive", in the order the listing header wants them, and
# "KERNEL<TAB>.func ADDR NAME" for each subroutine the kernel's code holds. Exits 1 with a
# message on stderr on anything it does not know how to carry over.
#
#   .registers N            the ELF's register count (the same as ptxas -v's)
#   .shared N / .local N    static shared bytes, local (frame) bytes per thread
#   .param OFF SIZE         EIATTR_KPARAM_INFO: OFF is c[0x0] (the bank base, 0x140 on sm_35)
#   .global NAME SIZE ALIGN [= bytes]   module variables (.nv.global, .nv.global.init)
#   .abs32 ADDR lo|hi NAME  R_CUDA_ABS32_LO/HI: an instruction's immediate is half an address
#   .jcal ADDR NAME         R_CUDA_ABS32_23 of a function the cubin does not define: the JCAL
#                           at ADDR calls the external NAME (vprintf, __assertfail, malloc, ...;
#                           merge.awk writes `.jcal NAME` before that instruction); the same
#                           relocation of anything else is refused
#   .tex NAME OFF           R_CUDA_TEX_HEADER_INDEX in .rel.nv.constant0.KERNEL: the texture
#                           header index of texref NAME is the c[0x0] word at OFF (TEX/TLD name
#                           it by OFF / 4); in increasing OFF, any other relocation is refused
#   .constdata c[0x2][0x0] = bytes      .nv.constant2.KERNEL, the compiler's literal pool
#   .constdata c[0x3][OFF] .align N .b8 NAME = bytes
#                           .nv.constant3, the module's .const variables: one per symbol of
#                           the section (its offset, size and name; N the largest power of two
#                           that divides OFF, at most the section's alignment; .b8, since the
#                           ELF keeps no type), and an unnamed .constdata c[0x3][OFF] = bytes
#                           for any non-zero bytes no symbol covers (an address in the
#                           initialisers is already a bank offset; a relocation of that section
#                           is refused)
function hexv(s,    v, i) {
	s = tolower(s); sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function die(msg) { print "elfinfo.awk: " msg > "/dev/stderr"; bad = 1; exit 1 }
function bytes_of(sec, n,    out, i, w, b) {
	out = ""
	for (i = 0; i < n; i++) {
		w = words[sec, int(i / 4)]
		b = int(w / (256 ^ (i % 4))) % 256
		out = out sprintf(" %02x", b)
	}
	return out
}
BEGIN { mode = ""; nsec = 0 }
/^Sections:/ { mode = "sections"; next }
/^\.section \.symtab/ { mode = "symtab"; next }
/^\.section \.rel\.text\./ { mode = "rel"; relk = $2; sub(/^\.rel\.text\./, "", relk); next }
/^\.section \.rel\.nv\.constant0\./ { mode = "crel"; crelk = $2; sub(/^\.rel\.nv\.constant0\./, "", crelk); next }
/^\.section \.rel\.nv\.constant3$/ { die("relocations of " $2 " are not carried over") }
/^\.section / { mode = ""; next }
/^\.nv\.info\./ { mode = "info"; infok = $1; sub(/^\.nv\.info\./, "", infok); next }
/^\.text\./ { mode = "text"; textk = $1; sub(/^\.text\./, "", textk); next }
/^\.nv\.(constant2\.|constant3$|global\.init)/ && NF == 1 { mode = "data"; datasec = $1; nw[datasec] = 0; next }
/^$/ { if (mode == "data" || mode == "rel" || mode == "crel") mode = ""; next }
mode == "sections" && $1 ~ /^[0-9a-f]+$/ && NF >= 10 {
	idx = hexv($1); secname[idx] = $NF; secsize[$NF] = hexv($3); secalign[$NF] = hexv($5)
	next
}
mode == "symtab" && NF == 7 && $1 != "index" {
	i = ($1 == "0") ? 0 : hexv($1)
	symval[i] = hexv($2); symsize[i] = hexv($3); syminfo[i] = hexv($4); symsec[i] = hexv($6)
	symname[i] = $7; if (i > nsym) nsym = i
	next
}
mode == "data" && $1 ~ /^0x/ {
	for (f = 1; f <= NF; f++) words[datasec, nw[datasec]++] = hexv($f)
	next
}
mode == "info" && /Ordinal :/ {
	o = hexv($7); off = hexv($10); sz = hexv($13)
	param[infok, o] = sprintf(".param 0x%x %d", pbase[infok] + off, sz)
	if (o + 1 > nparam[infok]) nparam[infok] = o + 1
	next
}
mode == "info" && /Attribute:/ { attr = $2; next }
mode == "info" && /Value:/ && attr == "EIATTR_PARAM_CBANK" { pbase[infok] = hexv($3) % 65536; next }
mode == "text" && /lmem=/ {
	for (f = 1; f <= NF; f++) {
		if ($f == "reg") regs[textk] = $(f + 2) + 0
		if ($f ~ /^lmem=/) { v = $f; sub(/lmem=/, "", v); lmem[textk] = v + 0 }
		if ($f ~ /^smem=/) { v = $f; sub(/smem=/, "", v); smem[textk] = v + 0 }
	}
	kernels[++nk] = textk
	mode = ""
	next
}
mode == "rel" && NF == 3 && $1 ~ /^0x/ {
	if ($3 ~ /^R_CUDA_ABS32_LO_/) half = "lo"
	else if ($3 ~ /^R_CUDA_ABS32_HI_/) half = "hi"
	else if ($3 == "R_CUDA_ABS32_23") {
		if ((relk, hexv($1)) in jcalat) next      # a repeated row
		jcalat[relk, hexv($1)] = 1; jcal[relk, ++njcal[relk]] = hexv($1); jcalto[relk, njcal[relk]] = $2
		next
	}
	else die("relocation " $3 " in .rel.text." relk " is not carried over")
	rel[relk, ++nrel[relk]] = sprintf(".abs32 0x%x %s %s", hexv($1), half, $2)
	next
}
mode == "crel" && NF == 3 && $1 ~ /^0x/ {
	if ($3 != "R_CUDA_TEX_HEADER_INDEX") die("relocation " $3 " in .rel.nv.constant0." crelk " is not carried over")
	o = hexv($1)
	if ((crelk, o) in texat) next      # a repeated row
	texat[crelk, o] = $2; ntexrel[crelk]++
	next
}
END {
	if (bad) exit 1
	for (i = 1; i <= nsym; i++) symof[symname[i]] = i
	for (n = 1; n <= nk; n++) {
		k = kernels[n]
		# a call of an external function: a global function symbol of no section (STT_FUNC)
		for (r = 1; r <= njcal[k]; r++) {
			i = symof[jcalto[k, r]]
			if (!i || symsec[i] != 0 || syminfo[i] % 16 != 2)
				die("relocation R_CUDA_ABS32_23 of " jcalto[k, r] " (not an external function) in .rel.text." k " is not carried over")
		}
	}
	for (n = 1; n <= nk; n++) {
		k = kernels[n]
		printf "%s\t.registers %d\n", k, regs[k]
		if (smem[k]) printf "%s\t.shared 0x%x\n", k, smem[k]
		if (lmem[k]) printf "%s\t.local 0x%x\n", k, lmem[k]
		for (o = 0; o < nparam[k]; o++) {
			if (!((k, o) in param)) die("kernel " k ": no EIATTR_KPARAM_INFO for parameter " o)
			printf "%s\t%s\n", k, param[k, o]
		}
		# the texture header indices, in increasing offset (at most 0x10000 bytes of bank 0)
		t = 0
		for (o = 0; t < ntexrel[k] && o < 65536; o += 4)
			if ((k, o) in texat) { printf "%s\t.tex %s 0x%x\n", k, texat[k, o], o; t++ }
		if (t < ntexrel[k]) die("kernel " k ": a texture header index at an unaligned offset")
		for (i = 1; i <= nsym; i++) {
			s = secname[symsec[i]]
			if (s != ".nv.global" && s != ".nv.global.init") continue
			if (syminfo[i] % 16 != 1 || symsize[i] == 0) continue   # STT_OBJECT
			line = sprintf("%s\t.global %s %d %d", k, symname[i], symsize[i], secalign[s] ? secalign[s] : 1)
			if (s == ".nv.global.init")    # at any byte (strings of align 1 follow each other)
				line = line " =" bytes_of2(s, symval[i], symsize[i])
			print line
		}
		for (r = 1; r <= nrel[k]; r++) printf "%s\t%s\n", k, rel[k, r]
		for (r = 1; r <= njcal[k]; r++) printf "%s\t.jcal 0x%x %s\n", k, jcal[k, r], jcalto[k, r]
		c2 = ".nv.constant2." k
		if (c2 in secsize) printf "%s\t.constdata c[0x2][0x0] =%s\n", k, bytes_of(c2, secsize[c2])
		if (".nv.constant3" in secsize) const3(k)
		for (i = 1; i <= nsym; i++)
			if (secname[symsec[i]] == ".text." k && syminfo[i] % 16 == 2 && symname[i] != k)
				printf "%s\t.func 0x%x %s\n", k, symval[i], symname[i]
	}
}
# bytes [off, off + n) of a data section
function bytes_of2(sec, off, n,    out, i, w, b, a) {
	out = ""
	for (i = 0; i < n; i++) {
		a = off + i
		w = words[sec, int(a / 4)]
		b = int(w / (256 ^ (a % 4))) % 256
		out = out sprintf(" %02x", b)
	}
	return out
}
# the .const variables of bank 3 (.nv.constant3) for kernel k: a named .constdata per symbol,
# by offset, and the bytes between or after them that are not zero as unnamed ones
function const3(k,    sec, nv, i, j, t, at, al) {
	sec = ".nv.constant3"; nv = 0
	for (i = 1; i <= nsym; i++)
		if (secname[symsec[i]] == sec && syminfo[i] % 16 == 1 && symsize[i] > 0) cv[++nv] = i
	for (i = 2; i <= nv; i++)       # by offset (insertion sort: a module has few)
		for (j = i; j > 1 && symval[cv[j - 1]] > symval[cv[j]]; j--) { t = cv[j]; cv[j] = cv[j - 1]; cv[j - 1] = t }
	at = 0
	for (i = 1; i <= nv; i++) {
		j = cv[i]
		if (symval[j] < at) die(".const variable " symname[j] " overlaps the one before it in " sec)
		if (symval[j] + symsize[j] > secsize[sec]) die(".const variable " symname[j] " ends beyond " sec)
		gap3(k, at, symval[j])
		for (al = 1; al < secalign[sec] && symval[j] % (2 * al) == 0; al *= 2) ;
		printf "%s\t.constdata c[0x3][0x%x] .align %d .b8 %s =%s\n", k, symval[j], al, symname[j], bytes_of2(sec, symval[j], symsize[j])
		at = symval[j] + symsize[j]
	}
	gap3(k, at, secsize[sec])
}
# bytes [from, to) of .nv.constant3 that no variable covers, as one unnamed .constdata each run
# that is not all zero (the bank is zero elsewhere)
function gap3(k, from, to,    b) {
	if (from >= to) return
	b = bytes_of2(".nv.constant3", from, to - from)
	if (b ~ /[1-9a-f]/) printf "%s\t.constdata c[0x3][0x%x] =%s\n", k, from, b
}
