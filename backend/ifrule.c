/* ifrule.c - how ptxas 11.8 counts a hammock for sm_35 (--predicate-rule sm35, kepler.cfg's
 * default), for ifconv.c: fitted on tests/ptxas-ref/families (docs/predication.md). A side
 * counts its microcode instructions plus the jump that ends it (the bra.uni to the join of
 * an if/else's first side: ptxas keeps it as a BRA when it branches); the larger side is the
 * cost. A side that computes with the value of a global or generic load it made (a store of
 * it is fine) is never converted, nor one holding an inner converted hammock beside other
 * code (ptxas converts the innermost hammock only, unless it is the whole side).
 *
 * Needs isel (and the inner conversions done); reads the blocks, changes nothing.
 */
#include <string.h>
#include "backend/be.h"

/* in reads temporary t (a source operand, or the base of an address) */
static int reads(const MIns *in, int t)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int i = 0; i < in->nopd; i++)
		if ((i >= si->n || !si->dst[i]) && (in->o[i].kind == OPD_REG ||
		    in->o[i].kind == OPD_MEM) && in->o[i].t == t)
			return 1;
	return 0;
}

int be_ifrule_sm35_side(const Fn *f, const int *chain, int nchain, int size, char *why,
                        size_t nwhy)
{
	int guarded = 0, plain = 0, c = size, nld = 0, ld[8];

	for (int k = 0; k < nchain; k++) {
		const Blk *x = &f->blk[chain[k]];
		for (int i = 0; i < x->nins; i++) {
			const MIns *in = &x->ins[i];
			int use = 0;
			for (int l = 0; l < nld; l++)
				use |= reads(in, ld[l]);
			/* a copy of the loaded value (isel's move into the PTX register) or a store of
			 * it is not a use: ptxas predicates pipeline's load-and-store sides */
			if (use && in->op != OP_MOV && !(isa_ops[in->op].flags & F_STORE) && why && !why[0])
				snprintf(why, nwhy, "a side uses the result of a global load");
			if ((in->op == OP_LD || in->op == OP_LDG || (use && in->op == OP_MOV)) &&
			    in->nopd > 0 && in->o[0].kind == OPD_REG && nld < 8)
				ld[nld++] = in->o[0].t;
			guarded += in->guard != T_PT;
			plain += in->guard == T_PT;
		}
		if (k == nchain - 1 && x->jmp.kind == J_JMP && x->jmp.ptxins >= 0)
			c++;
	}
	if (guarded && plain && why && !why[0])
		snprintf(why, nwhy, "a side holds a converted hammock and other code");
	return c;
}
