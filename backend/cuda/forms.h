//------------------------------------------------------------------------------
// backend/cuda/forms.h: what the device forms' files share (forms.c)
//------------------------------------------------------------------------------

// Every form (form_csr.c, form_dense.c, form_band.c, form_hot.c, and any new
// form_*.c) is made through form_new and found or built through form_get,
// which attaches it to the operand's cache entry.

#ifndef GRBGPU_CUDA_FORMS_H
#define GRBGPU_CUDA_FORMS_H

#include "backend/cuda/cuda_internal.h"

// Free a form's device memory (ptrs [0..nptrs-1], and plans' plans and band
// form when plans is not NULL) on the device it was made on (h->device);
// nothing when another start-up made it.
GG_INTERNAL void form_free_device (dev_form *h, void *const *ptrs, int nptrs,
    dev_csr *plans) ;

// Drop one reference; the last one destroys the form.
GG_INTERNAL void form_unref (dev_form *h) ;

// A new form of this kind with one reference (the caller's), or NULL; it
// records the device of c's context (its memory is freed there).
GG_INTERNAL dev_form *form_new (gg_devcall *c, size_t size, unsigned magic,
    void (*destroy) (dev_form *)) ;

// The device form attached to cache entry e when it is on the device of c's
// context and fits () accepts it, else a new one from build () (attached to
// e, replacing one that does not fit).
typedef bool (*form_fits_fn) (const dev_form *have, const void *arg) ;
typedef int (*form_build_fn) (gg_devcall *c, const void *arg, dev_form **out) ;
GG_INTERNAL int form_get (gg_devcall *c, gg_cache_entry *e, form_fits_fn fits,
    form_build_fn build, const void *arg, dev_form **out) ;

// (form_grow, for a form made beside a CSR form, is in cuda_internal.h.)

#endif
