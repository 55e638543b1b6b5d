//------------------------------------------------------------------------------
// tests/resident_calls.h: what the generated calls and their harness share
//------------------------------------------------------------------------------

// tests/resident_calls_gen.c (scripts/gen_resident_calls.py) holds one call per
// wrapped GraphBLAS function; tests/test_resident_calls.c makes the arguments
// and compares the device-held side with its host twin.

#ifndef GG_RESIDENT_CALLS_H
#define GG_RESIDENT_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <GraphBLAS.h>

#define GG_CALL_BUFN 4096           // elements of each output buffer

enum { GG_BUF_NONE = 0, GG_BUF_INDEX, GG_BUF_FP, GG_BUF_OTHER } ;

typedef struct
{
    GrB_Matrix m [4] ;              // held on the device (one side): m [0]
    GrB_Vector v [4] ;              // as the kind says, the others full
    GrB_Scalar s ;
    GrB_Matrix out_m ;              // a new object the call makes
    GrB_Vector out_v ;
    void *buf [4] ;                 // output buffers of GG_CALL_BUFN * 8 bytes
    int buf_kind [4] ;
    size_t buf_elem [4] ;
}
gg_call_args ;

typedef struct
{
    const char *name ;
    GrB_Info (*call) (gg_call_args *c) ;
}
gg_call_entry ;

extern const gg_call_entry gg_calls [] ;
extern const int gg_ncalls ;

#endif
