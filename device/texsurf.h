/* texsurf.h - internal to tex.c and surf.c: what a --surf binding reads and answers as a
 * --tex binding does, and the bindings' lookup by name and by handle. */
#ifndef WARPSIM_TEXSURF_H
#define WARPSIM_TEXSURF_H

#include "device/device.h"

/* the channel type named by the n bytes at s (u8 s8 u16 s16 u32 s32 f32): 0, or -1 */
int dev_chan_type(const char *s, size_t n, Type *t);
/* W[xH[xD]]: positive sizes into t's dims: 0, or -1 */
int dev_parse_dims(const char *s, LaunchTex *t);
/* the index of the binding named name among n bindings whose name is the first field (char *)
 * of each stride-byte element of a (LaunchTex, LaunchSurf), or -1 */
int dev_find_named(const void *a, size_t stride, int n, const char *name);
/* i for a handle base + i with i below n, else -1 */
int dev_handle_index(uint64_t handle, uint64_t base, int n);
/* the PTX ISA's channel data type (txq/suq .channel_data_type) of t, read normalised or not */
uint32_t dev_chan_data_type(Type t, int norm);
/* the PTX ISA's channel order of 1, 2 or 4 channels: CL_R, CL_RG, CL_RGBA */
uint32_t dev_chan_order(int chans);
/* surface binding i of l as placed in m (the buffer of its --arg N): 0, or -1 (surf.c) */
int dev_surf_placed(Mem *m, const Launch *l, int i, DevSurf *out);

#endif
