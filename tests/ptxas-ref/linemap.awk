# linemap.awk - ptxas's line table as `warpc --compare-lines` reads it (docs/isa.md, "Line
# maps"), for listing.sh's ptxas_linemap: awk -f linemap.awk ELF SASS, where ELF is
# `cuobjdump -elf` of a cubin of `ptxas -lineinfo` and SASS its `cuobjdump -sass`.
#
# The table is the section .nv_debug_line_sass, a DWARF line program that cuobjdump -elf
# prints decoded: one sequence per kernel, from `set Address to 0x0` to `End of Sequence`,
# whose rows (`Copy`, `Special opcode`) give the instruction at an address its PTX line.
# Which kernel a sequence belongs to is the symbol of the relocation of its `set Address`
# (.rel.nv_debug_line_sass): the sequences lie in the section in the order of those
# relocations' offsets. Every instruction of SASS then gets the line of the last row at or
# before its address, in its kernel (the NOPs that pad its end too); an instruction before
# any row or at or after the sequence's end has none.
#
# (nvdisasm -gp, which this file replaces, prints the same table as comments between the
# instructions, but for some cubins one instruction late: Rodinia's myocyte compiled from
# clang's PTX, whose table puts line 9846, `mov.u32 %r26, %ctaid.x`, at 0x10, S2R SR_CTAID.X,
# and whose disassembly prints it before 0x18, S2R SR_TID.X.)
FNR == 1 { file++ }
file == 1 && /^\.section / { sect = $2; next }
file == 1 && sect == ".nv_debug_line_sass" {
	if (/set Address to 0x/) { seq++; nrow[seq] = 0; addr = hex($NF); next }
	if (/End of Sequence/) { seqend[seq] = addr; next }
	if (match($0, /to 0x[0-9a-fA-F]+/)) addr = hex(substr($0, RSTART + 3, RLENGTH - 3))
	if (/Line by -?[0-9]+ to [0-9]+$/) line = $NF + 0
	if (/Special opcode/ || /^[ \t]*Copy[ \t]*$/) {
		n = ++nrow[seq]; rowa[seq, n] = addr; rowl[seq, n] = line
	}
	next
}
file == 1 && sect == ".rel.nv_debug_line_sass" && $1 ~ /^0x/ {
	nrel++; relo[nrel] = hex($1); reln[nrel] = $2
	next
}
file == 2 && /Function : / {
	if (!sorted) order()
	kern = $NF; k = seqof[kern]; r = 0; cur = 0
	print ".kernel " kern
	next
}
file == 2 && kern != "" && k && /^[ \t]+\/\*[0-9a-f]+\*\// {
	a = $0; sub(/^[ \t]+\/\*/, "", a); sub(/\*\/.*/, "", a); at = hex(a)
	while (r < nrow[k] && rowa[k, r + 1] <= at)
		cur = rowl[k, ++r]
	if (cur > 0 && at < seqend[k])
		print a, cur
}
function hex(s,   v, i, c) {
	sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		v = v * 16 + c
	}
	return v
}
# seqof[name] = the sequence of kernel name: the relocations in the order of their offsets
function order(   i, j, t) {
	sorted = 1
	for (i = 2; i <= nrel; i++)
		for (j = i; j > 1 && relo[j - 1] > relo[j]; j--) {
			t = relo[j]; relo[j] = relo[j - 1]; relo[j - 1] = t
			t = reln[j]; reln[j] = reln[j - 1]; reln[j - 1] = t
		}
	for (i = 1; i <= nrel && i <= seq; i++)
		seqof[reln[i]] = i
}
