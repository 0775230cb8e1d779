/* isa.h - the warpsim microcode ISA: opcode table, operands, instructions, kernels,
 * the listing printer and the listing parser (assembler).
 *
 * isa/ depends on nothing else of ours. The opcode table is isa/ops.def, beside it the per-op
 * rules isa/rules.def (the same ops in the same order), the operand shapes isa/shapes.def,
 * the modifier tokens isa/mods.def; docs/isa.md gives the exact semantics.
 */
#ifndef WARPSIM_ISA_H
#define WARPSIM_ISA_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* ------------------------------------------------------------------ enums from the tables */
typedef enum {
#define OP(id, mn, shape, unit, lat, flags, mods) OP_##id,
#include "isa/ops.def"
	OP_COUNT
} Op;

typedef enum {
#define SHAPE(id, desc) SHAPE_##id,
#include "isa/shapes.def"
	SHAPE_COUNT
} Shape;

/* functional-unit classes; issue interval and width per class come from the sim config */
typedef enum {
	UNIT_ALU,        /* integer and logic */
	UNIT_IMUL,       /* integer multiply */
	UNIT_SHIFT,      /* shifts (SHL, SHR, SHF): the Programming Guide gives them their own rate */
	UNIT_FPU,        /* single precision */
	UNIT_DPU,        /* double precision */
	UNIT_SFU,        /* special functions, conversions, macro divide/sqrt */
	UNIT_LSU_SHARED, /* shared memory, shuffles */
	UNIT_LSU_GLOBAL, /* global memory and atomics */
	UNIT_LSU_LOCAL,  /* per-thread local memory */
	UNIT_LSU_CONST,  /* constant banks */
	UNIT_CTRL,       /* branches, stack ops, barriers */
	UNIT_COUNT
} Unit;

/* latency classes; cycles per class come from the sim config (sim/configs/ *.cfg) */
typedef enum {
	LAT_ALU, LAT_IMUL, LAT_POPC, LAT_S2R, LAT_FPU, LAT_DPU, LAT_SFU, LAT_CONV,
	LAT_FDIV, LAT_FSQRT, LAT_SHARED, LAT_GLOBAL, LAT_LOCAL, LAT_CONST, LAT_ATOM,
	LAT_SHFL, LAT_BAR, LAT_CTRL,
	LAT_SINCOS,         /* MUFU.SIN and MUFU.COS (the Lat column says SFU; decode picks this) */
	LAT_TEX,            /* TEX, TLD: a texture fetch served by the texture cache */
	LAT_COUNT
} Lat;

/* op flags (ops.def column 6) */
enum {
	F_PRED     = 1 << 0,  /* may carry a guard predicate */
	F_BRANCH   = 1 << 1,  /* may change the pc of some lanes */
	F_DIVERGE  = 1 << 2,  /* may split the active mask */
	F_SIDE     = 1 << 3,  /* has effects beyond its destination registers */
	F_LOAD     = 1 << 4,  /* reads memory */
	F_STORE    = 1 << 5,  /* writes memory */
	F_TARGET   = 1 << 6,  /* has a code-target operand */
	F_PUSH     = 1 << 7,  /* pushes a CallReturnStack token */
	F_INDIRECT = 1 << 8,  /* target taken from a register */
	F_BARRIER  = 1 << 9,  /* CTA barrier */
	F_MACRO    = 1 << 10, /* stands for a ptxas subroutine (docs/isa.md) */
	F_ATOMIC   = 1 << 11, /* a read-modify-write of memory, lane by lane */
	F_FOLD     = 1 << 12, /* its constant slots (shapes.def's C) take a constant folded from
	                       * a register (backend/consts.c) */
	F_FOLDI    = 1 << 13, /* and its immediate slots beside a register (R|I) a folded 32-bit
	                       * integer immediate (F_FOLD too; no float op: it reads a float) */
	F_COMMUTE  = 1 << 14, /* its first two sources commute (IMUL, IMAD: when both factors are
	                       * of one signedness; LOP: but .PASS_B) */
	F_MIRROR   = 1 << 15, /* a comparison whose two sources trade places with the comparison
	                       * mirrored (a < b is b > a; not with .X) */
	F_WHOLE    = 1 << 16, /* writes its whole destination from its sources at once: unguarded,
	                       * it leaves nothing of the old value (sim/decode.c's clear_rows) */
};

/* modifier fields an op accepts (ops.def column 7) */
enum {
	M_SUB = 1 << 0, M_CMP = 1 << 1, M_TYPE = 1 << 2, M_RND = 1 << 3, M_BOP = 1 << 4,
	M_BOP2 = 1 << 5, M_CC = 1 << 6, M_X = 1 << 7, M_HI = 1 << 8, M_WIDE = 1 << 9,
	M_SAT = 1 << 10, M_FTZ = 1 << 11, M_W = 1 << 12, M_BF = 1 << 13, M_E = 1 << 14,
	M_KEEPREF = 1 << 15, M_SH = 1 << 16, M_BREV = 1 << 17, M_U = 1 << 18,
	/* the video instructions' flags (VADD, VABSDIFF, VMNMX, VSET) */
	M_UD = 1 << 19, M_SD = 1 << 20, M_MX = 1 << 21, M_AVRG = 1 << 22, M_ACC = 1 << 23,
	M_VMIN = 1 << 24, M_VMAX = 1 << 25,
	M_AOFFI = 1 << 26,   /* TLD: texel offsets */
	M_LL = 1 << 27,      /* TEX: an explicit level of detail */
	M_PO = 1 << 28, M_SHR7 = 1 << 29, M_SHR15 = 1 << 30,   /* VMAD */
	M_ARRAY = INT32_MIN, /* TEX, TLD: a texture array (bit 31, MF_ARRAY's) */
	M_VIDEO = M_TYPE | M_SAT | M_UD | M_SD | M_ACC,
};

/* flag modifiers, stored in Mods.flags; MF_x is accepted when the op has M_x */
enum {
	MF_CC = 1 << 0,      /* writes the condition code */
	MF_X = 1 << 1,       /* extended: reads the carry (IADD.X) */
	MF_HI = 1 << 2,      /* high word of a product */
	MF_WIDE = 1 << 3,    /* 64-bit product */
	MF_SAT = 1 << 4,     /* saturate */
	MF_FTZ = 1 << 5,     /* flush denormals to zero */
	MF_W = 1 << 6,       /* wrap shift amount */
	MF_BF = 1 << 7,      /* boolean result as 1.0f */
	MF_E = 1 << 8,       /* 64-bit (extended) address */
	MF_KEEPREF = 1 << 9, /* EXIT.KEEPREFCOUNT */
	MF_SH = 1 << 10,     /* FLO: shift amount */
	MF_BREV = 1 << 11,   /* BFE: bit-reverse source */
	MF_U = 1 << 12,      /* BRA.U: uniform */
	MF_UD = 1 << 13,     /* video: the destination's elements are unsigned */
	MF_SD = 1 << 14,     /* video: the destination's elements are signed */
	MF_MX = 1 << 15,     /* VMNMX: the maximum (PTX vmax), else the minimum */
	MF_AVRG = 1 << 16,   /* VADD2/VADD4: the rounded average (PTX vavrg) */
	MF_ACC = 1 << 17,    /* video: d = c + the sum of the results (PTX .add) */
	MF_VMIN = 1 << 18,   /* scalar video: d = min(t, c) (PTX .min) */
	MF_VMAX = 1 << 19,   /* scalar video: d = max(t, c) (PTX .max) */
	MF_AOFFI = 1 << 20,  /* TLD: the register after the coordinates holds texel offsets */
	MF_LL = 1 << 21,     /* TEX: the register after the coordinates holds a level of detail */
	MF_PO = 1 << 22,     /* VMAD: plus one (PTX vmad.po) */
	MF_SHR7 = 1 << 23,   /* VMAD: the sum shifted right by 7 (PTX .shr7) */
	MF_SHR15 = 1 << 24,  /* VMAD: the sum shifted right by 15 (PTX .shr15) */
	MF_ARRAY = 1 << 25,  /* TEX, TLD: an array: the layer index first among the coordinates */
	MF_LAST = MF_ARRAY,
};
#define ISA_NFLAGS 26        /* MF_ bits */

typedef enum {
	SUB_NONE,
	SUB_AND, SUB_OR, SUB_XOR, SUB_PASS_B,                    /* LOP; ATOM/RED/REDUX; BAR.RED */
	SUB_L, SUB_R,                                            /* SHF */
	SUB_F4E, SUB_B4E, SUB_RC8, SUB_ECL, SUB_ECR, SUB_RC16,   /* PRMT */
	SUB_RCP, SUB_RSQ, SUB_SIN, SUB_COS, SUB_EX2, SUB_LG2, SUB_SQRT, /* MUFU */
	SUB_ADD, SUB_MIN, SUB_MAX, SUB_INC, SUB_DEC, SUB_EXCH, SUB_CAS, /* ATOM, RED */
	SUB_CTA, SUB_GL, SUB_SYS,                                /* MEMBAR */
	SUB_IDX, SUB_UP, SUB_DOWN, SUB_BFLY,                     /* SHFL */
	SUB_ALL, SUB_ANY, SUB_EQ,                                /* VOTE, MATCH */
	SUB_SUM,                                                 /* REDUX */
	SUB_SYNC, SUB_ARV, SUB_POPC,                             /* BAR, BAR.RED */
	SUB_CA, SUB_CG, SUB_CS, SUB_CV, SUB_LU, SUB_NC,          /* LD/ST cache operators */
	SUB_TANH,                                                /* MUFU (appended) */
	SUB_RCP64H, SUB_RSQ64H,                                  /* MUFU on a double's high word (Kepler) */
	SUB_SINCOS, SUB_DIVIDE, SUB_P, SUB_T, SUB_IV,            /* RRO, FCHK, LDG, CCTL (Kepler) */
	SUB_1D, SUB_2D, SUB_3D,                                  /* TEX, TLD: the texture's geometry */
	SUB_G, SUB_B, SUB_A,                                     /* TLD4: the channel (SUB_R: red) */
	SUB_WT,                                                  /* ST cache operator (appended) */
	SUB_CUBE,                                                /* TEX: a cubemap (appended) */
	SUB_IVALL,                                               /* CCTL: the whole L1 (appended) */
	SUB_D2, SUB_D4, SUB_D8, SUB_M2, SUB_M4, SUB_M8,          /* FMUL: the product scaled by 2^-1..2^3 (Kepler) */
	SUB_COUNT
} Sub;

typedef enum {
	CMP_NONE, CMP_F, CMP_LT, CMP_EQ, CMP_LE, CMP_GT, CMP_NE, CMP_GE, CMP_NUM, CMP_NAN,
	CMP_LTU, CMP_EQU, CMP_LEU, CMP_GTU, CMP_NEU, CMP_GEU, CMP_T,
	CMP_COUNT
} Cmp;

typedef enum { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR, BOP_COUNT } Bop;

typedef enum {
	TY_NONE, TY_U8, TY_S8, TY_U16, TY_S16, TY_U32, TY_S32, TY_U64, TY_S64,
	TY_F16, TY_F32, TY_F64, TY_B64, TY_B128,
	TY_COUNT
} Type;

typedef enum {
	RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_ROUND, RND_TRUNC, RND_FLOOR, RND_CEIL,
	RND_COUNT
} Rnd;

/* condition-code tests (EXIT/BRA/RET/... CC.test), as the SASS reference lists them */
#define ISA_CC_TESTS(X) \
	X(F) X(LT) X(EQ) X(LE) X(GT) X(NE) X(GE) X(NUM) X(NAN) X(LTU) X(EQU) X(LEU) X(GTU) \
	X(NEU) X(GEU) X(T) X(OFF) X(LO) X(SFF) X(LS) X(HI) X(SFT) X(HS) X(OFT)
typedef enum {
#define X(n) CCT_##n,
	ISA_CC_TESTS(X)
#undef X
	CCT_COUNT
} CCTest;

/* special registers read by S2R */
#define ISA_SREGS(X) \
	X(TID_X, "SR_TID.X") X(TID_Y, "SR_TID.Y") X(TID_Z, "SR_TID.Z") \
	X(NTID_X, "SR_NTID.X") X(NTID_Y, "SR_NTID.Y") X(NTID_Z, "SR_NTID.Z") \
	X(CTAID_X, "SR_CTAID.X") X(CTAID_Y, "SR_CTAID.Y") X(CTAID_Z, "SR_CTAID.Z") \
	X(NCTAID_X, "SR_NCTAID.X") X(NCTAID_Y, "SR_NCTAID.Y") X(NCTAID_Z, "SR_NCTAID.Z") \
	X(LANEID, "SR_LANEID") X(WARPID, "SR_VIRTID") X(NWARPID, "SR_NWARPID") \
	X(SMID, "SR_SMID") X(NSMID, "SR_NSMID") X(GRIDID, "SR_GRIDID") \
	X(CLOCKLO, "SR_CLOCKLO") X(CLOCKHI, "SR_CLOCKHI") \
	X(GLOBALTIMERLO, "SR_GLOBALTIMERLO") X(GLOBALTIMERHI, "SR_GLOBALTIMERHI") \
	X(EQMASK, "SR_EQMASK") X(LTMASK, "SR_LTMASK") X(LEMASK, "SR_LEMASK") \
	X(GTMASK, "SR_GTMASK") X(GEMASK, "SR_GEMASK") \
	X(ENVREG1, "SR_ENVREG1") X(ENVREG2, "SR_ENVREG2") X(SMEMSZ, "SR_SMEMSZ")
typedef enum {
#define X(id, name) SR_##id,
	ISA_SREGS(X)
#undef X
	SR_COUNT
} SReg;

/* ------------------------------------------------------------------ table access */
typedef struct {
	const char *name;  /* mnemonic as printed */
	Shape shape;       /* operand shape */
	Unit unit;         /* functional-unit class */
	Lat lat;           /* latency class */
	uint32_t flags;    /* F_* */
	uint32_t mods;     /* M_* */
} OpInfo;

extern const OpInfo isa_ops[OP_COUNT];

/* operand classes of a shape slot */
enum {
	OC_R = 1 << 0, OC_P = 1 << 1, OC_I = 1 << 2, OC_C = 1 << 3, OC_M = 1 << 4,
	OC_S = 1 << 5, OC_T = 1 << 6, OC_L = 1 << 7, OC_K = 1 << 8, OC_Q = 1 << 9,
};

#define ISA_MAXOPD 6

typedef struct {
	uint8_t n;                    /* slots */
	uint8_t dst[ISA_MAXOPD];      /* 1 when the slot is written */
	uint8_t optional[ISA_MAXOPD]; /* 1 when the slot may be left out */
	uint16_t classes[ISA_MAXOPD]; /* OC_* the slot accepts */
} ShapeInfo;

const ShapeInfo *isa_shape(Shape s);
const char *isa_unit_name(Unit u);   /* "ALU", "LSU_GLOBAL", ... */
const char *isa_lat_name(Lat l);     /* "ALU", "GLOBAL", ... */
const char *isa_sub_name(Sub s);
const char *isa_cmp_name(Cmp c);
const char *isa_bop_name(Bop b);
const char *isa_type_name(Type t);
const char *isa_rnd_name(Rnd r);
const char *isa_cct_name(CCTest t);
const char *isa_sreg_name(SReg s);
int isa_type_bytes(Type t);          /* 1, 2, 4, 8, 16; 4 for TY_NONE */

/* ------------------------------------------------------------------ operands, instructions */
#define ISA_RZ 255   /* the zero register */
#define ISA_PT 7     /* the true predicate */
#define ISA_PR 8     /* OPD_PRED of a Q slot: the predicate file as a word (P2R) */
#define ISA_NREGS 255
/* the defaults of --max-regs and --arch (Fermi, sm_20: 63 registers per thread), read by the
 * architecture's rows of the option table and by the translator's own defaults */
#define ISA_DEFAULT_MAX_REGS 63
#define ISA_DEFAULT_ARCH 20
#define ISA_NPREDS 7

typedef enum {
	OPD_NONE,
	OPD_REG,     /* R[reg]; reg == ISA_RZ is RZ */
	OPD_PRED,    /* P[reg]; reg == ISA_PT is PT */
	OPD_IMM,     /* imm holds the bits (floats as their IEEE encoding) */
	OPD_CONST,   /* c[bank][reg + imm]; reg == ISA_RZ when there is no index */
	OPD_MEM,     /* [reg + imm]; reg == ISA_RZ for an absolute address */
	OPD_SREG,    /* special register imm (SReg) */
	OPD_TARGET,  /* code byte address imm */
	OPD_TLIST,   /* target list: imm = first index into Kernel.tl, n = count */
	OPD_CC,      /* CC test imm (CCTest) */
} OpdKind;

enum {
	OPF_NEG = 1 << 0,  /* -R */
	OPF_ABS = 1 << 1,  /* |R| */
	OPF_NOT = 1 << 2,  /* ~R, or !P */
	OPF_REL = 1 << 3,  /* BRX/JCAL Ra off (Kepler): the target is Ra + the address after the
	                    * branch + imm, printed "BRX R2 -0xc0" */
	OPF_SEL = 7 << 4,  /* VMAD's a and b, the source of I2F and F2F (ptxas's listings): the
	                    * byte or half-word the operand is, (flags & OPF_SEL) >> OPF_SEL_SHIFT:
	                    * 1-4 .B0-.B3, 5-6 .H0, .H1;
	                    * 0 the lowest of the operand's type (docs/isa.md) */
	OPF_SEL_SHIFT = 4,
};

typedef struct {
	uint8_t kind;    /* OpdKind */
	uint8_t flags;   /* OPF_* */
	uint8_t reg;     /* register or predicate number; base register of c[][] and [] */
	uint8_t bank;    /* constant bank of OPD_CONST */
	uint16_t n;      /* OPD_TLIST: number of targets */
	int64_t imm;     /* immediate bits, offset, address, SReg or CCTest */
} Opd;

typedef struct {
	uint8_t sub;     /* Sub */
	uint8_t cmp;     /* Cmp */
	uint8_t bop;     /* Bop: first boolean combiner */
	uint8_t bop2;    /* Bop: second boolean combiner (PSETP) */
	uint8_t dtype;   /* Type: first type modifier (destination, or the only one) */
	uint8_t stype;   /* Type: second type modifier (source of conversions) */
	uint8_t rnd;     /* Rnd */
	uint32_t flags;  /* MF_* */
} Mods;

typedef struct {
	uint16_t op;        /* Op */
	uint8_t guard;      /* guard predicate; ISA_PT when unguarded */
	uint8_t gneg;       /* guard negated (@!P0) */
	uint8_t sync;       /* .S: the guarded lanes arrive at the innermost sync point */
	uint8_t nopd;       /* operands present */
	Mods m;             /* modifiers */
	Opd o[ISA_MAXOPD];  /* operands in shape order; absent optional slots are OPD_NONE */
	uint32_t addr;      /* byte address in the kernel's code */
	int32_t line;       /* listing line it was parsed from, or 0 */
	int32_t ptxline;    /* PTX source line it was translated from, or 0 */
	int32_t srcline;    /* CUDA source line (.loc), or 0 */
	int16_t srcfile;    /* CUDA source file index (.file), or -1 */
	int16_t ptxfile;    /* PTX file of ptxline: Prog.ptxfiles index in a program linked
	                       from several files (frontend/link.c), else 0 */
} Ins;

/* ------------------------------------------------------------------ kernels and programs */
enum { LBL_FUNC = 1, LBL_LOCAL = 2 };

typedef struct {
	char *name;      /* label or function name */
	uint32_t addr;   /* byte address */
	int kind;        /* LBL_FUNC (printed as a .func marker) or LBL_LOCAL */
} Label;

typedef struct {
	uint32_t offset; /* byte offset in constant bank 0 (kernel parameters start at 0x20) */
	uint32_t size;   /* bytes */
	char *name;      /* PTX parameter name, or NULL */
	uint32_t align;  /* its PTX alignment (.align, else the type's size), 0 when unknown (a
	                  * listing's .param line does not say) */
} Param;

typedef struct {
	char *name;      /* variable name */
	uint64_t size;   /* bytes */
	uint32_t align;  /* bytes */
	uint8_t *init;   /* size bytes of initial value, or NULL for zero */
	uint8_t bank;    /* its 64-bit device address is written to c[bank][slot] at load */
	uint32_t slot;
	uint32_t *fwords;/* offsets of the 8-byte words of init that hold a function's code address
	                  * in this kernel (the translator's; none from a listing): a launch of
	                  * another kernel writes its own addresses there (device/cdp.c) */
	int nfwords;
} GlobalVar;

/* (appended) at load, the 8 bytes at offset off of globals[var] get the device address of
 * globals[target] plus addend (a PTX initializer such as generic(gvar)+8) */
typedef struct {
	int var;         /* index in Kernel.globals of the variable written */
	uint64_t off;    /* byte offset in it; off + 8 <= its size */
	int target;      /* index in Kernel.globals of the variable addressed */
	uint64_t addend; /* added to its address (two's complement) */
} GlobalReloc;

/* (Kepler) at load, the 32-bit immediate of the instruction at addr becomes the low (hi = 0)
 * or high word of the device address of globals[var] plus that immediate: a relocation
 * R_CUDA_ABS32_LO/HI of a real listing, whose cuobjdump text shows the immediate as 0x0 */
typedef struct {
	uint32_t addr;   /* instruction address */
	uint8_t hi;      /* 1: high word */
	int var;         /* index in Kernel.globals */
} CodeReloc;

/* Kernel.layout: how the code and constant bank 0 are laid out */
enum {
	ISA_LAYOUT_WARPSIM = 0, /* warpc's own: instruction i at 8*i; c[0x0] as docs/warpsim.md */
	ISA_LAYOUT_SM35 = 35,   /* NVIDIA sm_3x: the scheduling-control word of every eighth slot
	                         * (0x0, 0x40, ...) holds no instruction; c[0x0] as sm_35's driver
	                         * writes it: ntid at 0x28, nctaid at 0x34, the stack top at 0x44,
	                         * parameters from 0x140 (docs/isa.md section 11) */
};
/* the word a launch writes its dynamic shared bytes into (%dynamic_smem_size), in warpc's own
 * layout: bank 0 holds no free word below the parameters at 0x20, and Fermi's ptxas kept its
 * driver values in bank 1 (the stack top at c[0x1][0x100] in the CUDA Handbook's sm_20
 * listing, tests/listings/handbook_atomic.sass); sm_35's is c[0x0][0x114] (DEV_SM35_DYNSMEM) */
#define ISA_DYNSMEM_BANK 1
#define ISA_DYNSMEM_OFF 0x0
#define ISA_NOSLOT 0xff  /* GlobalVar.bank of a variable the code reaches by CodeRelocs */

typedef struct {
	uint8_t bank;    /* constant bank */
	uint32_t offset; /* byte offset in it */
	uint32_t size;   /* bytes */
	uint8_t *bytes;  /* initial contents */
	char *name;      /* the module .const variable it holds (a launch's --const sets it by
	                  * name), or NULL (a jump table) */
	char *type;      /* its PTX element type (".b8", ".f32"), when named */
	uint32_t align;  /* its alignment, when named */
} ConstData;

typedef struct {
	char *name;           /* kernel name */
	Ins *ins;             /* code, by ascending address: ins[i].addr == 8*i unless the
	                       * layout skips control slots (isa_kernel_index finds an address) */
	int nins, capins;
	Label *labels;        /* named addresses, sorted by address */
	int nlabels;
	Param *params;        /* kernel parameters in order */
	int nparams;
	GlobalVar *globals;   /* module globals the code addresses through a constant slot */
	int nglobals;
	ConstData *cdata;     /* initialised constant-bank data (module .const, jump tables) */
	int ncdata;
	uint32_t *tl;         /* pool of target-list addresses (OPD_TLIST) */
	int ntl;
	int regs;             /* registers per thread */
	uint32_t shared;      /* static shared memory bytes */
	uint32_t local;       /* local memory bytes per thread (spills and call stack) */
	uint32_t spill;       /* of local, bytes of spills */
	int arch;             /* target sm_XX number, e.g. 20 */
	uint32_t maxntid;     /* .maxntid product, 0 when absent */
	uint32_t reqntid[3];  /* .reqntid: the one block shape a launch may have, 0s when absent */
	uint32_t minctas;     /* .minnctapersm: CTAs an SM must hold at once, 0 when absent */
	GlobalReloc *relocs;  /* (appended) global words that hold the address of a global */
	int nrelocs;
	int layout;           /* ISA_LAYOUT_*: warpc's own, or a real sm_3x listing's */
	CodeReloc *abs32;     /* (Kepler) immediates that are halves of a global's address */
	int nabs32;
	char **tex;           /* texture references by slot: TEX/TLD's last operand indexes it;
	                       * the launch binds each name to data (docs/warpsim.md) */
	int ntex;
	char **surf;          /* surface references by slot (SULD, SUST, SUQ), likewise */
	int nsurf;
	char **kref;          /* kernels whose address the code takes (dynamic parallelism's
	                       * launches): kernel kref[i]'s address is ISA_KREF_BASE + 16 * i */
	int nkref;
} Kernel;
#define ISA_KREF_BASE 0xfd000000u   /* above any code address, below no generic window */
/* dynamic parallelism's parameter buffers (CDPBUF, CDPLAUNCH; device/cdp.c): a launch header
 * of ISA_CDP_HDR bytes before each buffer (the kernel's address, u64; grid and block
 * dimensions, u32 x3 each; dynamic shared bytes, u32, at these offsets), the buffer at most
 * ISA_CDP_BUFMAX bytes */
#define ISA_CDP_HDR 64u
#define ISA_CDP_BUFMAX 4096u
enum { ISA_CDP_H_FUNC = 0, ISA_CDP_H_GRID = 8, ISA_CDP_H_BLOCK = 20, ISA_CDP_H_SHMEM = 32 };
/* the handle cudaStreamCreateWithFlags gives (streams do not change the order of child
 * grids, so every stream is this one), and the BPT.TRAP code of one created without
 * cudaStreamNonBlocking */
#define ISA_CDP_STREAM 0x5354524dull
#define ISA_TRAP_STREAM 3
/* the BPT.TRAP code of a call that can reach no function of the module (isel_call.c) */
#define ISA_TRAP_NOCALL 2

typedef struct {
	Kernel *k;            /* kernels in order */
	int nk;
	char **files;         /* CUDA source file names by .file index, for srcfile */
	int nfiles;
	char **ptxfiles;      /* a program linked from several PTX files: their names by
	                         Ins.ptxfile, in command-line order; NULL (0) for one file */
	int nptxfiles;
} Prog;

/* ------------------------------------------------------------------ isa.c */
Prog *isa_prog_new(void);
Kernel *isa_prog_add_kernel(Prog *p, const char *name);
void isa_prog_drop_last(Prog *p);   /* frees and removes the last kernel added */
void isa_prog_free(Prog *p);
Ins *isa_kernel_add(Kernel *k, const Ins *ins);       /* appends, sets addr */
int isa_kernel_add_tlist(Kernel *k, const uint32_t *addrs, int n); /* returns first index */
const Kernel *isa_prog_find(const Prog *p, const char *name);
int isa_ins_writes(const Ins *in, int slot);          /* slot is a destination */
int isa_ins_nregs(const Ins *in, int slot);           /* registers a register slot spans (1, 2, 4) */
void isa_ins_init(Ins *in, Op op);                    /* unguarded, no operands, no modifiers */
/* realloc (n 0: one byte), or "isa.c:LINE: out of memory" on stderr and abort: the one
 * allocator of isa/ (none of its callers can go on without the memory) */
void *isa_xrealloc(void *p, size_t n);

/* ------------------------------------------------------------------ print.c */
/* one instruction without address ("@!P0 BRA 0x58;"); returns length */
int isa_format_ins(char *buf, size_t size, const Kernel *k, const Ins *in);
void isa_print_kernel(FILE *f, const Kernel *k);
void isa_print_prog(FILE *f, const Prog *p);

/* ------------------------------------------------------------------ linemap.c */
/* a line map (warpc --compare-lines): per kernel of a listing, its instructions' PTX lines */
typedef struct {
	char *kernel;       /* the listing's function name */
	uint32_t *addr;     /* instruction addresses, rising */
	int32_t *line;      /* line[i]: the PTX line the instruction at addr[i] comes from */
	int n, cap;
} IsaLineFn;

typedef struct {
	IsaLineFn *f;       /* kernels in the map's order */
	int n;
} IsaLineMap;

/* Parses a line map (the format: linemap.c, docs/isa.md "Line maps"); the first error goes to
 * err as "name:line:col: error: ..." with the source line and a caret, and NULL returns. */
IsaLineMap *isa_linemap_parse(const char *name, const char *text, size_t len, FILE *err);
void isa_linemap_free(IsaLineMap *m);
const IsaLineFn *isa_linemap_find(const IsaLineMap *m, const char *kernel); /* or NULL */
int isa_linemap_line(const IsaLineFn *f, uint32_t addr);  /* its PTX line, 0 when none */
void isa_linemap_print(FILE *f, const IsaLineMap *m);     /* the map in canonical form */

/* ------------------------------------------------------------------ asm.c */
/* Parses a listing; diagnostics "name:line:col: error: ..." with the source line and a
 * caret go to err. Returns the program, or NULL after at least one error. */
Prog *isa_asm(const char *name, const char *text, size_t len, FILE *err);
/* The same, but an instruction whose opcode it does not know, or that it does not support
 * (Kepler's surface address arithmetic SUCLAMP and its company, TEX.B/TLD.B), is kept as a
 * NOP with its guard and address, and counted in *nopaque: for warpc --compare, which reads
 * ptxas's listing for its control flow only. Such a program must never run. */
Prog *isa_asm_opaque(const char *name, const char *text, size_t len, FILE *err, int *nopaque);
/* Structural checks of a kernel (targets inside the code and on instructions, register
 * numbers within k->regs, shapes); prints located errors, returns their count. */
int isa_check_kernel(const Kernel *k, const char *name, FILE *err);


/* ------------------------------------------------------------------ additions (isa.c)
 * Appended to the contract: per-op modifier rules, a validator shared by the listing parser
 * and isa_check_kernel, and helpers to build the rest of a Kernel. */

/* how an immediate source is read (rules.def column fimm) */
typedef enum {
	FIMM_NONE,    /* an integer */
	FIMM_F32,     /* a 32-bit float */
	FIMM_F64,     /* a 64-bit float */
	FIMM_DTYPE,   /* a float of the first type's width (F64, else F32) */
	FIMM_STYPE,   /* a float of the second type's width (F64, F32; F16 and integers: none) */
	FIMM_COUNT
} FImm;

/* where control goes after an op (rules.def column flow), for code walkers such as the
 * backend's verifier; docs/isa.md, section 3, has the exact stack rules */
typedef enum {
	FLOW_NEXT,      /* the next instruction */
	FLOW_SYNC,      /* pushes a SYNC token (SSY), then the next instruction */
	FLOW_STACK,     /* pushes or leaves for a BRK, CONT, PRET or PEXIT token */
	FLOW_BRANCH,    /* the target; the next instruction too for lanes the guard turns off */
	FLOW_INDIRECT,  /* the register's targets (a target list names them) */
	FLOW_CALL,      /* calls the target(s); the next instruction once they return */
	FLOW_EXIT,      /* the guard-true lanes end; the others go on */
	FLOW_RETURN,    /* the guard-true lanes return */
	FLOW_COUNT
} Flow;

#define ISA_SUBWORDS ((SUB_COUNT + 63) / 64)   /* words of IsaRules.subs */

/* what an op accepts beyond its M_* fields, and how its operands are read: the row of
 * isa/rules.def (docs/isa.md gives the meaning) */
typedef struct {
	uint64_t subs[ISA_SUBWORDS]; /* accepted Sub values as bits (isa_takes_sub); SUB_NONE: may be left out */
	uint32_t dtypes;   /* accepted first type modifiers, bits 1<<TY_x (TY_NONE always allowed) */
	uint32_t stypes;   /* accepted second type modifiers; 0 when the op takes only one */
	uint16_t rnds;     /* accepted Rnd values, bits 1<<RND_x (RND_NONE always allowed) */
	uint8_t srcmods;   /* OPF_NEG/OPF_ABS/OPF_NOT allowed on register and constant sources */
	uint8_t cmpreq;    /* 1 when a comparison modifier is required (every op with M_CMP) */
	uint8_t deftype;   /* Type meant when dtype is TY_NONE */
	uint8_t defstype;  /* Type meant when stype is TY_NONE */
	uint8_t fimm;      /* FImm */
	uint8_t flow;      /* Flow */
	const char *regs;  /* registers per operand slot, rules.def's notation ("" all one) */
} IsaRules;

/* 1 when the rules accept sub-operation s (SUB_NONE: the op may go without one) */
static inline int isa_takes_sub(const IsaRules *r, unsigned s)
{
	return s < SUB_COUNT && (r->subs[s / 64] >> (s % 64) & 1);
}

const IsaRules *isa_rules(Op op);                   /* the op's parsed row of rules.def */
void isa_op_rules(Op op, IsaRules *r);              /* a copy of it */
const char *isa_flag_name(int bit);                 /* MF_ bit index -> "CC", "X", ... */
/* width of an immediate in slot when it is a float: 32 or 64; 0 for integer slots */
int isa_imm_float_bits(const Ins *in, int slot);
Type isa_ins_dtype(const Ins *in);                  /* dtype, or the op's default */
Type isa_ins_stype(const Ins *in);                  /* stype, or the op's default */

/* where isa_ins_check found a problem: an operand slot (>= 0) or one of these */
enum {
	ISA_AT_OK = -1, ISA_AT_OP = -2, ISA_AT_GUARD = -3, ISA_AT_SYNC = -4, ISA_AT_SUB = -5,
	ISA_AT_CMP = -6, ISA_AT_BOP = -7, ISA_AT_BOP2 = -8, ISA_AT_DTYPE = -9,
	ISA_AT_STYPE = -10, ISA_AT_RND = -11, ISA_AT_END = -12,
	ISA_AT_FLAG = -32  /* ISA_AT_FLAG - b: the modifier flag with MF_ bit index b */
};
/* Checks one instruction (against k's code size, register count and target lists when k is
 * not NULL); writes a message to msg and returns where, or ISA_AT_OK. */
int isa_ins_check(const Kernel *k, const Ins *in, char *msg, size_t size);

void isa_kernel_add_label(Kernel *k, const char *name, uint32_t addr, int kind); /* keeps order */
const Label *isa_kernel_find_label(const Kernel *k, const char *name);
void isa_kernel_add_param(Kernel *k, uint32_t offset, uint32_t size, const char *name);
/* names the last constant data added: the .const variable name of PTX type type ('.f32'), align */
void isa_kernel_cdata_var(Kernel *k, const char *name, const char *type, uint32_t align);
/* init: size bytes copied, or NULL */
void isa_kernel_add_global(Kernel *k, const char *name, uint64_t size, uint32_t align,
                           const uint8_t *init, uint8_t bank, uint32_t slot);
/* a GlobalReloc: var and target index k->globals */
void isa_kernel_add_reloc(Kernel *k, int var, uint64_t off, int target, uint64_t addend);
int isa_kernel_add_tex(Kernel *k, const char *name);  /* its slot (the existing one if known) */
int isa_tex_slot(const Ins *in);   /* the operand of TEX/TLD/TLD4/TXQ naming a texture slot, or -1 */
int isa_kernel_add_surf(Kernel *k, const char *name); /* its surface slot */
int isa_kernel_add_kref(Kernel *k, const char *name); /* its kernel-address slot (Kernel.kref) */
int isa_surf_slot(const Ins *in);  /* the operand of SULD/SUST/SUQ naming a surface slot, or -1 */
void isa_kernel_add_cdata(Kernel *k, uint8_t bank, uint32_t offset, const uint8_t *bytes,
                          uint32_t size);

/* ------------------------------------------------------------------ kepler.c
 * Code addresses, for every layout: on sm_3x the scheduling-control word of every eighth
 * slot holds no instruction, and a branch to it lands on the instruction after it. */
int isa_kernel_index(const Kernel *k, uint32_t addr);   /* instruction at addr, or -1 */
uint32_t isa_kernel_next_addr(const Kernel *k);        /* where the next instruction goes */
uint32_t isa_kernel_end(const Kernel *k);              /* address after the last instruction */
Ins *isa_kernel_add_at(Kernel *k, const Ins *ins, uint32_t addr);  /* addr > the last one */
void isa_kernel_add_abs32(Kernel *k, uint32_t addr, int hi, int var);
int isa_is_ctl_slot(const Kernel *k, uint32_t addr);   /* a control slot of k's layout */

#endif
