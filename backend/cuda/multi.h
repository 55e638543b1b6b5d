//------------------------------------------------------------------------------
// backend/cuda/multi.h: the slots of GRBGPU_DEVICES and the split products
//------------------------------------------------------------------------------

// GRBGPU_DEVICES ("all" or a list such as "0,1"; default: one device,
// GRBGPU_DEVICE_ID) names the slots a product is split across.  A slot is a
// device plus its own execution contexts (streams, library handles, pinned
// buffers); a list may name a device twice ("0,0"), which gives two slots on
// one GPU: the split path then runs on a one-GPU host (it measures the cost
// of splitting there, not scaling).
//   slots.c   the per-slot state: which devices, each slot's context pool
//             (made on its device), a device's first use by a slot (its
//             cache budget), peer access between two devices (once per
//             pair), teardown at exit, forgotten in a fork
//   multi.c   SpMM / SpMV (and SDDMM, M's rows in S's place, B in X's)
//             split by row blocks balanced by entries
//             (formats/partition.c), slot s on worker s of a team of
//             persistent threads (backend/team.h): each slot's block of S and
//             its device form in a cache entry of its own, X on every slot,
//             each slot's product through the family table, rows of Y
//             downloaded into their place in the one host result; any failure
//             on any slot frees what every slot took and the call goes to the
//             CPU library.

#ifndef GRBGPU_CUDA_MULTI_H
#define GRBGPU_CUDA_MULTI_H

#include "backend/cuda/cuda_internal.h"
#include "backend/cuda/forms.h"
#include "backend/team.h"

// The slots of this call: their devices in *dev (at most GG_MAX_SLOTS), and
// how many (0 or 1: the split path is not taken).  "all" is every device the
// runtime sees (under the test hook, the devices pretended).  A device that
// does not exist makes the count 0 (logged once).
GG_INTERNAL int slots_resolve (int *dev) ;

// Whether X can be copied from device src to device dev directly (peer to
// peer, or within one device); false: upload from the host.  Asked once per
// pair (enables peer access and access to src's stream-ordered pool).
GG_INTERNAL bool slots_peer (int dev, int src) ;

// Borrow / give back a context of slot s, made on device dev (the caller has
// made dev current).  A slot whose pool was made for another device is
// remade when idle.  A device's first context starts it for the slots (its
// cache budget).
GG_INTERNAL int slot_ctx_acquire (int s, int dev, gg_ctx **out) ;
GG_INTERNAL void slot_ctx_release (int s, gg_ctx *c) ;

// Tests: make slot s fail (GG_ERR_FAULT) after its product ran and its rows
// came down, i.e. with everything taken (-1: off).  Returns the old value.
GG_INTERNAL int gg_multi_fail_slot (int s) ;

// Tests: worker threads the split path has started in this process (one per
// slot, kept between calls).
GG_INTERNAL uint64_t gg_multi_workers (void) ;

// Tests: copies of X from the main device to a slot of another (peer to
// peer, or within one device under the test hook) made so far.
GG_INTERNAL uint64_t gg_multi_peer_copies (void) ;

#endif
