/* ref.h - what a C reference of a corpus kernel sees: its arguments after the launch placed
 * them (buffers as host pointers, scalars as bits) and the launch shape. A reference runs the
 * kernel's semantics sequentially and leaves the expected contents in the buffers. */
#ifndef WARPSIM_REF_H
#define WARPSIM_REF_H
#include <stdint.h>

typedef struct {
	void *p[16];          /* buffer arguments: host bytes, NULL for scalars */
	uint64_t v[16];       /* scalar arguments: bits */
	uint64_t count[16];   /* buffer elements */
	uint32_t grid[3];     /* --grid */
	uint32_t block[3];    /* --block */
} RefArgs;
#endif
