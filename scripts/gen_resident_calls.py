#!/usr/bin/env python3
#-------------------------------------------------------------------------------
# scripts/gen_resident_calls.py: tests/resident_calls_gen.c from GraphBLAS.h
#-------------------------------------------------------------------------------

# Every GraphBLAS function that grbgpu wraps (scripts/gen_objver.py: those
# that read, change, create or free a GrB_Matrix / GrB_Vector) whose
# arguments this script knows how to make gets one test call: the harness
# (tests/test_resident_calls.c) runs it twice on fresh objects, once with the
# matrix / vector arguments held on the device (resident results) and once
# with twins on the host holding the same values, and compares what the two
# calls return: the GrB_Info, every output value, every object afterwards.
#
# Arguments: a GrB_Matrix (GrB_Vector) parameter gets the call's k-th matrix
# (vector), k counted over the call's matrix (vector) parameters (four at
# most); on the device side every one of them is held on the device.  A GrB_Matrix * (GrB_Vector *) that receives a
# new object gets a handle the harness compares and frees.  A GrB_Scalar gets
# a scalar holding 1.5.  Scalars by value are 1 (or true); const index arrays
# are {0, 1}; pointers to numbers are output buffers, GrB_Index ones filled
# with the harness's capacity first (the in / out counts of extractTuples).
# Operators are FP64 built-ins (accum: none), types GrB_FP64, descriptors
# NULL.  Anything else (void *, strings, FILE *, iterators, complex, UDT,
# function pointers, variadic, arrays of objects) leaves the function out; so
# do the ones in SKIP below.
#
# usage: gen_resident_calls.py [GraphBLAS.h] [output.c]   (python3, stdlib)

import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('gen_objver', os.path.join(here, 'gen_objver.py'))
gv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gv)

# left out: they free or export the object (checked elsewhere: test_resident
# test_free_while_resident, test_serialize_export), take a handle array, or
# wait on nothing of interest
SKIP = re.compile(r'_free$|^GxB_(Matrix|Vector)_export_|_split$|_concat$'
                  r'|HyperHash|_import_|_deserialize$|Iterator|_fprint$|_error$'
                  r'|_UDT$|_FC32|_FC64|Context|_serialize$|^GxB_(Matrix|Vector)_sort$'
                  r'|_Option_(set|get)$|_pack_|_unpack_|^GrB_Matrix_export|exportHint'
                  r'|exportSize|_memoryUsage$|_type_name$')

NUMERIC = {'bool': 'true', 'int8_t': '1', 'int16_t': '1', 'int32_t': '1', 'int64_t': '1',
           'uint8_t': '1', 'uint16_t': '1', 'uint32_t': '1', 'uint64_t': '1',
           'float': '1', 'double': '1', 'GrB_Index': '1', 'int': '1'}
OPERATORS = {'GrB_Monoid': 'GrB_PLUS_MONOID_FP64', 'GrB_Semiring': 'GrB_PLUS_TIMES_SEMIRING_FP64',
             'GrB_UnaryOp': 'GrB_AINV_FP64', 'GrB_IndexUnaryOp': 'GrB_TRIL',
             'GrB_Type': 'GrB_FP64', 'GrB_Descriptor': 'NULL', 'GrB_WaitMode': 'GrB_MATERIALIZE'}


def argument(p, name, counts, lines):
    """The C expression for parameter p, or None (the function is left out)."""
    pname = gv.param_name(p)
    base = re.sub(r'\bconst\b', '', p)
    base = re.sub(r'\b%s\b' % re.escape(pname), '', base) if pname else base
    base = ' '.join(base.split())
    if base in ('GrB_Matrix', 'GrB_Vector'):
        kind = 'm' if base == 'GrB_Matrix' else 'v'
        k = counts[kind]
        counts[kind] += 1
        return 'c->%s [%d]' % (kind, k) if k < 4 else None
    if base in ('GrB_Matrix *', 'GrB_Vector *'):
        if counts['out'] > 0:
            return None
        counts['out'] += 1
        return '(%s) &c->out_%s' % (base, 'm' if base == 'GrB_Matrix *' else 'v')
    if base == 'GrB_Scalar':
        return 'c->s'
    if base == 'GrB_BinaryOp':
        return 'NULL' if pname == 'accum' else 'GrB_PLUS_FP64'
    if base in OPERATORS:
        return OPERATORS[base]
    if base in NUMERIC:
        return NUMERIC[base]
    if base == 'const GrB_Index *' or (base == 'GrB_Index *' and 'const' in p):
        return 'gg_index_in'
    m = re.match(r'^(\w+) \*$', base)
    if m and m.group(1) in NUMERIC:
        k = counts['buf']
        counts['buf'] += 1
        if k >= 4:
            return None
        t = m.group(1)
        lines.append('    c->buf_kind [%d] = GG_BUF_%s ;' % (k, 'INDEX' if t == 'GrB_Index'
            else 'FP' if t in ('float', 'double') else 'OTHER'))
        lines.append('    c->buf_elem [%d] = sizeof (%s) ;' % (k, t))
        return '(%s *) c->buf [%d]' % (t, k)
    if base == 'GrB_Type *':
        return '(GrB_Type *) c->buf [3]'
    return None


def main():
    header = sys.argv[1] if len(sys.argv) > 1 else '/usr/include/GraphBLAS.h'
    output = sys.argv[2] if len(sys.argv) > 2 else None
    raw = open(header).read()
    version = gv.header_version(raw)
    funcs = []
    for ret, name, params in gv.declarations(gv.strip_comments(raw)):
        if gv.classify(name, params) is None or SKIP.search(name) or ret != 'GrB_Info':
            continue
        if '...' in params:
            continue
        counts = {'m': 0, 'v': 0, 'out': 0, 'buf': 0}
        lines, args = [], []
        for p in params:
            a = argument(p, name, counts, lines)
            if a is None:
                break
            args.append(a)
        else:
            if counts['m'] + counts['v'] == 0:
                continue
            funcs.append((name, lines, args))
    out = ['''\
//------------------------------------------------------------------------------
// tests/resident_calls_gen.c: one test call per wrapped GraphBLAS function
//------------------------------------------------------------------------------

// GENERATED by scripts/gen_resident_calls.py from GraphBLAS.h (SuiteSparse:
// GraphBLAS %s); do not edit.  %d functions.  The harness is
// tests/test_resident_calls.c (tests/resident_calls.h).

#include "tests/resident_calls.h"

static const GrB_Index gg_index_in [2] = { 0, 1 } ;
''' % (version, len(funcs))]
    for k, (name, lines, args) in enumerate(funcs):
        out.append('static GrB_Info call_%d (gg_call_args *c)\n{' % k)
        out += lines
        out.append('    return %s (%s) ;\n}\n' % (name, ', '.join(args)))
    out.append('const gg_call_entry gg_calls [] =\n{')
    for k, (name, lines, args) in enumerate(funcs):
        out.append('    { "%s", call_%d },' % (name, k))
    out.append('} ;\nconst int gg_ncalls = %d ;' % len(funcs))
    text = '\n'.join(out) + '\n'
    gv.write_output(text, output)
    sys.stderr.write('gen_resident_calls: %d functions (GraphBLAS %s)\n' % (len(funcs), version))


if __name__ == '__main__':
    main()
