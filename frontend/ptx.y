/* ptx.y - the PTX grammar (bison, pure, with locations). It only recognises structure;
 * every action calls a builder of build.c/ins.c, which owns the IR, the symbol tables and
 * the diagnostics. Semantic values are token spans into the source buffer, so nothing is
 * owned by the parser stack and no %destructor is needed: all IR memory lives in the
 * module's arena, partial state in the context (freed by ptx_parse on every path).
 *
 * Constant expressions are limited to a literal with an optional minus (what nvcc and the
 * PTX manual's examples write); addresses are [reg], [sym], [reg+imm], [sym+imm], [imm], and
 * a texture's [tex, {coordinates}] or [tex, sampler, {coordinates}].
 */
%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error verbose
%locations
%expect 0
%param {void *scanner}
%parse-param {PCtx *ctx}

%code requires {
#include "frontend/build.h"
}

%code {
#define YYSTYPE PTX_YYSTYPE
#define YYLTYPE PTX_YYLTYPE
#include "ptx.lex.h"
static void ptx_yyerror(PTX_YYLTYPE *l, void *scanner, PCtx *ctx, const char *msg)
{
	(void)scanner;
	/* an end of file names the construct still open and where it opened */
	if (strstr(msg, "unexpected end of file") && ctx->inbody && ctx->braces.n) {
		PLoc b = ctx->braces.a[ctx->braces.n - 1];
		ptx_diag(ctx, ploc(l), "unexpected end of file inside the body of %s '%s': the '{' "
		         "opened at %d:%d is never closed%s", ctx->cur.entry ? "kernel" : "function",
		         ctx->cur.name ? ctx->cur.name : "?", b.line, b.col,
		         ctx->braces.n > 1 ? " (nor the braces around it)" : "");
	} else if (strstr(msg, "unexpected end of file") && ctx->infunc)
		ptx_diag(ctx, ploc(l), "unexpected end of file in the header of %s '%s' begun at %d:%d",
		         ctx->cur.entry ? "kernel" : "function", ctx->cur.name ? ctx->cur.name : "?",
		         ctx->cur.loc.line, ctx->cur.loc.col);
	else
		ptx_diag(ctx, ploc(l), "%s", msg);
}
#define L(n) ploc_in(ctx, &(n))
}

%union { PTok tok; }

%token <tok> IDENT "identifier" OPWORD "instruction" DOTWORD "unknown directive"
%token <tok> STRING "string" INTLIT "integer" FLOATLIT "floating-point literal"
%token <tok> SPACE "state space" TYPE "type" VEC "vector width"
%token VERSION ".version" TARGET ".target" ADDRESS_SIZE ".address_size" FILE_ ".file"
%token LOC ".loc" PRAGMA ".pragma" ENTRY ".entry" FUNC ".func" VISIBLE ".visible"
%token EXTERN ".extern" WEAK ".weak" COMMON ".common" ALIGN ".align" PTR ".ptr"
%token MAXNTID ".maxntid" REQNTID ".reqntid" MINNCTAPERSM ".minnctapersm"
%token MAXNCTAPERSM ".maxnctapersm" MAXNREG ".maxnreg" NORETURN ".noreturn"
%token EXPLICITCLUSTER ".explicitcluster" REQNCTAPERCLUSTER ".reqnctapercluster"
%token MAXCLUSTERRANK ".maxclusterrank" BRANCHTARGETS ".branchtargets"
%token CALLTARGETS ".calltargets" CALLPROTOTYPE ".callprototype"
%token ABI_PRESERVE ".abi_preserve" ABI_PRESERVE_CONTROL ".abi_preserve_control"

%type <tok> num

/* nvopencc writes .func prototypes without ';' (fproto_end's empty form); a .pragma after one
   belongs to the function's header, as it would before a ';' */
%precedence PROTO_END
%precedence PRAGMA

%%

module
	: %empty
	| module top
	;

top
	: VERSION FLOATLIT                    { b_version(ctx, &$2, L(@2)); }
	| TARGET targets
	| ADDRESS_SIZE INTLIT                 { b_address_size(ctx, &$2, L(@2)); }
	| FILE_ INTLIT STRING file_tail       { b_file(ctx, &$2, &$3); }
	| LOC INTLIT INTLIT INTLIT loc_tail
	| PRAGMA STRING ';'
	| decl ';'
	| function
	| error ';'                           { b_recover(ctx, 1); yyerrok; }
	| error '}'                           { b_recover(ctx, 1); yyerrok; }
	;

targets
	: IDENT                               { b_target(ctx, &$1); }
	| targets ',' IDENT                   { b_target(ctx, &$3); }
	;

file_tail
	: %empty
	| ',' INTLIT ',' INTLIT
	;

loc_tail
	: %empty
	| loc_tail ',' IDENT IDENT
	| loc_tail ',' IDENT INTLIT INTLIT INTLIT
	;

/* ---------------------------------------------------------------- declarations */
/* dspec: ".visible .global .align 4 .v2 .u32", collected into ctx->ds */
dspec
	: dspec_item
	| dspec dspec_item
	;

dspec_item
	: SPACE                               { b_ds_space(ctx, $1.val, L(@1)); }
	| TYPE                                { b_ds_type(ctx, $1.val, L(@1)); }
	| VEC                                 { b_ds_vec(ctx, $1.val); }
	| ALIGN INTLIT                        { b_ds_align(ctx, &$2, L(@2)); }
	| PTR                                 { b_ds_ptr(ctx); }
	| VISIBLE                             { b_ds_link(ctx, PLINK_VISIBLE, L(@1)); }
	| EXTERN                              { b_ds_link(ctx, PLINK_EXTERN, L(@1)); }
	| WEAK                                { b_ds_link(ctx, PLINK_WEAK, L(@1)); }
	| COMMON                              { b_ds_link(ctx, PLINK_COMMON, L(@1)); }
	;

decl
	: dspec declarators                   { b_ds_reset(ctx); }
	;

declarators
	: declarator
	| declarators ',' declarator
	;

declarator
	: IDENT dims_opt init_opt             { b_declare(ctx, &$1, L(@1)); }
	| IDENT '<' INTLIT '>'                { b_declare_range(ctx, &$1, &$3, L(@1)); }
	;

dims_opt
	: %empty
	| dims_opt '[' INTLIT ']'             { b_dim(ctx, &$3, L(@3)); }
	| dims_opt '[' ']'                    { b_dim(ctx, NULL, L(@2)); }
	;

init_opt
	: %empty
	| '=' init
	;

init
	: ival
	| '{' ilist '}'
	;

ilist
	: init
	| ilist ',' init
	;

ival
	: num                                 { b_init_num(ctx, &$1, 0, L(@1)); }
	| '-' num                             { b_init_num(ctx, &$2, 1, L(@1)); }
	| IDENT                               { b_init_sym(ctx, &$1, NULL, 0, 0, L(@1)); }
	| IDENT '+' INTLIT                    { b_init_sym(ctx, &$1, &$3, 0, 0, L(@1)); }
	| IDENT '-' INTLIT                    { b_init_sym(ctx, &$1, &$3, 1, 0, L(@1)); }
	| IDENT '(' IDENT ')'                 { b_init_generic_kw(ctx, &$1, L(@1));
	                                        b_init_sym(ctx, &$3, NULL, 0, 1, L(@3)); }
	| IDENT '(' IDENT ')' '+' INTLIT      { b_init_generic_kw(ctx, &$1, L(@1));
	                                        b_init_sym(ctx, &$3, &$6, 0, 1, L(@3)); }
	;

num
	: INTLIT
	| FLOATLIT
	;

/* ---------------------------------------------------------------- functions */
function
	: dspec_opt ENTRY IDENT               { b_func_begin(ctx, 1, L(@3)); b_func_name(ctx, &$3, L(@3)); }
	  fparams_opt perfs fbody
	| dspec_opt FUNC                      { b_func_begin(ctx, 0, L(@2)); }
	  frets_opt IDENT                     { b_func_name(ctx, &$5, L(@5)); }
	  fparams_opt perfs fproto_end
	;

/* a .func declaration may end without ';' when the next top-level item follows (nvopencc) */
fproto_end
	: fbody
	| %empty %prec PROTO_END              { b_func_decl_end(ctx); }
	;

dspec_opt
	: %empty
	| dspec
	;

frets_opt
	: %empty
	| '('                                 { ctx->pdest |= 1; }
	  params_opt ')'                      { ctx->pdest &= ~1; }
	;

fparams_opt
	: %empty
	| '(' params_opt ')'
	;

params_opt
	: %empty
	| params
	;

params
	: param
	| params ',' param
	;

param
	: dspec IDENT dims_opt                { b_param(ctx, &$2, L(@2)); }
	| dspec '_' dims_opt                  { b_param(ctx, NULL, L(@2)); }
	| dspec                               { b_param_unnamed(ctx, L(@1)); }
	;

perfs
	: %empty
	| perfs perf
	;

perf
	: MAXNTID INTLIT                      { b_perf(ctx, MAXNTID, &$2, NULL, NULL, L(@1)); }
	| MAXNTID INTLIT ',' INTLIT           { b_perf(ctx, MAXNTID, &$2, &$4, NULL, L(@1)); }
	| MAXNTID INTLIT ',' INTLIT ',' INTLIT { b_perf(ctx, MAXNTID, &$2, &$4, &$6, L(@1)); }
	| REQNTID INTLIT                      { b_perf(ctx, REQNTID, &$2, NULL, NULL, L(@1)); }
	| REQNTID INTLIT ',' INTLIT           { b_perf(ctx, REQNTID, &$2, &$4, NULL, L(@1)); }
	| REQNTID INTLIT ',' INTLIT ',' INTLIT { b_perf(ctx, REQNTID, &$2, &$4, &$6, L(@1)); }
	| REQNCTAPERCLUSTER INTLIT            { b_perf(ctx, REQNCTAPERCLUSTER, &$2, NULL, NULL, L(@1)); }
	| REQNCTAPERCLUSTER INTLIT ',' INTLIT { b_perf(ctx, REQNCTAPERCLUSTER, &$2, &$4, NULL, L(@1)); }
	| REQNCTAPERCLUSTER INTLIT ',' INTLIT ',' INTLIT { b_perf(ctx, REQNCTAPERCLUSTER, &$2, &$4, &$6, L(@1)); }
	| MINNCTAPERSM INTLIT                 { b_perf(ctx, MINNCTAPERSM, &$2, NULL, NULL, L(@1)); }
	| MAXNCTAPERSM INTLIT                 { b_perf(ctx, MAXNCTAPERSM, &$2, NULL, NULL, L(@1)); }
	| MAXNREG INTLIT                      { b_perf(ctx, MAXNREG, &$2, NULL, NULL, L(@1)); }
	| MAXCLUSTERRANK INTLIT               { b_perf(ctx, MAXCLUSTERRANK, &$2, NULL, NULL, L(@1)); }
	| NORETURN                            { b_perf(ctx, NORETURN, NULL, NULL, NULL, L(@1)); }
	| ABI_PRESERVE INTLIT                 { b_perf(ctx, ABI_PRESERVE, &$2, NULL, NULL, L(@1)); }
	| ABI_PRESERVE_CONTROL INTLIT         { b_perf(ctx, ABI_PRESERVE_CONTROL, &$2, NULL, NULL, L(@1)); }
	| EXPLICITCLUSTER                     { b_perf(ctx, EXPLICITCLUSTER, NULL, NULL, NULL, L(@1)); }
	| PRAGMA STRING ';'                   { b_pragma(ctx, &$2); }
	;

fbody
	: ';'                                 { b_func_decl_end(ctx); }
	| '{'                                 { pvec_push(ctx->braces, L(@1)); b_body_begin(ctx); }
	  stmts '}'                           { ctx->braces.n = 0; b_func_end(ctx); }
	;

/* ---------------------------------------------------------------- statements */
stmts
	: %empty
	| stmts stmt
	;

stmt
	: IDENT ':'                           { b_label(ctx, &$1, L(@1)); }
	| IDENT ':' BRANCHTARGETS names ';'   { b_tlist(ctx, PTL_BRANCH, &$1, L(@1)); }
	| IDENT ':' CALLTARGETS names ';'     { b_tlist(ctx, PTL_CALL, &$1, L(@1)); }
	| IDENT ':' CALLPROTOTYPE             { b_proto_begin(ctx); }
	  proto ';'                           { b_tlist(ctx, PTL_PROTO, &$1, L(@1)); }
	| ins ';'                             { b_ins_end(ctx); }
	| decl ';'
	| '{'                                 { pvec_push(ctx->braces, L(@1)); b_scope_push(ctx); }
	  stmts '}'                           { ctx->braces.n -= ctx->braces.n > 0; b_scope_pop(ctx); }
	| LOC INTLIT INTLIT INTLIT loc_tail   { b_loc(ctx, &$2, &$3, &$4); }
	| PRAGMA STRING ';'                   { b_pragma(ctx, &$2); }
	| error ';'                           { b_recover(ctx, 0); yyerrok; }
	;

names
	: IDENT                               { b_name(ctx, &$1, L(@1)); }
	| names ',' IDENT                     { b_name(ctx, &$3, L(@3)); }
	;

proto
	: proto_rets '_' proto_params
	| proto_rets IDENT                    { b_proto_named(ctx, &$2, L(@2)); }
	  proto_params
	| proto NORETURN                      { b_proto_noreturn(ctx); }
	| proto ABI_PRESERVE INTLIT           { b_proto_abi(ctx, ABI_PRESERVE, &$3, L(@2)); }
	| proto ABI_PRESERVE_CONTROL INTLIT   { b_proto_abi(ctx, ABI_PRESERVE_CONTROL, &$3, L(@2)); }
	;

proto_rets
	: %empty
	| '('                                 { ctx->pdest = 3; }
	  params_opt ')'
	;

proto_params
	: %empty
	| '('                                 { ctx->pdest = 2; }
	  params_opt ')'
	;

ins
	: opcode
	| opcode opnds
	;

opcode
	: IDENT                               { b_ins_begin(ctx, &$1, L(@1)); }
	| OPWORD                              { b_ins_begin(ctx, &$1, L(@1)); }
	| '@' IDENT IDENT                     { b_guard(ctx, &$2, 0, L(@1)); b_ins_begin(ctx, &$3, L(@3)); }
	| '@' IDENT OPWORD                    { b_guard(ctx, &$2, 0, L(@1)); b_ins_begin(ctx, &$3, L(@3)); }
	| '@' '!' IDENT IDENT                 { b_guard(ctx, &$3, 1, L(@1)); b_ins_begin(ctx, &$4, L(@4)); }
	| '@' '!' IDENT OPWORD                { b_guard(ctx, &$3, 1, L(@1)); b_ins_begin(ctx, &$4, L(@4)); }
	| '@' INTLIT IDENT                    { b_guard_imm(ctx, L(@2)); b_ins_begin(ctx, &$3, L(@3)); }
	| '@' INTLIT OPWORD                   { b_guard_imm(ctx, L(@2)); b_ins_begin(ctx, &$3, L(@3)); }
	| '@' '!' INTLIT IDENT                { b_guard_imm(ctx, L(@3)); b_ins_begin(ctx, &$4, L(@4)); }
	| '@' '!' INTLIT OPWORD               { b_guard_imm(ctx, L(@3)); b_ins_begin(ctx, &$4, L(@4)); }
	;

opnds
	: opnd
	| opnds ',' opnd
	;

opnd
	: elem
	| IDENT '+' INTLIT                    { b_opd_name(ctx, &$1, &$3, 0, L(@1)); }
	| IDENT '+' '-' INTLIT                { PTok n = $4; n.u = 0 - n.u; b_opd_name(ctx, &$1, &n, 0, L(@1)); }
	| IDENT '|' IDENT                     { b_opd_pair(ctx, &$1, L(@1), &$3, L(@3)); }
	| '[' addr ']'
	| '[' IDENT ','                       { b_opd_addr(ctx, &$2, NULL, 0, L(@2)); }
	  tex_coords ']'
	| '{'                                 { b_group_begin(ctx, POK_VEC); }
	  elems '}'                           { b_group_end(ctx, POK_VEC, L(@1)); }
	| '('                                 { b_group_begin(ctx, POK_LIST); }
	  elems_opt ')'                       { b_group_end(ctx, POK_LIST, L(@1)); }
	;

/* a texture operand [t, {c..}] or [t, s, {c..}] (tex, suld, sust): the reference, the
 * sampler, the coordinates as operands of their own */
tex_coords
	: '{'                                 { b_group_begin(ctx, POK_VEC); }
	  elems '}'                           { b_group_end(ctx, POK_VEC, L(@1)); }
	| IDENT ','                           { b_opd_addr(ctx, &$1, NULL, 0, L(@1)); }
	  '{'                                 { b_group_begin(ctx, POK_VEC); }
	  elems '}'                           { b_group_end(ctx, POK_VEC, L(@4)); }
	;

elems_opt
	: %empty
	| elems
	;

elems
	: elem
	| elems ',' elem
	;

elem
	: IDENT                               { b_opd_name(ctx, &$1, NULL, 0, L(@1)); }
	| OPWORD                              { b_opd_name(ctx, &$1, NULL, 0, L(@1)); }
	| '!' IDENT                           { b_opd_name(ctx, &$2, NULL, POF_NOT, L(@1)); }
	| '-' IDENT                           { b_opd_name(ctx, &$2, NULL, POF_NEG, L(@1)); }
	| '_'                                 { b_opd_sink(ctx, L(@1)); }
	| num                                 { b_opd_imm(ctx, &$1, 0, L(@1)); }
	| '-' num                             { b_opd_imm(ctx, &$2, 1, L(@1)); }
	;

addr
	: IDENT                               { b_opd_addr(ctx, &$1, NULL, 0, L(@1)); }
	| IDENT '+' INTLIT                    { b_opd_addr(ctx, &$1, &$3, 0, L(@1)); }
	| IDENT '+' '-' INTLIT                { b_opd_addr(ctx, &$1, &$4, 1, L(@1)); }
	| IDENT '-' INTLIT                    { b_opd_addr(ctx, &$1, &$3, 1, L(@1)); }
	| INTLIT                              { b_opd_addr(ctx, NULL, &$1, 0, L(@1)); }
	;

%%
