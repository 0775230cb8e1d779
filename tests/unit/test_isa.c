/* test_isa.c - unit tests of the ISA tables (ops.def, shapes.def, mods.def, the per-op
 * rules), the printer, the listing parser's API and isa_check_kernel.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "tests/unit/helper_check.h"

/* parses text; returns the program or NULL, with the diagnostics in *errs (caller frees) */
static Prog *asm_str(const char *text, char **errs)
{
	size_t n = 0;
	FILE *f = open_memstream(errs, &n);
	Prog *p = isa_asm("t.sass", text, strlen(text), f);

	fclose(f);
	return p;
}

static int has_slot(Op op, unsigned cls)
{
	const ShapeInfo *si = isa_shape(isa_ops[op].shape);

	for (int i = 0; i < si->n; i++)
		if (si->classes[i] & cls)
			return 1;
	return 0;
}

START_TEST(test_mnemonics_unique)
{
	for (int i = 0; i < OP_COUNT; i++) {
		ck_assert_ptr_nonnull(isa_ops[i].name);
		ck_assert_int_gt(strlen(isa_ops[i].name), 0);
		for (int j = i + 1; j < OP_COUNT; j++)
			ck_assert_msg(strcmp(isa_ops[i].name, isa_ops[j].name) != 0,
			              "duplicate mnemonic %s", isa_ops[i].name);
	}
}
END_TEST

START_TEST(test_shapes_parse)
{
	for (int s = 0; s < SHAPE_COUNT; s++) {
		const ShapeInfo *si = isa_shape((Shape)s);
		int seen_src = 0;
		ck_assert_int_le(si->n, ISA_MAXOPD);
		for (int i = 0; i < si->n; i++) {
			ck_assert_msg(si->classes[i] != 0, "shape %d slot %d has no class", s, i);
			/* optional slots: trailing ones, or a leading CC test */
			if (si->optional[i] && !(i == 0 && si->classes[i] == OC_K))
				for (int j = i + 1; j < si->n; j++)
					ck_assert_msg(si->optional[j], "shape %d: optional slot %d before a "
					              "required one", s, i);
			ck_assert_msg(!si->dst[i] || !seen_src, "shape %d: destination after a source", s);
			seen_src |= !si->dst[i];
		}
	}
	ck_assert_int_eq(isa_shape(SHAPE_R_R_X)->n, 3);
	ck_assert_int_eq(isa_shape(SHAPE_R_R_X)->classes[2], OC_R | OC_I | OC_C);
	ck_assert_int_eq(isa_shape(SHAPE_CC_T)->optional[0], 1);
	ck_assert_int_eq(isa_shape(SHAPE_NONE)->n, 0);
}
END_TEST

START_TEST(test_branches_have_targets)
{
	for (int i = 0; i < OP_COUNT; i++) {
		uint32_t f = isa_ops[i].flags;
		if (f & F_TARGET)
			ck_assert_msg(has_slot((Op)i, OC_T), "%s: F_TARGET without a T slot",
			              isa_ops[i].name);
		if (f & F_INDIRECT)
			ck_assert_msg(has_slot((Op)i, OC_R) && has_slot((Op)i, OC_L),
			              "%s: indirect without R and L slots", isa_ops[i].name);
		if ((f & F_BRANCH) && !has_slot((Op)i, OC_T | OC_L))
			/* the others are stack-based: they leave for a token */
			ck_assert_msg(i == OP_BRK || i == OP_CONT || i == OP_RET || i == OP_EXIT,
			              "%s: branch with no target", isa_ops[i].name);
		if (has_slot((Op)i, OC_T))
			ck_assert_msg(f & F_TARGET, "%s: T slot without F_TARGET", isa_ops[i].name);
		if ((f & F_PUSH) && i != OP_CAL && i != OP_JCAL)
			ck_assert_msg(!(f & F_PRED), "%s: a push must not be guardable", isa_ops[i].name);
	}
}
END_TEST

START_TEST(test_fold_flags)
{
	for (int i = 0; i < OP_COUNT; i++) {
		const OpInfo *oi = &isa_ops[i];
		const ShapeInfo *si = isa_shape(oi->shape);
		int src = 0, rdst = 0;
		for (int j = 0; j < si->n; j++) {
			src += !si->dst[j];
			rdst += si->dst[j] && (si->classes[j] & OC_R);
		}
		if (oi->flags & F_FOLDI)
			ck_assert_msg((oi->flags & F_FOLD) && oi->unit != UNIT_FPU && oi->unit != UNIT_DPU,
			              "%s: F_FOLDI needs F_FOLD and an integer op", oi->name);
		if (oi->flags & (F_FOLD | F_COMMUTE | F_MIRROR))
			ck_assert_msg(src >= 1 + !!(oi->flags & (F_COMMUTE | F_MIRROR)),
			              "%s: too few sources for its fold flags", oi->name);
		if (oi->flags & F_MIRROR)
			ck_assert_msg(oi->mods & M_CMP, "%s: F_MIRROR without a comparison", oi->name);
		if (oi->flags & F_WHOLE)
			ck_assert_msg(rdst == 1 && !(oi->flags & (F_LOAD | F_SIDE | F_MACRO)),
			              "%s: F_WHOLE needs one register destination, no load or effect",
			              oi->name);
	}
}
END_TEST

START_TEST(test_memory_ops_destinations)
{
	for (int i = 0; i < OP_COUNT; i++) {
		const ShapeInfo *si = isa_shape(isa_ops[i].shape);
		int dst = 0;
		for (int s = 0; s < si->n; s++)
			dst |= si->dst[s] && (si->classes[s] & OC_R);   /* STSCUL's success is a predicate */
		if ((isa_ops[i].flags & F_STORE) && !(isa_ops[i].flags & F_LOAD))
			ck_assert_msg(!dst, "store %s has a register destination", isa_ops[i].name);
		if (isa_ops[i].flags & F_LOAD)
			ck_assert_msg(dst, "load %s has no destination", isa_ops[i].name);
		Ins in;
		isa_ins_init(&in, (Op)i);
		if (isa_ops[i].flags & (F_LOAD | F_STORE))   /* a surface op: a slot or a handle */
			ck_assert_msg(has_slot((Op)i, OC_M | OC_C) || isa_surf_slot(&in) >= 0 ||
			              i == OP_SULDB || i == OP_SUSTB || i == OP_SUSTPB,
			              "%s: memory op without an address", isa_ops[i].name);
	}
}
END_TEST

START_TEST(test_rules_match_fields)
{
	uint64_t subs_seen[ISA_SUBWORDS] = {0};

	for (int i = 0; i < OP_COUNT; i++) {
		IsaRules r;
		uint32_t m = isa_ops[i].mods;
		isa_op_rules((Op)i, &r);
		int any = 0;
		for (int w = 0; w < ISA_SUBWORDS; w++)
			any |= (r.subs[w] & (w ? ~0ull : ~1ull)) != 0;
		ck_assert_msg(any == ((m & M_SUB) != 0), "%s: sub rules vs M_SUB", isa_ops[i].name);
		ck_assert_msg((r.dtypes != 0) == ((m & M_TYPE) != 0), "%s: types vs M_TYPE",
		              isa_ops[i].name);
		ck_assert_msg(!r.stypes || r.dtypes, "%s: second type without a first", isa_ops[i].name);
		ck_assert_msg((r.rnds != 0) == ((m & M_RND) != 0), "%s: rnd vs M_RND", isa_ops[i].name);
		ck_assert_msg(!r.cmpreq || (m & M_CMP), "%s: cmp required but not accepted",
		              isa_ops[i].name);
		ck_assert_msg(!(m & M_BOP2) || (m & M_BOP), "%s: BOP2 without BOP", isa_ops[i].name);
		ck_assert_msg(!(r.srcmods & ~(OPF_NEG | OPF_ABS | OPF_NOT)), "%s", isa_ops[i].name);
		ck_assert_msg(r.deftype == TY_NONE || (r.dtypes & (1u << r.deftype)),
		              "%s: default type not accepted", isa_ops[i].name);
		ck_assert_msg(r.defstype == TY_NONE || (r.stypes & (1u << r.defstype)),
		              "%s: default source type not accepted", isa_ops[i].name);
		for (int w = 0; w < ISA_SUBWORDS; w++)
			subs_seen[w] |= r.subs[w];
	}
	for (int s = 1; s < SUB_COUNT; s++)
		ck_assert_msg(subs_seen[s / 64] >> (s % 64) & 1, "no op accepts .%s", isa_sub_name((Sub)s));
}
END_TEST

/* the columns of rules.def that say how operands are read, and where control goes, agree
 * with the op's shape, flags and modifier fields */
START_TEST(test_rules_columns)
{
	for (int i = 0; i < OP_COUNT; i++) {
		const IsaRules *r = isa_rules((Op)i);
		const ShapeInfo *si = isa_shape(isa_ops[i].shape);
		const char *mn = isa_ops[i].name;
		uint32_t f = isa_ops[i].flags, m = isa_ops[i].mods;
		int isrc = 0;

		ck_assert_msg(!r->regs[0] || (int)strlen(r->regs) == si->n,
		              "%s: regs \"%s\" for %d slots", mn, r->regs, si->n);
		for (int s = 0; r->regs[s]; s++) {
			int val = (si->classes[s] & (OC_R | OC_C | OC_M | OC_I)) != 0;
			char c = r->regs[s];
			ck_assert_msg((c == '-') == !val, "%s slot %d: '-' marks the slots that name no "
			              "register", mn, s + 1);
			ck_assert_msg(c != 'D' || r->dtypes, "%s: 'D' with no first type", mn);
			ck_assert_msg(c != 'S' || r->stypes, "%s: 'S' with no second type", mn);
			ck_assert_msg(c != 'E' || ((si->classes[s] & OC_M) && (m & M_E)),
			              "%s: 'E' on a slot that is no .E address", mn);
			ck_assert_msg(c != 'W' || (m & M_WIDE), "%s: 'W' without .WIDE", mn);
		}
		for (int s = 0; s < si->n; s++)
			isrc |= !si->dst[s] && (si->classes[s] & OC_I);
		ck_assert_msg(r->fimm == FIMM_NONE || isrc, "%s: float immediates, no immediate", mn);
		ck_assert_msg(r->fimm != FIMM_DTYPE || (r->dtypes & (1u << TY_F32 | 1u << TY_F64)),
		              "%s: immediates by a first type that is never a float", mn);
		ck_assert_msg(r->fimm != FIMM_STYPE || (r->stypes & (1u << TY_F32 | 1u << TY_F64)),
		              "%s: immediates by a second type that is never a float", mn);
		ck_assert_msg(r->cmpreq == ((m & M_CMP) != 0), "%s: comparison required iff accepted", mn);
		switch ((Flow)r->flow) {
		case FLOW_NEXT:
			ck_assert_msg(!(f & (F_BRANCH | F_PUSH | F_TARGET)), "%s: NEXT but a branch", mn);
			break;
		case FLOW_SYNC: case FLOW_STACK:
			ck_assert_msg(f & (F_PUSH | F_BRANCH), "%s: stack flow, no push or branch", mn);
			ck_assert_msg(!(f & (F_TARGET | F_INDIRECT)) || (f & F_PUSH),
			              "%s: a target but no push", mn);
			break;
		case FLOW_BRANCH:
			ck_assert_msg((f & F_BRANCH) && (f & F_TARGET) && !(f & F_PUSH), "%s", mn);
			break;
		case FLOW_INDIRECT:
			ck_assert_msg((f & F_BRANCH) && (f & F_INDIRECT) && !(f & F_PUSH), "%s", mn);
			break;
		case FLOW_CALL:
			ck_assert_msg((f & F_BRANCH) && (f & F_PUSH) && (f & (F_TARGET | F_INDIRECT)),
			              "%s", mn);
			break;
		case FLOW_EXIT: case FLOW_RETURN:
			ck_assert_msg((f & F_PRED) && !(f & (F_TARGET | F_INDIRECT | F_PUSH)), "%s", mn);
			break;
		case FLOW_COUNT:
			ck_abort_msg("%s: bad flow", mn);
		}
	}
	/* the notation: lists, "A..B" ranges, "(default)", "[optional]" */
	ck_assert_int_eq(isa_rules(OP_FADD)->rnds, 1u << RND_RN | 1u << RND_RZ | 1u << RND_RM |
	                 1u << RND_RP);
	ck_assert(isa_takes_sub(isa_rules(OP_ATOM), SUB_EXCH));
	ck_assert(!isa_takes_sub(isa_rules(OP_RED), SUB_CAS));
	ck_assert(!isa_takes_sub(isa_rules(OP_ATOM), SUB_NONE));
	ck_assert(isa_takes_sub(isa_rules(OP_LD), SUB_NONE));
	ck_assert(isa_rules(OP_MOV32I)->subs[0] == 1ull << SUB_NONE && !isa_rules(OP_MOV32I)->subs[1]);
	ck_assert(isa_takes_sub(isa_rules(OP_FMUL), SUB_M8) && isa_takes_sub(isa_rules(OP_FMUL), SUB_NONE));
	ck_assert_int_eq(isa_rules(OP_F2I)->defstype, TY_F32);
	ck_assert_int_eq(isa_rules(OP_LDC)->dtypes & (1u << TY_B128), 0);
	ck_assert_int_eq(isa_rules(OP_IADD)->srcmods, OPF_NEG | OPF_NOT);
	ck_assert_int_eq(isa_rules(OP_BPT)->flow, FLOW_EXIT);
	ck_assert_int_eq(isa_rules(OP_JCAL)->flow, FLOW_CALL);
}
END_TEST

START_TEST(test_names)
{
	for (int i = 1; i < SUB_COUNT; i++)
		ck_assert_str_ne(isa_sub_name((Sub)i), "?");
	for (int i = 1; i < CMP_COUNT; i++)
		ck_assert_str_ne(isa_cmp_name((Cmp)i), "?");
	for (int i = 1; i < BOP_COUNT; i++)
		ck_assert_str_ne(isa_bop_name((Bop)i), "?");
	for (int i = 1; i < TY_COUNT; i++)
		ck_assert_str_ne(isa_type_name((Type)i), "?");
	for (int i = 1; i < RND_COUNT; i++)
		ck_assert_str_ne(isa_rnd_name((Rnd)i), "?");
	for (int i = 0; i < CCT_COUNT; i++)
		ck_assert_str_ne(isa_cct_name((CCTest)i), "?");
	for (int i = 0; i < SR_COUNT; i++)
		ck_assert_str_ne(isa_sreg_name((SReg)i), "?");
	for (int i = 0; i < UNIT_COUNT; i++)
		ck_assert_str_ne(isa_unit_name((Unit)i), "?");
	for (int i = 0; i < LAT_COUNT; i++)
		ck_assert_str_ne(isa_lat_name((Lat)i), "?");
	for (int b = 0; b <= 12; b++)
		ck_assert_str_ne(isa_flag_name(b), "?");
	ck_assert_str_eq(isa_sub_name(SUB_PASS_B), "PASS_B");
	ck_assert_str_eq(isa_type_name(TY_B64), "64");
	ck_assert_str_eq(isa_cct_name(CCT_NE), "NE");
	ck_assert_str_eq(isa_sreg_name(SR_TID_X), "SR_TID.X");
	ck_assert_str_eq(isa_flag_name(9), "KEEPREFCOUNT");
	ck_assert_str_eq(isa_sub_name((Sub)200), "?");
	ck_assert_int_eq(isa_type_bytes(TY_B128), 16);
	ck_assert_int_eq(isa_type_bytes(TY_NONE), 4);
	ck_assert_int_eq(isa_type_bytes(TY_S16), 2);
}
END_TEST

START_TEST(test_format_ins)
{
	Ins in;
	char buf[128];
	Kernel k;

	memset(&k, 0, sizeof k);
	isa_ins_init(&in, OP_BRA);
	in.guard = 0;
	in.gneg = 1;
	in.nopd = 2;
	in.o[1].kind = OPD_TARGET;
	in.o[1].imm = 0x58;
	ck_assert_int_eq(isa_format_ins(buf, sizeof buf, &k, &in), 14);
	ck_assert_str_eq(buf, "@!P0 BRA 0x58;");
	/* truncation reports the full length, like snprintf */
	ck_assert_int_eq(isa_format_ins(buf, 5, &k, &in), 14);
	ck_assert_str_eq(buf, "@!P0");

	isa_ins_init(&in, OP_FADD);
	in.m.flags = MF_FTZ;
	in.m.rnd = RND_RZ;
	in.nopd = 3;
	in.o[0] = (Opd){.kind = OPD_REG, .reg = 1};
	in.o[1] = (Opd){.kind = OPD_REG, .reg = 2, .flags = OPF_NEG | OPF_ABS};
	in.o[2] = (Opd){.kind = OPD_IMM, .imm = 0xb7bcbe62}; /* -2.25e-05f */
	isa_format_ins(buf, sizeof buf, &k, &in);
	ck_assert_str_eq(buf, "FADD.FTZ.RZ R1, -|R2|, -2.25e-05;");

	isa_ins_init(&in, OP_LD);
	in.m.flags = MF_E;
	in.m.dtype = TY_B64;
	in.m.sub = SUB_CG;
	in.nopd = 2;
	in.o[0] = (Opd){.kind = OPD_REG, .reg = 4};
	in.o[1] = (Opd){.kind = OPD_MEM, .reg = 2, .imm = -4};
	isa_format_ins(buf, sizeof buf, &k, &in);
	ck_assert_str_eq(buf, "LD.E.CG.64 R4, [R2-0x4];");
	in.o[1] = (Opd){.kind = OPD_MEM, .reg = ISA_RZ, .imm = 0x10};
	isa_format_ins(buf, sizeof buf, &k, &in);
	ck_assert_str_eq(buf, "LD.E.CG.64 R4, [0x10];");

	isa_ins_init(&in, OP_IADD);
	in.nopd = 3;
	in.o[0] = (Opd){.kind = OPD_REG, .reg = ISA_RZ};
	in.o[1] = (Opd){.kind = OPD_CONST, .bank = 3, .reg = 2, .imm = 0x10};
	in.o[2] = (Opd){.kind = OPD_IMM, .imm = -4};
	isa_format_ins(buf, sizeof buf, &k, &in);
	ck_assert_str_eq(buf, "IADD RZ, c[0x3][R2+0x10], -0x4;");
}
END_TEST

/* isa_format_ins into every buffer size from 0 to past the text: the length returned is the
 * whole text's, and the buffer holds as much of it as fits, NUL-terminated, like snprintf
 * (a size of 0 writes nothing) */
START_TEST(test_format_ins_sizes)
{
	Ins in;
	char full[256], buf[256];
	Kernel k;
	int len;

	memset(&k, 0, sizeof k);
	isa_ins_init(&in, OP_FFMA);
	in.guard = 3;
	in.gneg = 1;
	in.m.flags = MF_FTZ | MF_SAT;
	in.m.rnd = RND_RM;
	in.nopd = 4;
	in.o[0] = (Opd){.kind = OPD_REG, .reg = 11};
	in.o[1] = (Opd){.kind = OPD_REG, .reg = 2, .flags = OPF_NEG | OPF_ABS};
	in.o[2] = (Opd){.kind = OPD_CONST, .bank = 0x10, .reg = 5, .imm = -0x1f4, .flags = OPF_NEG};
	in.o[3] = (Opd){.kind = OPD_REG, .reg = ISA_RZ};
	len = isa_format_ins(full, sizeof full, &k, &in);
	ck_assert_str_eq(full, "@!P3 FFMA.SAT.FTZ.RM R11, -|R2|, -c[0x10][R5-0x1f4], RZ;");
	ck_assert_int_eq(len, (int)strlen(full));
	for (int n = 0; n <= len + 1; n++) {
		memset(buf, '#', sizeof buf);
		ck_assert_int_eq(isa_format_ins(buf, (size_t)n, &k, &in), len);
		if (!n) {
			ck_assert_int_eq(buf[0], '#');
			continue;
		}
		ck_assert_int_eq((int)strlen(buf), n - 1 < len ? n - 1 : len);
		ck_assert(!strncmp(buf, full, strlen(buf)));
		ck_assert_int_eq(buf[n], '#');
	}
}
END_TEST

/* a kernel of a BRX over nt targets, each an EXIT: the BRX's line is printed whole, its
 * address and padding before it as on a short line, and every line after it follows */
static void long_line(int nt)
{
	size_t cap = 64 + 64 * (size_t)nt, at = 0, n = 0, wn;
	char *text = malloc(cap), *want = malloc(cap), *out = NULL, *errs = NULL, *line;
	Prog *p;
	FILE *f;

	ck_assert(text && want);
	at += (size_t)snprintf(text + at, cap - at, ".kernel k\n.registers 4\n        /*0000*/ BRX R2, {");
	for (int i = 0; i < nt; i++)
		at += (size_t)snprintf(text + at, cap - at, "%s0x%x", i ? ", " : "", 8 * (i + 1));
	at += (size_t)snprintf(text + at, cap - at, "};\n");
	for (int i = 0; i < nt; i++)
		at += (size_t)snprintf(text + at, cap - at, "        /*%04x*/ EXIT;\n", 8 * (i + 1));
	ck_assert_uint_lt(at, cap - 1);
	p = asm_str(text, &errs);
	ck_assert_msg(p != NULL, "%s", errs);
	f = open_memstream(&out, &n);
	isa_print_prog(f, p);
	fclose(f);
	line = strstr(out, "/*0000*/");
	ck_assert_ptr_nonnull(line);
	wn = (size_t)snprintf(want, cap, "/*0000*/%24s", "");
	wn += (size_t)isa_format_ins(want + wn, cap - wn, &p->k[0], &p->k[0].ins[0]);
	ck_assert_uint_gt(wn, nt > 500 ? 16384 : 512);
	for (int i = 0; i < nt; i++)
		wn += (size_t)snprintf(want + wn, cap - wn, "\n        /*%04x*/%24sEXIT;", 8 * (i + 1), "");
	ck_assert_uint_lt(wn, cap - 2);
	snprintf(want + wn, cap - wn, "\n");
	ck_assert_msg(!strcmp(line, want), "the printed kernel of %d targets differs", nt);
	free(out);
	free(errs);
	free(text);
	free(want);
	isa_prog_free(p);
}

/* lines longer than the printer's line buffer (512 bytes) and than the block it gathers the
 * lines of a kernel in (16 KiB) */
START_TEST(test_print_long_line)
{
	long_line(120);
	long_line(2600);
}
END_TEST

START_TEST(test_asm_string_api)
{
	char *errs = NULL;
	Prog *p = asm_str(".kernel k\n.registers 8\n.param 0x20 8 out\n"
	                  "top: S2R R0, SR_TID.X; @!P0 BRA top;\n"
	                  "  BRX R0, {top, 0x10};  // comment\n"
	                  "EXIT; # another\n", &errs);
	const Kernel *k;

	ck_assert_msg(p != NULL, "%s", errs);
	ck_assert_str_eq(errs, "");
	free(errs);
	ck_assert_int_eq(p->nk, 1);
	k = isa_prog_find(p, "k");
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_null(isa_prog_find(p, "nope"));
	ck_assert_int_eq(k->nins, 4);
	ck_assert_int_eq(k->regs, 8);
	ck_assert_int_eq(k->nparams, 1);
	ck_assert_str_eq(k->params[0].name, "out");
	ck_assert_int_eq(k->params[0].offset, 0x20);
	ck_assert_int_eq(k->ins[0].op, OP_S2R);
	ck_assert_int_eq(k->ins[0].o[1].kind, OPD_SREG);
	ck_assert_int_eq(k->ins[0].o[1].imm, SR_TID_X);
	ck_assert_int_eq(k->ins[1].op, OP_BRA);
	ck_assert_int_eq(k->ins[1].guard, 0);
	ck_assert_int_eq(k->ins[1].gneg, 1);
	ck_assert_int_eq(k->ins[1].o[0].kind, OPD_NONE);  /* no CC test */
	ck_assert_int_eq(k->ins[1].o[1].kind, OPD_TARGET);
	ck_assert_int_eq(k->ins[1].o[1].imm, 0);
	ck_assert_int_eq(k->ins[1].addr, 8);
	ck_assert_int_eq(k->ins[1].line, 4);
	ck_assert_int_eq(k->ins[2].o[1].kind, OPD_TLIST);
	ck_assert_int_eq(k->ins[2].o[1].n, 2);
	ck_assert_int_eq(k->tl[k->ins[2].o[1].imm], 0);
	ck_assert_int_eq(k->tl[k->ins[2].o[1].imm + 1], 0x10);
	ck_assert_int_eq(k->nlabels, 1);
	ck_assert_str_eq(k->labels[0].name, "top");
	ck_assert_int_eq(k->ins[3].op, OP_EXIT);
	ck_assert_int_eq(isa_check_kernel(k, "t", stderr), 0);
	isa_prog_free(p);
}
END_TEST

START_TEST(test_asm_registers_sized)
{
	char *errs = NULL;
	Prog *p = asm_str(".kernel k\nDADD R6, R2, R4;\nLD.E R9, [R10];\nEXIT;\n", &errs);

	ck_assert_msg(p != NULL, "%s", errs);
	free(errs);
	ck_assert_int_eq(p->k[0].regs, 12);  /* R10:R11 is the highest pair */
	isa_prog_free(p);
}
END_TEST

/* cache operators as real listings spell them (LDL.LU, ST.E.WT) are read as hints; one an
 * op does not take (a store's .LU) is a located error */
START_TEST(test_asm_cache_operators)
{
	char *errs = NULL;
	Prog *p = asm_str(".kernel k\nLDL.LU R0, [R1+0xc];\nSTL.WT [R1], R2;\nLD.E.CS R3, [R4];\n"
	                  "ST.E.WT [R4], R3;\nEXIT;\n", &errs);
	char buf[128];

	ck_assert_msg(p != NULL, "%s", errs);
	ck_assert_str_eq(errs, "");
	free(errs);
	ck_assert_int_eq(p->k[0].ins[0].m.sub, SUB_LU);
	ck_assert_int_eq(p->k[0].ins[1].m.sub, SUB_WT);
	ck_assert_int_eq(p->k[0].ins[2].m.sub, SUB_CS);
	ck_assert_int_eq(p->k[0].ins[3].m.sub, SUB_WT);
	isa_format_ins(buf, sizeof buf, &p->k[0], &p->k[0].ins[0]);
	ck_assert_str_eq(buf, "LDL.LU R0, [R1+0xc];");
	isa_format_ins(buf, sizeof buf, &p->k[0], &p->k[0].ins[3]);
	ck_assert_str_eq(buf, "ST.E.WT [R4], R3;");
	ck_assert_int_eq(isa_check_kernel(&p->k[0], "t", stderr), 0);
	isa_prog_free(p);

	p = asm_str(".kernel k\nSTL.LU [R1], R2;\nEXIT;\n", &errs);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(errs, "t.sass:2:5: error: STL does not take .LU") != NULL, "%s", errs);
	free(errs);
}
END_TEST

START_TEST(test_asm_errors)
{
	char *errs = NULL;
	Prog *p = asm_str(".kernel k\n  IAD R0, R1, R2;\n  DADD R1, R2, R4;\n  EXIT\n", &errs);

	ck_assert_ptr_null(p);
	ck_assert_str_eq(errs,
		"t.sass:2:3: error: unknown opcode 'IAD'\n"
		"  IAD R0, R1, R2;\n"
		"  ^\n"
		"t.sass:3:8: error: R1 must be even: operand 1 of DADD is a register pair\n"
		"  DADD R1, R2, R4;\n"
		"       ^\n"
		"t.sass:4:7: error: expected ';' after the instruction, got 'end of line'\n"
		"  EXIT\n"
		"      ^\n");
	free(errs);
}
END_TEST

START_TEST(test_asm_float_roundtrip)
{
	static const uint32_t bits[] = {
		0x00000000, 0x80000000, 0x3f800000, 0x3dcccccd, 0x00000001, 0x007fffff,
		0x7f7fffff, 0xff800000, 0x7f800000, 0x7fc00000, 0x7fa00001, 0x4b000001, 0x42c80000,
	};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		Kernel *k;
		Prog *p = isa_prog_new(), *q;
		Ins in;
		char buf[128], text[256], *errs = NULL;

		k = isa_prog_add_kernel(p, "k");
		isa_ins_init(&in, OP_FMUL);
		in.nopd = 3;
		in.o[0] = (Opd){.kind = OPD_REG, .reg = 0};
		in.o[1] = (Opd){.kind = OPD_REG, .reg = 1};
		in.o[2] = (Opd){.kind = OPD_IMM, .imm = bits[i]};
		isa_kernel_add(k, &in);
		isa_format_ins(buf, sizeof buf, k, &k->ins[0]);
		snprintf(text, sizeof text, ".kernel k\n%s\n", buf);
		q = asm_str(text, &errs);
		ck_assert_msg(q != NULL, "%s: %s", buf, errs);
		ck_assert_msg((uint32_t)q->k[0].ins[0].o[2].imm == bits[i], "%s read back as 0x%x",
		              buf, (unsigned)q->k[0].ins[0].o[2].imm);
		free(errs);
		isa_prog_free(p);
		isa_prog_free(q);
	}
}
END_TEST

/* the listing parser's name tables are built at its first use: threads that parse at once
 * all read the same program (under make check each test runs in a process of its own, so this
 * is the first use; check-valgrind's CK_FORK=no runs the tests before it in the same one). A
 * race shows under -fsanitize=thread; without it only as a wrong program or a crash */
static const char thread_listing[] =
	".kernel k\n.registers 16\ntop: S2R R0, SR_TID.X;\nIADD.X R1, R2, R3;\n"
	"ISETP.GE.U32.AND P0, PT, R1, 0x10, PT;\nFFMA.FTZ R4, R5, 0.5, R6;\nLOP.XOR R1, R2, R3;\n"
	"SHR.U32 R1, R1, 0x2;\nIMAD.WIDE.U32 R8, R2, R3, R10;\nLD.E.64 R6, [R8+0x8];\n"
	"@!P0 BRA top;\nEXIT;\n";

/* thread: parses thread_listing and prints it into *(char **)arg (NULL if it failed) */
static void *parse_print(void *arg)
{
	char *errs = NULL, *out = NULL;
	size_t n = 0;
	Prog *p = asm_str(thread_listing, &errs);
	FILE *f = open_memstream(&out, &n);

	if (p && f)
		isa_print_prog(f, p);
	if (f)
		fclose(f);
	if (!p) {
		free(out);
		out = NULL;
	}
	isa_prog_free(p);
	free(errs);
	*(char **)arg = out;
	return NULL;
}

START_TEST(test_asm_threads)
{
	char *ref = ck_same_on_threads(parse_print);

	ck_assert_ptr_nonnull(strstr(ref, "IMAD.U32.WIDE R8, R2, R3, R10;"));
	free(ref);
}
END_TEST

/* the listing's blanks (isa/asm_lex.c past_blanks): a space, tab, \r, \f or \v between tokens;
 * before a statement's address comment a space or a tab, after which it places the statement
 * (after a \r, \f or \v it is an ordinary comment) */
static char *print_of(const char *text)
{
	char *errs = NULL, *out = NULL;
	size_t n = 0;
	Prog *p = asm_str(text, &errs);
	FILE *f = open_memstream(&out, &n);

	ck_assert_msg(p != NULL, "%s", errs);
	isa_print_prog(f, p);
	fclose(f);
	isa_prog_free(p);
	free(errs);
	return out;
}

START_TEST(test_asm_blanks)
{
	char *plain = print_of(".kernel k\n.registers 8\n/*0000*/ MOV R0, R1;\n/*0008*/ EXIT;\n");
	char *blanks = print_of(".kernel\tk\r\n.registers \f8\v\n \t/*0000*/\tMOV\vR0,\fR1 \r;\r\n"
	                        "\t\t/*0008*/ \t EXIT;\n");
	char *tab = print_of(".kernel k\n\t /*0010*/ MOV R0, R1;\n");
	char *vt = print_of(".kernel k\n\v/*0010*/ MOV R0, R1;\n");

	ck_assert_str_eq(blanks, plain);
	ck_assert_ptr_nonnull(strstr(tab, "/*0010*/"));
	ck_assert_ptr_nonnull(strstr(vt, "/*0000*/"));
	ck_assert_ptr_null(strstr(vt, "/*0010*/"));
	free(plain);
	free(blanks);
	free(tab);
	free(vt);
}
END_TEST

/* float immediates print as the shortest %g text that reads back, the first on ties: the
 * printer stops trying precisions once none can be shorter (isa/print.c fmt_shortest). 1e11 as
 * F32 and 1e23 as F64 read back from a power of ten they are not (a carry); 1e-45 and -1e-40
 * are F32 subnormals, 5e-324 and 2.5e-310 F64 ones (three exponent digits; as F32 they are 0) */
START_TEST(test_float_shortest)
{
	static const struct { const char *in, *f32, *f64; } t[] = {
		{"0.5", "0.5", "0.5"}, {"100", "100", "100"}, {"120", "120", "120"},
		{"1e10", "1e+10", "1e+10"}, {"1.5e10", "1.5e+10", "1.5e+10"},
		{"1234567", "1234567", "1234567"}, {"0.001", "0.001", "0.001"},
		{"0.00012", "0.00012", "0.00012"}, {"1.2e-05", "1.2e-05", "1.2e-05"},
		{"3.14159265358979", "3.1415927", "3.14159265358979"}, {"-0", "-0", "-0"},
		{"0.99999994", "0.99999994", "0.99999994"}, {"99.999", "99.999", "99.999"},
		{"16777216", "16777216", "16777216"}, {"1e23", "1e+23", "1e+23"},
		{"1e11", "1e+11", "1e+11"}, {"1e-45", "1e-45", "1e-45"}, {"-1e-40", "-1e-40", "-1e-40"},
		{"5e-324", "0", "5e-324"}, {"2.5e-310", "0", "2.5e-310"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		for (int w = 0; w < 2; w++) {
			Prog *p = isa_prog_new();
			Kernel *k = isa_prog_add_kernel(p, "k");
			float f = strtof(t[i].in, NULL);
			double d = strtod(t[i].in, NULL);
			uint32_t b32;
			uint64_t b64;
			char buf[128], want[128];
			Ins in;
			memcpy(&b32, &f, sizeof b32);
			memcpy(&b64, &d, sizeof b64);
			isa_ins_init(&in, w ? OP_DMUL : OP_FMUL);
			in.nopd = 3;
			in.o[0] = (Opd){.kind = OPD_REG, .reg = 0};
			in.o[1] = (Opd){.kind = OPD_REG, .reg = 2};
			in.o[2] = (Opd){.kind = OPD_IMM, .imm = w ? (int64_t)b64 : (int64_t)b32};
			isa_kernel_add(k, &in);
			isa_format_ins(buf, sizeof buf, k, &k->ins[0]);
			snprintf(want, sizeof want, "%s R0, R2, %s;", w ? "DMUL" : "FMUL",
			         w ? t[i].f64 : t[i].f32);
			ck_assert_str_eq(buf, want);
			isa_prog_free(p);
		}
}
END_TEST

START_TEST(test_nregs)
{
	Ins in;

	isa_ins_init(&in, OP_IMAD);
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 1);
	in.m.flags = MF_WIDE;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 2);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	ck_assert_int_eq(isa_ins_nregs(&in, 3), 2);
	isa_ins_init(&in, OP_ST);
	in.m.flags = MF_E;
	in.m.dtype = TY_B128;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 2);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 4);
	isa_ins_init(&in, OP_F2I);
	in.m.dtype = TY_S64;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 2);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	ck_assert_int_eq(isa_ins_dtype(&in), TY_S64);
	ck_assert_int_eq(isa_ins_stype(&in), TY_F32);
	ck_assert_int_eq(isa_imm_float_bits(&in, 1), 32);
	ck_assert_int_eq(isa_imm_float_bits(&in, 0), 0);
	isa_ins_init(&in, OP_LD);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	in.m.flags = MF_E;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 2);
	isa_ins_init(&in, OP_LDS);
	in.m.flags = MF_E;          /* not accepted: no pair */
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	isa_ins_init(&in, OP_RED);
	in.m.dtype = TY_U64;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 1);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 2);
	/* TEX/TLD: the result is the channels of the mask (operand 4, a quad without one), the
	 * coordinates 1, 2 or a quad by geometry, one more with TLD.AOFFI's offsets */
	isa_ins_init(&in, OP_TEX);
	in.m.sub = SUB_2D;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 4);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 2);
	in.o[3].kind = OPD_IMM;
	in.o[3].imm = 0x3;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 2);
	in.o[3].imm = 0x1;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 1);
	in.o[3].imm = 0xb;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 3);
	isa_ins_init(&in, OP_TLD);
	in.m.sub = SUB_1D;
	in.m.flags = MF_AOFFI;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 2);
	in.m.sub = SUB_2D;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 3);
	in.m.sub = SUB_3D;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 4);
	isa_ins_init(&in, OP_TEX);   /* TEX.LL: the level of detail after the coordinates */
	in.m.sub = SUB_2D;
	in.m.flags = MF_LL;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 3);
	isa_ins_init(&in, OP_MATCH);
	in.m.dtype = TY_B64;
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	ck_assert_int_eq(isa_ins_nregs(&in, 2), 2);
	isa_ins_init(&in, OP_F2F);
	in.m.dtype = TY_F64;
	in.m.stype = TY_F16;
	ck_assert_int_eq(isa_ins_nregs(&in, 0), 2);
	ck_assert_int_eq(isa_ins_nregs(&in, 1), 1);
	ck_assert_int_eq(isa_imm_float_bits(&in, 1), 0);    /* F16 sources read integers */
	isa_ins_init(&in, OP_FDIV);
	in.m.dtype = TY_F64;
	ck_assert_int_eq(isa_imm_float_bits(&in, 2), 64);
	ck_assert_int_eq(isa_ins_nregs(&in, 2), 2);
	isa_ins_init(&in, OP_DSETP);
	ck_assert_int_eq(isa_ins_nregs(&in, 2), 2);
	ck_assert_int_eq(isa_imm_float_bits(&in, 3), 64);
	ck_assert_int_eq(isa_ins_writes(&in, 0), 1);
	ck_assert_int_eq(isa_ins_writes(&in, 2), 0);
}
END_TEST

START_TEST(test_check_kernel_backend)
{
	Prog *p = isa_prog_new();
	Kernel *k = isa_prog_add_kernel(p, "k");
	Ins in;
	char *errs = NULL;
	size_t n = 0;
	FILE *f;
	int ne;

	k->regs = 4;
	isa_ins_init(&in, OP_BRA);
	in.nopd = 2;
	in.o[1] = (Opd){.kind = OPD_TARGET, .imm = 0x40};
	isa_kernel_add(k, &in);
	isa_ins_init(&in, OP_MOV);
	in.nopd = 2;
	in.o[0] = (Opd){.kind = OPD_REG, .reg = 4};
	in.o[1] = (Opd){.kind = OPD_REG, .reg = 1};
	isa_kernel_add(k, &in);
	isa_ins_init(&in, OP_EXIT);
	isa_kernel_add(k, &in);
	isa_kernel_add_label(k, "f", 0x8, LBL_FUNC);
	f = open_memstream(&errs, &n);
	ne = isa_check_kernel(k, "gen", f);
	fclose(f);
	ck_assert_int_eq(ne, 2);
	ck_assert_str_eq(errs,
		"gen: kernel 'k' /*0000*/: error: target 0x40 is outside the kernel (code ends at 0x18)\n"
		"gen: kernel 'k' /*0008*/: error: R4 is beyond the kernel's 4 registers\n");
	free(errs);
	ck_assert_ptr_nonnull(isa_kernel_find_label(k, "f"));
	isa_prog_free(p);
}
END_TEST

/* random and mutated inputs: no crash, no leak, and NULL exactly when errors were printed */
START_TEST(test_asm_garbage)
{
	static const char seed[] = ".kernel k\n.registers 8\n@!P0 BRA CC.NE, l;\nl: LD.E.64 R2, "
	                           "[R4+-0x8]; FADD R0, -|R1|, 1e-3; BRX R0, {l, 0x0};\nEXIT;\n";
	char buf[sizeof seed];
	uint32_t x = 12345;

	for (int it = 0; it < 3000; it++) {
		char *errs = NULL;
		Prog *p;
		memcpy(buf, seed, sizeof seed);
		for (int m = 0; m < 1 + it % 4; m++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			buf[x % (sizeof seed - 1)] = (char)(x >> 8);
		}
		p = asm_str(buf, &errs);
		ck_assert((p == NULL) == (errs[0] != 0));
		if (p) {
			char *out = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&out, &n);
			isa_print_prog(f, p);
			fclose(f);
			free(out);
		}
		isa_prog_free(p);
		free(errs);
	}
}
END_TEST

/* isa_asm_opaque (warpc --compare's reader of ptxas's listing): an opcode the reader does not
 * know (SUCLAMP) and a fetch it does not support (TLD.B) become NOPs at their addresses, their
 * guards kept, and are counted; the rest, a branch past them included, reads as isa_asm
 * reads it; isa_asm refuses the same text with a located error */
START_TEST(test_asm_opaque)
{
	static const char text[] =
		".kernel k\n"
		"/*0000*/ ISETP.GE.AND P0, PT, R0, 0x4, PT;\n"
		"/*0008*/ @P0 SUCLAMP.SD.R4.Z R1, R0, c[0x0][0x30], 0x0;\n"
		"/*0010*/ @!P0 BRA 0x28;\n"
		"/*0018*/ TLD.B.LZ.T R2, R0, 0x0, 2D, 0x1;\n"
		"/*0020*/ MOV R3, R2;\n"
		"/*0028*/ EXIT;\n";
	size_t n = 0;
	char *errs = NULL;
	FILE *f = open_memstream(&errs, &n);
	int nopaque = -1;
	Prog *p = isa_asm_opaque("t.sass", text, strlen(text), f, &nopaque);

	fclose(f);
	ck_assert_msg(p != NULL, "%s", errs);
	ck_assert_str_eq(errs, "");
	ck_assert_int_eq(nopaque, 2);
	ck_assert_int_eq(p->k[0].nins, 6);
	ck_assert_int_eq(p->k[0].ins[1].op, OP_NOP);
	ck_assert_int_eq(p->k[0].ins[1].guard, 0);
	ck_assert_int_eq(p->k[0].ins[1].gneg, 0);
	ck_assert_int_eq(p->k[0].ins[2].op, OP_BRA);
	ck_assert_int_eq(p->k[0].ins[2].o[1].imm, 0x28);
	ck_assert_int_eq(p->k[0].ins[3].op, OP_NOP);
	ck_assert_int_eq(p->k[0].ins[4].op, OP_MOV);
	isa_prog_free(p);
	free(errs);
	p = asm_str(text, &errs);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(errs, "t.sass:3:") && strstr(errs, "unknown opcode 'SUCLAMP'"), "%s", errs);
	free(errs);
}
END_TEST

static Suite *isa_suite(void)
{
	Suite *s = suite_create("isa");
	TCase *t = tcase_create("tables");

	tcase_add_test(t, test_mnemonics_unique);
	tcase_add_test(t, test_shapes_parse);
	tcase_add_test(t, test_branches_have_targets);
	tcase_add_test(t, test_asm_opaque);
	tcase_add_test(t, test_fold_flags);
	tcase_add_test(t, test_memory_ops_destinations);
	tcase_add_test(t, test_rules_match_fields);
	tcase_add_test(t, test_rules_columns);
	tcase_add_test(t, test_names);
	suite_add_tcase(s, t);
	t = tcase_create("print-asm");
	tcase_add_test(t, test_format_ins);
	tcase_add_test(t, test_format_ins_sizes);
	tcase_add_test(t, test_print_long_line);
	tcase_add_test(t, test_asm_string_api);
	tcase_add_test(t, test_asm_registers_sized);
	tcase_add_test(t, test_asm_cache_operators);
	tcase_add_test(t, test_asm_errors);
	tcase_add_test(t, test_asm_float_roundtrip);
	tcase_add_test(t, test_asm_threads);
	tcase_add_test(t, test_float_shortest);
	tcase_add_test(t, test_asm_blanks);
	tcase_add_test(t, test_nregs);
	tcase_add_test(t, test_check_kernel_backend);
	tcase_add_test(t, test_asm_garbage);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{

	return ck_run(isa_suite());
}
