/* cost.c - the static cost model of --explain (issue 18 part 4): what each decision of a
 * hammock is expected to cost, in cycles per execution by one warp, from the sizes of its
 * sides and two figures of the architecture (BeOptions.cost_issue, the cycles a warp
 * instruction occupies its pipeline, --alu-interval; BeOptions.cost_ctrl, the cycles before
 * a warp fetches again after a branch, --ctrl-latency):
 *   predicated        issue * (taken + fall): every warp issues both sides;
 *   uniform branch    issue * (1 + (taken + fall) / 2) + ctrl: one BRA, on average half of
 *                     the code, one fetch redirection;
 *   divergent branch  issue * (taken + fall + 3) + 2 * ctrl (if-then-else: + 4): SSY, BRA,
 *                     (the BRA over the else,) .S, both sides for a warp whose lanes split, two
 *                     redirections.
 * Divergence is taken as static analysis says (a branch that may diverge is assumed to), so
 * the model cannot see a branch whose warps rarely split in practice; --explore measures how
 * far it is off (docs/explore.md). Branches that are not hammocks have no alternative: -1.
 * Calls nothing.
 */
#include <string.h>
#include "backend/be.h"

void be_cost(const BeOptions *o, BeLogEntry *e)
{
	int s = e->size_then + e->size_else, I = o->cost_issue;

	e->cost_pred = e->cost_branch = -1;
	if (I <= 0 || e->size_then < 0 || e->size_else < 0 || e->decision == BD_EXIT ||
	    e->decision == BD_RET ||
	    (strcmp(e->shape, "if-then") && strcmp(e->shape, "if-then-else") && strcmp(e->shape, "branch")))
		return;
	e->cost_pred = I * s;
	if (e->uniform)
		e->cost_branch = I * (1 + s / 2) + o->cost_ctrl;
	else
		e->cost_branch = I * (s + (strcmp(e->shape, "if-then-else") ? 3 : 4)) + 2 * o->cost_ctrl;
}
