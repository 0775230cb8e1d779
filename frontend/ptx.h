/* ptx.h - the PTX frontend: the PTX IR (module, functions, instructions, operands) and the
 * API to parse, check, print and free it.
 *
 * Files: ptx.l (lexer), lexsup.c (its keywords and literals), ptx.y (grammar), build.c
 * (module, functions, scopes, ptx_parse), decl.c (declarations), ins.c (instructions,
 * operands, name resolution), mods.c (opcode and modifier decoding), check.c (semantic
 * checks), print.c (-dP printer), diag.c (located diagnostics), tables.c (vectors, hash
 * tables), util.c (arena, op table, names). docs/frontend.md describes the whole.
 *
 * The IR is resolved: a register operand is a per-function register id (scopes and %r<N>
 * ranges are gone), a named operand says which table its index points into, modifiers are
 * typed fields. Consumers never look at names to find things and never parse modifier
 * strings. Everything a Module points to lives in its arena and goes with ptx_free().
 *
 * Type names carry a P prefix (PIns, POpd, ...) so that they never clash with isa/isa.h,
 * which the backend includes beside this file.
 */
#ifndef WARPSIM_PTX_H
#define WARPSIM_PTX_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* ------------------------------------------------------------------ opcodes (ptxops.def) */
typedef enum {
#define PTX_OP(id, name, min, max, cls, flags, sig) PO_##id,
#include "frontend/ptxops.def"
	PO_COUNT
} POp;

typedef enum {
	PC_ARITH,  /* integer and generic arithmetic (also on floats) */
	PC_FLOAT,  /* floating-point only */
	PC_CMP,    /* comparison and selection */
	PC_LOGIC,  /* logic, shifts, bit fields */
	PC_MOVE,   /* mov */
	PC_CONV,   /* conversions, address conversions */
	PC_MEM,    /* loads, stores, atomics */
	PC_CTRL,   /* control flow */
	PC_SYNC,   /* barriers, fences, warp collectives */
	PC_OTHER,  /* parsed, not supported yet */
	PC_COUNT
} PClass;

/* op flags (ptxops.def column 6) */
enum {
	PF_PAIR    = 1 << 0,  /* slots 0 and 1 are the "d|p" destinations (slot 1 may be a sink) */
	PF_CARRY   = 1 << 1,  /* reads CC.CF (addc, subc, madc) */
	PF_LOAD    = 1 << 2,  /* reads memory */
	PF_STORE   = 1 << 3,  /* writes memory */
	PF_NODST   = 1 << 4,  /* slot 0 is not a destination */
	PF_BRANCH  = 1 << 5,  /* may change the pc */
	PF_CALL    = 1 << 6,  /* call */
	PF_TERM    = 1 << 7,  /* ends the thread's path (ret, exit, trap) */
	PF_BARRIER = 1 << 8,  /* CTA barrier */
	PF_WARP    = 1 << 9,  /* warp collective: needs the lanes of the warp together */
	PF_UNSUP   = 1 << 10, /* valid PTX, parsed, rejected by ptx_check as unsupported */
	PF_TEX     = 1 << 11, /* a texture instruction (tex, tld4, txq): a texture operand */
	PF_SURF    = 1 << 12, /* a surface instruction (suld, sust, suq): a surface operand */
};

typedef struct {
	const char *name;  /* opcode as written ("brx.idx") */
	uint8_t min, max;  /* operand count range after normalisation */
	uint8_t cls;       /* PClass */
	uint16_t flags;    /* PF_* */
	const char *sig;   /* operand signature, see ptxops.def */
} POpInfo;

extern const POpInfo ptx_ops[PO_COUNT];

/* ------------------------------------------------------------------ types */
/* X(id, name, bytes, kind); bytes is the size of one element (f16x2: 4) */
#define PTX_TYPES(X) \
	X(NONE, "", 0, NONE) \
	X(B8, ".b8", 1, BITS) X(B16, ".b16", 2, BITS) X(B32, ".b32", 4, BITS) \
	X(B64, ".b64", 8, BITS) X(B128, ".b128", 16, BITS) \
	X(U8, ".u8", 1, UNSIGNED) X(U16, ".u16", 2, UNSIGNED) X(U32, ".u32", 4, UNSIGNED) \
	X(U64, ".u64", 8, UNSIGNED) \
	X(S8, ".s8", 1, SIGNED) X(S16, ".s16", 2, SIGNED) X(S32, ".s32", 4, SIGNED) \
	X(S64, ".s64", 8, SIGNED) \
	X(F16, ".f16", 2, FLOAT) X(F16X2, ".f16x2", 4, FLOAT) X(BF16, ".bf16", 2, FLOAT) \
	X(BF16X2, ".bf16x2", 4, FLOAT) X(TF32, ".tf32", 4, FLOAT) X(F32, ".f32", 4, FLOAT) \
	X(F64, ".f64", 8, FLOAT) \
	X(E4M3, ".e4m3", 1, FLOAT) X(E5M2, ".e5m2", 1, FLOAT) X(E4M3X2, ".e4m3x2", 2, FLOAT) \
	X(E5M2X2, ".e5m2x2", 2, FLOAT) \
	X(PRED, ".pred", 1, PRED) \
	X(TEXREF, ".texref", 8, OPAQUE) X(SAMPLERREF, ".samplerref", 8, OPAQUE) \
	X(SURFREF, ".surfref", 8, OPAQUE)
typedef enum {
#define X(id, name, bytes, kind) PT_##id,
	PTX_TYPES(X)
#undef X
	PT_COUNT
} PType;

typedef enum { PTK_NONE, PTK_BITS, PTK_UNSIGNED, PTK_SIGNED, PTK_FLOAT, PTK_PRED, PTK_OPAQUE } PTypeKind;

/* ------------------------------------------------------------------ state spaces */
#define PTX_SPACES(X) \
	X(NONE, "") X(REG, ".reg") X(SREG, ".sreg") X(CONST, ".const") X(GLOBAL, ".global") \
	X(LOCAL, ".local") X(PARAM, ".param") X(SHARED, ".shared") \
	X(SHARED_CTA, ".shared::cta") X(SHARED_CLUSTER, ".shared::cluster") X(TEX, ".tex") \
	X(PARAM_ENTRY, ".param::entry") X(PARAM_FUNC, ".param::func")
typedef enum {
#define X(id, name) PS_##id,
	PTX_SPACES(X)
#undef X
	PS_COUNT
} PSpace;  /* PS_NONE on ld/st/atom/cvta means generic addressing */

/* ------------------------------------------------------------------ modifier values */
/* comparison operators of setp/set (lo ls hi hs are the unsigned ones; ...u are unordered) */
#define PTX_CMPS(X) \
	X(NONE, "") X(EQ, ".eq") X(NE, ".ne") X(LT, ".lt") X(LE, ".le") X(GT, ".gt") X(GE, ".ge") \
	X(LO, ".lo") X(LS, ".ls") X(HI, ".hi") X(HS, ".hs") X(EQU, ".equ") X(NEU, ".neu") \
	X(LTU, ".ltu") X(LEU, ".leu") X(GTU, ".gtu") X(GEU, ".geu") X(NUM, ".num") X(NAN, ".nan")
/* boolean combiner of setp/set */
#define PTX_BOPS(X) X(NONE, "") X(AND, ".and") X(OR, ".or") X(XOR, ".xor")
/* rounding: .rn.. for floats, .rni.. to integral values, .rna/.rs for conversions */
#define PTX_RNDS(X) \
	X(NONE, "") X(RN, ".rn") X(RZ, ".rz") X(RM, ".rm") X(RP, ".rp") X(RNI, ".rni") \
	X(RZI, ".rzi") X(RMI, ".rmi") X(RPI, ".rpi") X(RNA, ".rna") X(RS, ".rs")
/* cache operators of ld/st */
#define PTX_CACHES(X) \
	X(NONE, "") X(CA, ".ca") X(CG, ".cg") X(CS, ".cs") X(LU, ".lu") X(CV, ".cv") \
	X(WB, ".wb") X(WT, ".wt")
/* memory-consistency semantics of ld/st/atom/red/fence */
#define PTX_SEMS(X) \
	X(NONE, "") X(WEAK, ".weak") X(VOLATILE, ".volatile") X(RELAXED, ".relaxed") \
	X(ACQUIRE, ".acquire") X(RELEASE, ".release") X(ACQ_REL, ".acq_rel") X(SC, ".sc") \
	X(MMIO, ".mmio")
/* scopes; membar.gl is GPU */
#define PTX_SCOPES(X) X(NONE, "") X(CTA, ".cta") X(CLUSTER, ".cluster") X(GPU, ".gpu") X(SYS, ".sys")
/* operation of atom/red/redux and bar.red */
#define PTX_AOPS(X) \
	X(NONE, "") X(AND, ".and") X(OR, ".or") X(XOR, ".xor") X(CAS, ".cas") X(EXCH, ".exch") \
	X(ADD, ".add") X(INC, ".inc") X(DEC, ".dec") X(MIN, ".min") X(MAX, ".max") X(POPC, ".popc")
/* shfl modes */
#define PTX_SHFLS(X) X(NONE, "") X(UP, ".up") X(DOWN, ".down") X(BFLY, ".bfly") X(IDX, ".idx")
/* vote modes; match uses ANY and ALL */
#define PTX_VOTES(X) X(NONE, "") X(ALL, ".all") X(ANY, ".any") X(UNI, ".uni") X(BALLOT, ".ballot")
/* bar/barrier variants */
#define PTX_BARS(X) X(NONE, "") X(SYNC, ".sync") X(ARRIVE, ".arrive") X(RED, ".red")
/* prmt modes */
#define PTX_PRMTS(X) \
	X(NONE, "") X(F4E, ".f4e") X(B4E, ".b4e") X(RC8, ".rc8") X(ECL, ".ecl") X(ECR, ".ecr") \
	X(RC16, ".rc16")
/* testp properties */
#define PTX_TESTPS(X) \
	X(NONE, "") X(FINITE, ".finite") X(INFINITE, ".infinite") X(NUMBER, ".number") \
	X(NOTANUMBER, ".notanumber") X(NORMAL, ".normal") X(SUBNORMAL, ".subnormal")
/* texture geometries of tex (PTX ISA "Texture Instructions"); warpsim fetches 1d, 2d, 3d */
#define PTX_GEOMS(X) \
	X(NONE, "") X(1D, ".1d") X(2D, ".2d") X(3D, ".3d") X(A1D, ".a1d") X(A2D, ".a2d") \
	X(CUBE, ".cube") X(ACUBE, ".acube") X(2DMS, ".2dms") X(A2DMS, ".a2dms")
/* txq's and suq's attribute (PTX ISA "txq", "suq"); PTXQ_x - 1 is the attribute operand of
 * TXQ/SUQ (isa/ops.def) and device/device.h's DevTexQuery, in this order */
#define PTX_TXQS(X) \
	X(NONE, "") X(WIDTH, ".width") X(HEIGHT, ".height") X(DEPTH, ".depth") \
	X(NORMALIZED_COORDS, ".normalized_coords") X(CHANNEL_DATA_TYPE, ".channel_data_type") \
	X(CHANNEL_ORDER, ".channel_order") X(ARRAY_SIZE, ".array_size") \
	X(NUM_MIPMAP_LEVELS, ".num_mipmap_levels") X(NUM_SAMPLES, ".num_samples") \
	X(FORCE_UNNORMALIZED_COORDS, ".force_unnormalized_coords") X(FILTER_MODE, ".filter_mode") \
	X(ADDR_MODE_0, ".addr_mode_0") X(ADDR_MODE_1, ".addr_mode_1") X(ADDR_MODE_2, ".addr_mode_2") \
	X(MEMORY_LAYOUT, ".memory_layout")
/* tld4's channel; on suld/sust .b is the unformatted (byte-addressed) form, .p the formatted */
#define PTX_COMPS(X) X(NONE, "") X(R, ".r") X(G, ".g") X(B, ".b") X(A, ".a") X(P, ".p")
/* suld/sust's out-of-range mode (.clamp is PMF_CLAMP as written, decoded here) */
#define PTX_SUMODES(X) X(NONE, "") X(TRAP, ".trap") X(CLAMP, ".clamp") X(ZERO, ".zero")
/* cache eviction priorities (.L1::evict_last, .L2::evict_first, ...) */
#define PTX_EVICTS(X) \
	X(NONE, "") X(NORMAL, "evict_normal") X(UNCHANGED, "evict_unchanged") \
	X(FIRST, "evict_first") X(LAST, "evict_last") X(NO_ALLOCATE, "no_allocate")

#define PTX_ENUM(prefix, T, LIST) typedef enum { LIST(prefix##_ENUM_X) prefix##_COUNT } T;
#define PCMP_ENUM_X(id, s) PCMP_##id,
#define PBOP_ENUM_X(id, s) PBOP_##id,
#define PRND_ENUM_X(id, s) PRND_##id,
#define PCACHE_ENUM_X(id, s) PCACHE_##id,
#define PSEM_ENUM_X(id, s) PSEM_##id,
#define PSCOPE_ENUM_X(id, s) PSCOPE_##id,
#define PAOP_ENUM_X(id, s) PAOP_##id,
#define PSHFL_ENUM_X(id, s) PSHFL_##id,
#define PVOTE_ENUM_X(id, s) PVOTE_##id,
#define PBAR_ENUM_X(id, s) PBAR_##id,
#define PPRMT_ENUM_X(id, s) PPRMT_##id,
#define PTESTP_ENUM_X(id, s) PTESTP_##id,
#define PEVICT_ENUM_X(id, s) PEVICT_##id,
#define PGEOM_ENUM_X(id, s) PGEOM_##id,
#define PTXQ_ENUM_X(id, s) PTXQ_##id,
#define PCOMP_ENUM_X(id, s) PCOMP_##id,
#define PSUMODE_ENUM_X(id, s) PSUMODE_##id,
PTX_ENUM(PCMP, PCmp, PTX_CMPS)
PTX_ENUM(PBOP, PBop, PTX_BOPS)
PTX_ENUM(PRND, PRnd, PTX_RNDS)
PTX_ENUM(PCACHE, PCache, PTX_CACHES)
PTX_ENUM(PSEM, PSem, PTX_SEMS)
PTX_ENUM(PSCOPE, PScope, PTX_SCOPES)
PTX_ENUM(PAOP, PAop, PTX_AOPS)
PTX_ENUM(PSHFL, PShfl, PTX_SHFLS)
PTX_ENUM(PVOTE, PVote, PTX_VOTES)
PTX_ENUM(PBAR, PBar, PTX_BARS)
PTX_ENUM(PPRMT, PPrmt, PTX_PRMTS)
PTX_ENUM(PTESTP, PTestp, PTX_TESTPS)
PTX_ENUM(PEVICT, PEvict, PTX_EVICTS)
PTX_ENUM(PGEOM, PGeom, PTX_GEOMS)
PTX_ENUM(PTXQ, PTxq, PTX_TXQS)
PTX_ENUM(PCOMP, PComp, PTX_COMPS)
PTX_ENUM(PSUMODE, PSumode, PTX_SUMODES)

/* flag modifiers, PMods.flags; X(id, name as written) */
#define PTX_MFLAGS(X) \
	X(FTZ, ".ftz") X(SAT, ".sat") X(APPROX, ".approx") X(FULL, ".full") X(HI, ".hi") \
	X(LO, ".lo") X(WIDE, ".wide") X(CC, ".cc") X(UNI, ".uni") X(SYNC, ".sync") \
	X(ALIGNED, ".aligned") X(TO, ".to") X(NC, ".nc") X(SHIFTAMT, ".shiftamt") \
	X(RELU, ".relu") X(SATFINITE, ".satfinite") X(NOFTZ, ".noftz") X(NAN, ".NaN") \
	X(XORSIGN, ".xorsign") X(ABS, ".abs") X(WRAP, ".wrap") X(CLAMP, ".clamp") \
	X(LEFT, ".l") X(RIGHT, ".r") X(CACHEHINT, ".L2::cache_hint") X(PACK, ".pack") \
	X(OOB, ".oob") X(PAIR, "|") X(FROMGLOBAL, ".global") /* FROMGLOBAL: cp.async's source space */ \
	X(LEVEL, ".level") X(PO, ".po")
enum {
#define X(id, s) PMF_##id##_BIT,
	PTX_MFLAGS(X)
#undef X
	PMF_NBITS
};
enum {
#define X(id, s) PMF_##id = 1u << PMF_##id##_BIT,
	PTX_MFLAGS(X)
#undef X
};
/* PMF_WRAP/PMF_CLAMP: shift mode of shf, szext, bmsk; PMF_LEFT/PMF_RIGHT: shf direction;
 * PMF_HI/PMF_LO on mul, mad, mul24, mad24, dp2a; PMF_UNI on bra, brx.idx, call, ret;
 * PMF_PAIR: slot 0 was written "d|p" (a PF_PAIR op's second destination is real). */

/* Decoded modifiers. types[] holds the type modifiers in the order written:
 *   most ops: types[0] is the operation type;
 *   cvt, set, slct, dp4a, dp2a: types[0] destination, types[1] source ("cvt.f32.s32");
 *   mul.wide, mad.wide: types[0] is the source type, the destination is twice as wide;
 *   cvt.pack: types[0] destination, types[1] and types[2] sources. */
typedef struct {
	uint8_t types[3];    /* PType, in order written */
	uint8_t ntypes;      /* how many of types[] are set */
	uint8_t vec;         /* vector width .v2/.v4/.v8, 1 for scalar */
	uint8_t cmp;         /* PCmp: setp/set comparison */
	uint8_t bop;         /* PBop: setp/set combiner with the third source */
	uint8_t rnd;         /* PRnd */
	uint8_t space;       /* PSpace: ld/st/atom/red/cvta/isspacep/prefetch; PS_NONE = generic */
	uint8_t cache;       /* PCache */
	uint8_t sem;         /* PSem */
	uint8_t scope;       /* PScope: of sem, membar and fence */
	uint8_t aop;         /* PAop: atom/red/redux operation, bar.red operation */
	uint8_t shfl;        /* PShfl */
	uint8_t vote;        /* PVote: vote mode, match mode (ANY/ALL) */
	uint8_t bar;         /* PBar: bar/barrier variant (bar.sync, bar.arrive, bar.red) */
	uint8_t prmt;        /* PPrmt */
	uint8_t testp;       /* PTestp */
	uint8_t l1evict;     /* PEvict of .L1::..., PEVICT_NONE when absent */
	uint8_t l2evict;     /* PEvict of .L2::..., PEVICT_NONE when absent */
	uint16_t l2prefetch; /* .L2::64B/128B/256B prefetch size in bytes, 0 when absent */
	uint8_t geom;        /* PGeom: tex's and tld4's geometry */
	uint8_t txq;         /* PTxq: txq's attribute */
	uint8_t comp;        /* PComp: tld4's channel; suld/sust's .b or .p */
	uint8_t sumode;      /* PSumode: suld/sust's out-of-range mode (NONE: .trap) */
	uint8_t policy;      /* createpolicy's form: 1 .fractional, 2 .range, 3 .cvt (ins.c) */
	uint8_t shr;         /* vmad's scale: 7 (.shr7) or 15 (.shr15), 0 when absent */
	uint32_t flags;      /* PMF_* */
} PMods;

/* ------------------------------------------------------------------ special registers */
/* X(id, name, component): component 1 when the register has .x/.y/.z (and is a v4.u32),
 * bytes of the value. %envreg0..31 are the driver's (the PTX ISA: "initialized by the driver
 * prior to kernel launch"); %envreg1:%envreg2 is a cooperative launch's grid workspace
 * (device.h DEV_GRIDWS_*), reading any other is unsupported on both engines (docs/warpsim.md). */
#define PTX_ENVREGS(X) \
	X(ENVREG0, "%envreg0", 0, 4) X(ENVREG1, "%envreg1", 0, 4) X(ENVREG2, "%envreg2", 0, 4) \
	X(ENVREG3, "%envreg3", 0, 4) X(ENVREG4, "%envreg4", 0, 4) X(ENVREG5, "%envreg5", 0, 4) \
	X(ENVREG6, "%envreg6", 0, 4) X(ENVREG7, "%envreg7", 0, 4) X(ENVREG8, "%envreg8", 0, 4) \
	X(ENVREG9, "%envreg9", 0, 4) X(ENVREG10, "%envreg10", 0, 4) X(ENVREG11, "%envreg11", 0, 4) \
	X(ENVREG12, "%envreg12", 0, 4) X(ENVREG13, "%envreg13", 0, 4) X(ENVREG14, "%envreg14", 0, 4) \
	X(ENVREG15, "%envreg15", 0, 4) X(ENVREG16, "%envreg16", 0, 4) X(ENVREG17, "%envreg17", 0, 4) \
	X(ENVREG18, "%envreg18", 0, 4) X(ENVREG19, "%envreg19", 0, 4) X(ENVREG20, "%envreg20", 0, 4) \
	X(ENVREG21, "%envreg21", 0, 4) X(ENVREG22, "%envreg22", 0, 4) X(ENVREG23, "%envreg23", 0, 4) \
	X(ENVREG24, "%envreg24", 0, 4) X(ENVREG25, "%envreg25", 0, 4) X(ENVREG26, "%envreg26", 0, 4) \
	X(ENVREG27, "%envreg27", 0, 4) X(ENVREG28, "%envreg28", 0, 4) X(ENVREG29, "%envreg29", 0, 4) \
	X(ENVREG30, "%envreg30", 0, 4) X(ENVREG31, "%envreg31", 0, 4)
#define PTX_SREGS(X) \
	X(TID, "%tid", 1, 4) X(NTID, "%ntid", 1, 4) X(CTAID, "%ctaid", 1, 4) \
	X(NCTAID, "%nctaid", 1, 4) X(LANEID, "%laneid", 0, 4) X(WARPID, "%warpid", 0, 4) \
	X(NWARPID, "%nwarpid", 0, 4) X(SMID, "%smid", 0, 4) X(NSMID, "%nsmid", 0, 4) \
	X(GRIDID, "%gridid", 0, 8) X(CLOCK, "%clock", 0, 4) X(CLOCK_HI, "%clock_hi", 0, 4) \
	X(CLOCK64, "%clock64", 0, 8) X(LANEMASK_EQ, "%lanemask_eq", 0, 4) \
	X(LANEMASK_LE, "%lanemask_le", 0, 4) X(LANEMASK_LT, "%lanemask_lt", 0, 4) \
	X(LANEMASK_GE, "%lanemask_ge", 0, 4) X(LANEMASK_GT, "%lanemask_gt", 0, 4) \
	X(GLOBALTIMER, "%globaltimer", 0, 8) X(GLOBALTIMER_LO, "%globaltimer_lo", 0, 4) \
	X(GLOBALTIMER_HI, "%globaltimer_hi", 0, 4) \
	X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size", 0, 4) \
	X(TOTAL_SMEM_SIZE, "%total_smem_size", 0, 4) X(AGGR_SMEM_SIZE, "%aggr_smem_size", 0, 4) \
	X(CLUSTERID, "%clusterid", 1, 4) X(NCLUSTERID, "%nclusterid", 1, 4) \
	X(CLUSTER_CTAID, "%cluster_ctaid", 1, 4) X(CLUSTER_NCTAID, "%cluster_nctaid", 1, 4) \
	X(CLUSTER_CTARANK, "%cluster_ctarank", 0, 4) \
	X(CLUSTER_NCTARANK, "%cluster_nctarank", 0, 4) \
	X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0, 1) \
	X(PM0, "%pm0", 0, 4) X(PM1, "%pm1", 0, 4) X(PM2, "%pm2", 0, 4) X(PM3, "%pm3", 0, 4) \
	X(PM4, "%pm4", 0, 4) X(PM5, "%pm5", 0, 4) X(PM6, "%pm6", 0, 4) X(PM7, "%pm7", 0, 4) \
	PTX_ENVREGS(X)
typedef enum {
#define X(id, name, comp, bytes) PSR_##id,
	PTX_SREGS(X)
#undef X
	PSR_COUNT
} PSReg;
/* why reading %envregN other than %envreg1/%envreg2 (the grid workspace of a cooperative
 * launch) is refused (both engines): the driver's other values are documented nowhere, and
 * no value stands in for them without computing something wrong. A printf format (be_errorf,
 * or_error): its per cents are doubled */
#define PTX_IS_ENVREG(s) ((s) >= PSR_ENVREG0 && (s) <= PSR_ENVREG31)
#define PTX_ENVREG_WHY "an environment register the driver sets at launch whose meaning is " \
	"not documented; warpsim gives only %%envreg1 and %%envreg2, the grid workspace of a " \
	"cooperative launch (--cooperative) that cooperative groups' grid.sync() reads"

/* ------------------------------------------------------------------ locations */
typedef struct {
	int32_t line;  /* 1-based line in the module's source, 0 when built by hand */
	int32_t col;   /* 1-based byte column */
	int32_t file;  /* the source it is in: Module.units[file] of a module linked from
	                  several files (ptx_link), 0 for a module parsed from one */
} PLoc;

/* ------------------------------------------------------------------ operands */
typedef enum {
	POK_NONE,    /* absent (optional slot left out) */
	POK_REG,     /* register reg of the function (PReg) */
	POK_SINK,    /* "_": result discarded */
	POK_IMM,     /* immediate: bits in imm, literal kind in ikind */
	POK_SREG,    /* special register sreg, component comp */
	POK_SYM,     /* address of a named object: symkind + sym, plus imm as byte offset */
	POK_ADDR,    /* memory [base + imm]: base register reg (>= 0), or symbol symkind/sym
	                (sym >= 0), or neither (absolute address imm) */
	POK_VEC,     /* vector {e0, e1, ...}: elems/nelems (registers, sinks, immediates) */
	POK_LABEL,   /* code label sym of the function (PLabel index); as a mov source, its
	                value (PLabel.value) */
	POK_TLIST,   /* .branchtargets/.calltargets/.callprototype sym of the function */
	POK_LIST,    /* parenthesised list (call returns and arguments): elems/nelems */
} POpdKind;

/* immediate literal kinds (how it was written; printing keeps it) */
typedef enum {
	PIMM_DEC,    /* 42, -1, 42U */
	PIMM_HEX,    /* 0x2a */
	PIMM_OCT,    /* 052 */
	PIMM_BIN,    /* 0b101010 */
	PIMM_F32,    /* 0f3F800000: imm holds the 32 bits */
	PIMM_F64,    /* 0d3FF0000000000000: imm holds the 64 bits */
	PIMM_FLOAT,  /* 1.5: imm holds the bits of the double */
} PImmKind;

/* what a POK_SYM / POK_ADDR / initializer symbol index points into */
typedef enum {
	PSYM_NONE,
	PSYM_VAR,    /* Module.vars */
	PSYM_FUNC,   /* Module.funcs */
	PSYM_LOCAL,  /* PFunc.locals */
	PSYM_PARAM,  /* PFunc.params */
	PSYM_RET,    /* PFunc.rets */
} PSymKind;

/* a video instruction's operand selector (PTX ISA, "Video Instructions": .b0-.b3, .h0, .h1):
 * the byte or half-word of the register that is the operand, extended by its type */
typedef enum { PVS_NONE, PVS_B0, PVS_B1, PVS_B2, PVS_B3, PVS_H0, PVS_H1 } PVSel;

enum {
	POF_NOT = 1 << 0,  /* !p: negated predicate operand */
	POF_UNSIGNED = 1 << 1, /* integer literal had a U suffix */
	POF_NEG = 1 << 2,  /* -r: a negated register (vmad's sources) */
};

typedef struct POpd POpd;
struct POpd {
	uint8_t kind;     /* POpdKind */
	uint8_t flags;    /* POF_* */
	uint8_t ikind;    /* PImmKind of POK_IMM */
	uint8_t symkind;  /* PSymKind of POK_SYM and a symbol-based POK_ADDR */
	uint8_t sreg;     /* PSReg of POK_SREG */
	uint8_t comp;     /* POK_SREG component: 0 none, 1 .x, 2 .y, 3 .z, 4 .w */
	uint8_t vsel;     /* PVSel: a video operand selector of a register (vmad's a and b) */
	int32_t reg;      /* POK_REG register id; POK_ADDR base register or -1 */
	int32_t sym;      /* index (see kind) or -1 */
	int64_t imm;      /* immediate bits; POK_ADDR/POK_SYM byte offset */
	POpd *elems;      /* POK_VEC and POK_LIST elements */
	int32_t nelems;   /* number of elems */
	PLoc loc;         /* where the operand starts */
};

/* ------------------------------------------------------------------ instructions */
typedef struct {
	uint16_t op;       /* POp */
	uint8_t gneg;      /* guard negated: @!p */
	uint8_t nopd;      /* operands */
	int32_t guard;     /* guard predicate register id, -1 when unguarded */
	PMods m;           /* modifiers */
	POpd *o;           /* operands, in PTX order after normalisation (ptxops.def) */
	PLoc loc;          /* the opcode */
	int32_t srcfile;   /* the last .loc before it: .file index, -1 when none */
	int32_t srcline;   /* .loc line, 0 when none */
	int32_t srccol;    /* .loc column */
} PIns;

/* call (PO_CALL) slots: o[0] POK_LIST of return operands (nelems 0 when none), o[1] callee
 * (POK_SYM with PSYM_FUNC, or POK_REG for an indirect call), o[2] POK_LIST of arguments,
 * o[3] POK_TLIST (.calltargets or .callprototype), POK_SYM of a module variable initialised
 * with function names (a jump table, PTX ISA 9.7.12), or POK_NONE. Return and argument
 * elements are POK_SYM of .param locals (nvcc), or registers and immediates. */

/* ------------------------------------------------------------------ declarations */
typedef enum {
	PLINK_NONE, PLINK_VISIBLE, PLINK_EXTERN, PLINK_WEAK, PLINK_COMMON,
} PLink;

typedef enum {
	PINIT_INT,      /* integer value bits */
	PINIT_FLOAT,    /* floating value: bits already in the element type's encoding */
	PINIT_SYM,      /* address of symkind/sym + offset */
	PINIT_GENERIC,  /* generic(sym) + offset: the generic address of a variable */
	PINIT_LABEL,    /* a label's value (a jump table): label sym of the function declaring
	                   the variable (PVar.scopefn); bits holds PLabel.value */
} PInitKind;

typedef struct {
	uint8_t kind;     /* PInitKind */
	uint8_t symkind;  /* PSYM_VAR or PSYM_FUNC for PINIT_SYM/GENERIC, PSYM_NONE otherwise */
	int32_t sym;      /* symbol index */
	int64_t bits;     /* value bits (PINIT_INT/FLOAT), offset (PINIT_SYM/GENERIC) */
} PInit;

#define PTX_MAXDIM 4

/* a variable: module-scope (.global .const .shared .local), function params and returns,
 * and variables declared in a function body (.local .shared .param) */
typedef struct {
	char *name;         /* as declared */
	uint8_t space;      /* PSpace */
	uint8_t type;       /* PType of one element */
	uint8_t vec;        /* vector width of the element (.v2/.v4), 1 for scalar */
	uint8_t link;       /* PLink */
	uint8_t ptrspace;   /* .param .u64 .ptr .global: PSpace pointed to, PS_NONE */
	uint8_t ndim;       /* array dimensions */
	uint32_t align;     /* bytes: .align, or the element size when not written */
	uint32_t ptralign;  /* .ptr .align N, 0 when absent */
	uint32_t explicit_align; /* 1 when .align was written */
	uint64_t dims[PTX_MAXDIM]; /* sizes; dims[0] == 0 for an unsized "[]" array */
	uint64_t nelem;     /* elements (product of dims, 1 for a scalar), times vec not included */
	uint64_t size;      /* bytes: nelem * vec * element size */
	PInit *init;        /* initializer elements, flattened, ninit <= nelem * vec */
	int32_t ninit;      /* 0 when there is no initializer */
	PLoc loc;           /* the name */
	int32_t scopefn;    /* Module.vars: 1 + index of the function whose body declares this
	                       .global/.const variable (it is module storage, visible in that
	                       body only); 0 for a module-scope variable */
} PVar;

/* a register (after expanding %r<N> into %r0..%r{N-1}) */
typedef struct {
	char *name;    /* "%r3" */
	uint8_t type;  /* PType as declared (.b32, .pred, ...) */
	uint8_t vec;   /* vector register .v2/.v4, 1 for scalar */
	PLoc loc;      /* the declaration */
	uint8_t elem;  /* 1 + the element index of a vector register's element ("v.x", ...): the
	                  vector's elements follow it as scalar registers; 0 for the others */
} PReg;

typedef struct {
	char *name;    /* "$L__BB0_7" */
	int32_t pos;   /* index in PFunc.ins of the instruction it labels (== nins at the end) */
	PLoc loc;      /* the definition */
	int32_t value; /* its value when its address is taken (source of a mov, element of an
	                  initializer): its ordinal among those labels of the function, in
	                  label order (0, 1, ...); -1 when its address is not taken. What an
	                  indirect bra's register holds (docs/frontend.md) */
} PLabel;

typedef enum { PTL_BRANCH, PTL_CALL, PTL_PROTO } PTListKind;

/* .branchtargets (labels), .calltargets (functions), .callprototype (a signature) */
typedef struct {
	char *name;       /* the label naming the declaration */
	uint8_t kind;     /* PTListKind */
	int32_t *targets; /* PTL_BRANCH: label indices; PTL_CALL: function indices */
	int32_t ntargets; /* number of targets */
	PVar *rets;       /* PTL_PROTO: return params (names may be "_") */
	int32_t nrets;
	PVar *params;     /* PTL_PROTO: params */
	int32_t nparams;
	uint8_t noreturn; /* PTL_PROTO: .noreturn */
	uint8_t abi_set;  /* PTL_PROTO: bit 0 .abi_preserve, bit 1 .abi_preserve_control given */
	uint32_t abi_preserve, abi_preserve_control; /* PTL_PROTO: their N (ptxas's register ABI;
	                     warpsim records and ignores them: docs/frontend.md) */
	PLoc loc;         /* the name */
} PTList;

typedef struct {
	char *text;    /* the string of .pragma "text"; */
	int32_t pos;   /* instruction index it precedes; -1 for a function-header pragma */
} PPragma;

typedef struct {
	char *name;           /* function name */
	uint8_t entry;        /* 1 for .entry (a kernel), 0 for .func */
	uint8_t link;         /* PLink */
	uint8_t has_body;     /* 0 for a declaration (prototype) */
	uint8_t noreturn;     /* .noreturn */
	uint8_t abi_set;      /* bit 0 .abi_preserve, bit 1 .abi_preserve_control given */
	uint32_t abi_preserve, abi_preserve_control; /* their N (recorded and ignored: the
	                         callee saves every register it writes, docs/frontend.md) */
	PVar *params;         /* parameters in order (space PS_PARAM) */
	int32_t nparams;
	PVar *rets;           /* return parameters (.func only) */
	int32_t nrets;
	uint32_t maxntid[3];  /* .maxntid, 0 when absent */
	uint32_t reqntid[3];  /* .reqntid, 0 when absent */
	uint32_t minnctapersm;/* .minnctapersm, 0 when absent */
	uint32_t maxnctapersm;/* .maxnctapersm (deprecated), 0 when absent */
	uint32_t maxnreg;     /* .maxnreg, 0 when absent */
	uint32_t reqnctapercluster[3]; /* .reqnctapercluster, 0 when absent */
	uint32_t maxclusterrank; /* .maxclusterrank, 0 when absent */
	uint8_t explicitcluster; /* .explicitcluster */
	PPragma *pragmas;     /* .pragma directives of the header and body */
	int32_t npragmas;
	PReg *regs;           /* registers; ids are indices */
	int32_t nregs;
	PIns *ins;            /* the body, flat */
	int32_t nins;
	PLabel *labels;       /* labels; positions in ins */
	int32_t nlabels;
	PVar *locals;         /* variables declared in the body, any scope */
	int32_t nlocals;
	PTList *tlists;       /* .branchtargets/.calltargets/.callprototype of the body */
	int32_t ntlists;
	PLoc loc;             /* the name */
	int32_t unsup_op;     /* POp + 1 of the first instruction that is valid PTX but not
	                         supported (left out of ins), 0 none: a kernel that reaches this
	                         function can be neither translated nor run (backend, oracle) */
	PLoc unsup_loc;       /* where that instruction is */
	const char *unsup_form; /* the form of it that is not supported (" with an independent
	                         sampler"), or NULL when the instruction is not supported at all */
} PFunc;

typedef struct {
	int32_t index;  /* the number used by .loc */
	char *name;     /* path as written */
} PFile;

typedef struct PArena PArena;

/* one PTX file of a module linked from several (ptx_link): PLoc.file indexes Module.units */
typedef struct {
	const char *name;   /* its name in diagnostics */
	const char *src;    /* its text (owned by the part it was parsed into) */
	size_t srclen;      /* bytes of src */
} PUnit;

typedef struct Module {
	char *name;         /* input name used in diagnostics */
	int version_major;  /* .version 9.0 -> 9, 0 */
	int version_minor;
	int sm;             /* .target sm_80 -> 80; 0 when absent */
	char *target;       /* .target text as written ("sm_90a, texmode_independent") */
	int address_size;   /* 32 or 64 (64 when absent) */
	PVar *vars;         /* module-scope variables in order */
	int32_t nvars;
	PFunc *funcs;       /* functions and kernels in order (a declaration and its later
	                       definition are one entry) */
	int32_t nfuncs;
	PFile *files;       /* .file table */
	int32_t nfiles;
	char *src;          /* copy of the source text (for diagnostics), NUL-terminated; NULL
	                       in a linked module (its units hold the texts) */
	size_t srclen;      /* bytes of src */
	PUnit *units;       /* a linked module: its files, in command-line order; NULL for a
	                       module parsed from one file (ptx_loc_name says which applies) */
	int32_t nunits;
	struct Module **parts; /* a linked module: the modules parsed from its files, whose
	                       arenas hold its functions and variables (ptx_free frees them) */
	int32_t nparts;
	PArena *arena;      /* owns everything above */
} Module;

/* ------------------------------------------------------------------ API */
/* util.c: the arena a Module lives in, and the backend's pools: blocks of at least 64 KiB,
 * allocations zeroed and 16-byte aligned, all freed at once */
PArena *ptx_arena_new(void);
void *ptx_alloc(PArena *a, size_t n);
void ptx_arena_free(PArena *a);

/* Parses PTX text (len bytes, need not be NUL-terminated) named name in diagnostics; runs
 * ptx_check. Located diagnostics go to err (may be NULL to stay quiet). Returns the module,
 * or NULL after at least one error; *nerrors (if not NULL) receives the error count. */
Module *ptx_parse(const char *name, const char *text, size_t len, FILE *err, int *nerrors);
/* ptx_parse for file number file of several to be linked: the module's locations carry
 * PLoc.file = file */
Module *ptx_parse_unit(const char *name, const char *text, size_t len, int file, FILE *err,
                       int *nerrors);
/* link.c: one module from n modules parsed by ptx_parse_unit (file i from ms[i]), as nvlink
 * joins separately compiled PTX: .extern functions and variables resolved against the
 * .visible (or .weak, or .common) definition of another file, a strong definition before a
 * weak one, duplicate definitions, unresolved externs, kernels of the same name and
 * incompatible .target/.address_size reported with both places. Takes the modules (frees
 * them on failure too). NULL after errors on err; *nerrors (if not NULL) their count. */
Module *ptx_link(Module **ms, int n, FILE *err, int *nerrors);
/* the name and text of the file a location is in (the module's own for a module parsed
 * from one file) */
const char *ptx_loc_name(const Module *m, PLoc l);
const char *ptx_loc_src(const Module *m, PLoc l, size_t *len);
/* a located diagnostic of kind ("error", "warning", "note") about m's source, in the
 * compiler style of every frontend message (diag.c) */
void ptx_loc_diag(FILE *err, const Module *m, PLoc l, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Semantic checks (operand counts and types, labels, unsupported instructions); prints
 * located errors to err, returns their count. ptx_parse already ran it. */
int ptx_check(const Module *m, FILE *err);
/* Prints the module back as PTX (warpc -dP): parse(print(m)) prints the same text. */
void ptx_print(FILE *out, const Module *m);
void ptx_print_ins(FILE *out, const Module *m, const PFunc *f, const PIns *in);
void ptx_free(Module *m);
/* f->unsup_op as a located diagnostic of kind ("error", "warning") on err:
 * "unsupported: instruction 'wmma' is valid PTX but warpsim does not support it yet" and
 * what follows from it (note: "kernel 'k' reaches 'f'"); nothing when f has none */
void ptx_unsup_report(FILE *err, const Module *m, const PFunc *f, const char *kind,
                      const char *note);

/* lookups; -1 when absent */
int ptx_find_func(const Module *m, const char *name);
/* seen[g] = 1 for every function g that function fi reaches, fi included: a call or an operand
 * that names a .func with a body (its address taken), one a named module variable's
 * initializer names (a table of function addresses), every target of a call's .calltargets
 * and every .func with a body whose parameter and return counts a call's .callprototype
 * matches. seen holds nfuncs bytes; what is set already is not walked again. The
 * translator's code and the oracle's shared memory of a kernel are what it reaches. */
void ptx_reach(const Module *m, int fi, uint8_t *seen);
int ptx_find_var(const Module *m, const char *name);
/* 1 for a function of CUDA's device runtime for dynamic parallelism (cudaLaunchDevice ...) */
int ptx_cdp_function(const char *name);
int ptx_runtime_function(const char *name);   /* made by the engines: needs no definition */
enum { PTX_DEVRT_GETBUF, PTX_DEVRT_GETBUF2, PTX_DEVRT_LAUNCH, PTX_DEVRT_LAUNCH2, PTX_DEVRT_LASTERR,
       PTX_DEVRT_STREAM, PTX_DEVRT_STREAMDEL };
int ptx_devrt_kind(const PFunc *g, const PIns *in);   /* util.c: -1 none, -2 not CUDA's shape */
const char *ptx_cdp_unsup(const char *name);   /* util.c: what the unsupported one does */

/* names for printing */
const char *ptx_op_name(POp op);
const char *ptx_type_name(PType t);     /* ".u32" */
int ptx_type_bytes(PType t);            /* 1, 2, 4, 8, 16; 0 for NONE and PRED */
PTypeKind ptx_type_kind(PType t);
const char *ptx_space_name(PSpace s);   /* ".global" */
const char *ptx_sreg_name(PSReg r);     /* "%tid" */
int ptx_sreg_bytes(PSReg r);            /* 4 or 8 (1 for %is_explicit_cluster) */
int ptx_sreg_has_comp(PSReg r);
const char *ptx_cmp_name(PCmp c);       /* ".eq" */
const char *ptx_rnd_name(PRnd r);
const char *ptx_aop_name(PAop a);
int ptx_ins_writes(const PIns *in, int slot); /* 1 when slot is a destination */
/* PTX's comparisons (setp, set, slct), shared by the oracle and the translator's constant
 * folding: 0 or 1, -1 when cmp is not one of the kind */
int ptx_icmp(int cmp, uint64_t a, uint64_t b, int bits, int sign);
int ptx_fcmp(int cmp, int unordered, double x, double y);
int ptx_cp_async_src(const PFunc *f, const PIns *in); /* cp.async: slot of src-size/ignore-src, or -1 */
void ptx_vsel_field(int vsel, int *pos, int *len);  /* PVSel: the bits it selects (PVS_NONE: 0, 32) */
int ptx_video_elems(int op);                    /* video op: 2 (halves), 4 (bytes), 1 (scalar), else 0 */

#endif
