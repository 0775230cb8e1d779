/* warp.c - the warp collectives: the threads of one warp that wait at the same instruction
 * (sched.c forms the group) evaluate it together. Every source value is read before any
 * destination is written, as in a SIMT register file.
 *
 * Participants, for each lane: the group, less the lanes outside that lane's own membermask.
 * Lanes with different membermasks at the same instruction are separate collectives (PTX:
 * each thread waits for the threads of its membermask that run it with the same membermask
 * value), as the groups of match.any or a labeled partition are. A shfl source lane that does
 * not take part gives the reading lane its own value (PTX leaves it undefined);
 * vote/match/redux/elect look only at the participants. */
#include "oracle/internal.h"

#define FR(t) (&(t)->fr[(t)->nfr - 1])

static uint32_t lanebit(const Thread *t) { return 1u << (t->lin % 32); }

void or_collective(Oracle *o, Thread **g, int n)
{
	const PIns *in = or_cur(o, g[0]);
	const POpd *op = in->o;
	int ty = in->m.types[0];
	uint32_t gm = 0, parts[32] = {0};
	uint64_t val[32] = {0}, res[32] = {0};
	uint8_t pr[32] = {0}, has[32] = {0};
	int maskslot = -1;

	for (int i = 0; i < n; i++) {
		gm |= lanebit(g[i]);
	}
	switch (in->op) {
	case PO_SHFL: maskslot = in->nopd > 5 ? 5 : -1; break;
	case PO_VOTE: maskslot = in->nopd > 2 ? 2 : -1; break;
	case PO_MATCH: maskslot = 3; break;
	case PO_REDUX: maskslot = 2; break;
	case PO_ELECT: maskslot = 2; break;
	case PO_BAR_WARP_SYNC: maskslot = 0; break;
	default: break;
	}
	for (int i = 0; i < n; i++) {
		Thread *t = g[i];
		int l = t->lin % 32;
		parts[l] = maskslot >= 0 ? gm & (uint32_t)or_get(o, t, &op[maskslot], PT_U32) : gm;
		switch (in->op) {
		case PO_SHFL: val[l] = or_get(o, t, &op[2], PT_B32); break;
		case PO_VOTE: val[l] = or_getp(o, t, &op[1]); break;
		case PO_MATCH: val[l] = or_get(o, t, &op[2], ty); break;
		case PO_REDUX: val[l] = or_get(o, t, &op[1], ty); break;
		default: break;
		}
		has[l] = 1;
	}
	for (int i = 0; i < n && !o->result; i++) {
		Thread *t = g[i];
		uint32_t l = t->lin % 32, part = parts[l];
		switch (in->op) {
		case PO_SHFL: {
			uint32_t b = (uint32_t)or_get(o, t, &op[3], PT_U32), c = (uint32_t)or_get(o, t, &op[4], PT_U32);
			uint32_t clamp = c & 31, seg = (c >> 8) & 31;
			uint32_t maxl = (l & seg) | (clamp & ~seg), minl = l & seg;
			int32_t j = (int32_t)l;
			int ok = 0;
			switch ((PShfl)in->m.shfl) {
			case PSHFL_UP: j = (int32_t)l - (int32_t)(b & 31); ok = j >= (int32_t)maxl; break;
			case PSHFL_DOWN: j = (int32_t)l + (int32_t)(b & 31); ok = j <= (int32_t)maxl; break;
			case PSHFL_BFLY: j = (int32_t)(l ^ (b & 31)); ok = j <= (int32_t)maxl; break;
			case PSHFL_IDX: j = (int32_t)(minl | (b & 31 & ~seg)); ok = j <= (int32_t)maxl; break;
			case PSHFL_NONE: case PSHFL_COUNT: break;
			}
			if (!ok)
				j = (int32_t)l;
			res[l] = (has[j] && (part >> j & 1)) ? val[j] : val[l];
			pr[l] = (uint8_t)ok;
			break;
		}
		case PO_VOTE: {
			uint32_t ballot = 0;
			for (int k = 0; k < 32; k++)
				if ((part >> k & 1) && val[k])
					ballot |= 1u << k;
			switch ((PVote)in->m.vote) {
			case PVOTE_ALL: res[l] = ballot == part; break;
			case PVOTE_ANY: res[l] = ballot != 0; break;
			case PVOTE_UNI: res[l] = ballot == 0 || ballot == part; break;
			case PVOTE_BALLOT: res[l] = ballot; break;
			case PVOTE_NONE: case PVOTE_COUNT: break;
			}
			break;
		}
		case PO_ACTIVEMASK:
			res[l] = gm;
			break;
		case PO_MATCH: {
			uint32_t same = 0;
			for (int k = 0; k < 32; k++)
				if ((part >> k & 1) && val[k] == val[l])
					same |= 1u << k;
			if (in->m.vote == PVOTE_ALL) {
				pr[l] = same == part;
				res[l] = same == part ? part : 0;
			} else
				res[l] = same;
			break;
		}
		case PO_REDUX: {
			int sign = ptx_type_kind((PType)ty) == PTK_SIGNED, first = 1;
			uint32_t acc = 0;
			for (int k = 0; k < 32; k++) {
				uint32_t v = (uint32_t)val[k];
				if (!(part >> k & 1))
					continue;
				if (first) {
					acc = v, first = 0;
					continue;
				}
				switch ((PAop)in->m.aop) {
				case PAOP_ADD: acc += v; break;
				case PAOP_AND: acc &= v; break;
				case PAOP_OR: acc |= v; break;
				case PAOP_XOR: acc ^= v; break;
				case PAOP_MIN: acc = sign ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
				case PAOP_MAX: acc = sign ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
				case PAOP_NONE: case PAOP_CAS: case PAOP_EXCH: case PAOP_INC: case PAOP_DEC:
				case PAOP_POPC: case PAOP_COUNT:
					or_error(o, t, OR_UNSUP, "unsupported: redux%s", ptx_aop_name((PAop)in->m.aop));
					break;
				}
			}
			res[l] = acc;
			break;
		}
		case PO_ELECT: {
			uint32_t leader = 0;
			while (leader < 32 && !(part >> leader & 1))
				leader++;
			res[l] = leader;
			pr[l] = leader == l;
			break;
		}
		default:
			break;
		}
	}
	for (int i = 0; i < n && !o->result; i++) {
		Thread *t = g[i];
		int l = t->lin % 32;
		switch (in->op) {
		case PO_SHFL: case PO_MATCH: case PO_ELECT:
			or_put(o, t, &op[0], res[l]);
			or_put(o, t, &op[1], pr[l]);
			break;
		case PO_VOTE: case PO_ACTIVEMASK: case PO_REDUX:
			or_put(o, t, &op[0], res[l]);
			break;
		default:
			break;
		}
		FR(t)->pc++;
		t->state = TS_RUN;
	}
	o->st.collectives++;
}
