#!/usr/bin/env python3
#-------------------------------------------------------------------------------
# scripts/gen_objver.py: backend/interpose/objver_wrappers.c from GraphBLAS.h
#-------------------------------------------------------------------------------

# Every exported SuiteSparse:GraphBLAS function that creates, changes or frees
# a GrB_Matrix or GrB_Vector gets a wrapper with the same name and prototype.
# The wrapper forwards to the real function (dlsym (RTLD_NEXT) through
# grbgpu_real, looked up once) and then tells backend/interpose/objver.c what
# happened:
#
#   in place    the object passed as a (non-const) GrB_Matrix / GrB_Vector
#               changed: bump its version (even on error: a spurious bump is
#               only a cache miss).
#   create      *out is a new object (new, dup, import, deserialize, ...):
#               bump *out after a successful call.
#   destroy     *A is freed (free, GxB export): read the handle before the
#               call, drop it after.
#   consume     GxB_pack_HyperHash takes *Y into A: drop the old *Y if the
#               call took it.
#   tiles       GxB_Matrix_split creates m*n tiles: bump each.
#
# Resident results (backend/resident/): before the real call, every wrapper
# materialises each matrix / vector argument that may hold its values on the
# device (grbgpu_resident_touch; the wrapper returns its error instead of
# calling when that fails).  So functions that only read their matrix /
# vector arguments (nvals is the exception below; extractElement,
# extractTuples, fprint, serialize, Option_get, iterators, reduce to a
# scalar, GrB export, ...) are wrapped too, with no version bump.  Free
# functions drop the device copy instead (grbgpu_resident_forget), GxB
# export materialises before the object leaves, and concat materialises
# every tile.  Functions that read only an object's dimensions, type or
# number of entries do not materialise: a resident object holds its exact
# structure (full) with a placeholder value.  GrB_mxm / GrB_mxv / GrB_vxm are
# not wrapped (backend/interpose/interpose.c exports those, and bumps and
# materialises itself).
#
# The script refuses (exit 1) when it meets a function with a matrix or vector
# argument that none of its rules explains, so that a new GraphBLAS version is
# looked at by a person instead of silently half-wrapped.
#
# usage: gen_objver.py [GraphBLAS.h] [output.c]     (python3, stdlib only)

import re
import sys

#-------------------------------------------------------------------------------
# rules
#-------------------------------------------------------------------------------

# exported by backend/interpose/interpose.c
INTERPOSED = {'GrB_mxm', 'GrB_mxv', 'GrB_vxm'}

# functions that only read their matrix / vector arguments
READ_ONLY = re.compile(
    r'_(size|nvals|nrows|ncols|type|type_name|memoryUsage|iso|error)$'
    r'|extractElement|isStoredElement|extractTuples|Option_get'
    r'|fprint|(?<!de)serialize|exportSize|exportHint'
    r'|^GrB_Matrix_export_'         # GrB export copies out; A is unchanged
    r'|Iterator_attach$')

# functions that change an object's storage but not its value: GrB_wait
# finishes pending work that the calls which queued it already counted (a
# form read in place is checked against the current storage instead).  They
# are not wrapped: nothing to bump, and a resident object has no pending work
# (its host side is a finished full placeholder; its values come down when
# something reads them), so a loop that calls GrB_wait keeps it on the device
SAME_VALUE = re.compile(r'^GrB_(Matrix|Vector)_wait$')

# functions whose first argument is GrB_Matrix * / GrB_Vector * that receives
# a new object
CREATE = re.compile(r'_(new|dup)$|_import_|_deserialize$|^GrB_Matrix_diag$'
                    r'|_reshapeDup$')

# functions that free *A
DESTROY = re.compile(r'_free$|^GxB_(Matrix|Vector)_export_')

# non-const arguments that are inputs all the same (the header omits const)
INPUT_OVERRIDES = {
    'GxB_Vector_sort': {'u'},
    'GxB_Matrix_sort': {'A'},
    'GxB_Matrix_reshapeDup': {'A'},
}

# functions that read only what a resident placeholder holds exactly
STRUCTURE_ONLY = re.compile(r'_(size|nvals|nrows|ncols|type|type_name|error)$')

# dense vector and matrix operations that the device may answer
# (backend/dispatch/vec_dispatch.h): the wrapper asks first, with
# materialisation off; when the hook answers, the call's versions are bumped
# as usual and nothing reaches the CPU library.  The grbgpu_dense_* hooks
# serve both kinds: a vector's call passes its objects cast to GrB_Matrix.
def dense_hooks():
    hooks = {}
    for kind in ('Vector', 'Matrix'):
        vec = kind == 'Vector'
        # the argument names in GraphBLAS.h
        C, M, A, B = ('w', 'mask', 'u', 'v') if vec else ('C', 'Mask', 'A', 'B')
        obj = (lambda a: '(GrB_Matrix) ' + a) if vec else (lambda a: a)
        flag = 'true' if vec else 'false'
        head = '%s, %s, %s, accum' % (flag, obj(C), obj(M))
        hooks['GrB_%s_eWiseMult_BinaryOp' % kind] = \
            'grbgpu_dense_ewise_mult (%s, mult, %s, %s, desc, &info)' % (head, obj(A), obj(B))
        hooks['GrB_%s_eWiseAdd_BinaryOp' % kind] = \
            'grbgpu_dense_ewise (%s, add, %s, %s, desc, &info)' % (head, obj(A), obj(B))
        hooks['GrB_%s_apply' % kind] = \
            'grbgpu_dense_apply (%s, op, %s, desc, &info)' % (head, obj(A))
        for t in ('FP32', 'FP64'):
            hooks['GrB_%s_apply_BinaryOp1st_%s' % (kind, t)] = \
                'grbgpu_dense_apply_bind (%s, op, %s, GG_%s, x, true, desc, &info)' % (head, obj(A), t)
            hooks['GrB_%s_apply_BinaryOp2nd_%s' % (kind, t)] = \
                'grbgpu_dense_apply_bind (%s, op, %s, GG_%s, y, false, desc, &info)' % (head, obj(A), t)
        hooks['GrB_%s_dup' % kind] = 'grbgpu_dense_dup (%s, %s, %s, &info)' % (flag, C, obj(A))
    return hooks

HOOKS = dense_hooks()
HOOKS.update({
    'GrB_Vector_assign_FP32': 'grbgpu_vec_assign (w, mask, accum, GG_FP32, x, I, ni, desc, &info)',
    'GrB_Vector_assign_FP64': 'grbgpu_vec_assign (w, mask, accum, GG_FP64, x, I, ni, desc, &info)',
    'GrB_Vector_reduce_FP32': 'grbgpu_vec_reduce (c, GG_FP32, accum, monoid, u, desc, &info)',
    'GrB_Vector_reduce_FP64': 'grbgpu_vec_reduce (c, GG_FP64, accum, monoid, u, desc, &info)',
    'GrB_Matrix_reduce_Monoid': 'grbgpu_pattern_reduce (w, mask, accum, monoid, A, desc, &info)',
    'GrB_Matrix_diag': 'grbgpu_pattern_diag (C, v, k, &info)',
})

# variadic functions, with hand-written wrappers below
VARIADIC = {'GxB_Matrix_Option_set', 'GxB_Vector_Option_set',
            'GxB_Matrix_Option_get', 'GxB_Vector_Option_get'}

OBJ = re.compile(r'\bGrB_(Matrix|Vector)\b')

#-------------------------------------------------------------------------------
# parse the header
#-------------------------------------------------------------------------------

def strip_comments(src):
    src = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', src)


def split_params(text):
    params, depth, cur = [], 0, ''
    for ch in text:
        if ch == ',' and depth == 0:
            params.append(cur.strip())
            cur = ''
            continue
        depth += (ch == '(') - (ch == ')')
        cur += ch
    if cur.strip():
        params.append(cur.strip())
    return params


def param_name(p):
    core = re.sub(r'\[[^\]]*\]', '', p).strip()
    m = re.search(r'(\w+)\s*$', core)
    return m.group(1) if m else None


def declarations(src):
    """(return type, name, [params]) of every GB_PUBLIC function."""
    out = []
    for m in re.finditer(r'GB_PUBLIC\s+([^;{]*?)\s*;', src, flags=re.S):
        d = ' '.join(m.group(1).split())
        f = re.match(r'^(.*?)\b(\w+)\s*\((.*)\)$', d)
        if not f:
            continue
        ret, name, args = f.groups()
        # GRB (Type_new) style declarations are not about matrices
        if name in ('GRB', 'GXB'):
            continue
        params = split_params(args)
        if params == ['void']:
            params = []
        out.append((ret.strip(), name, params))
    return out

#-------------------------------------------------------------------------------
# classify
#-------------------------------------------------------------------------------

def classify(name, params):
    """None (not wrapped) or a list of (kind, argument name)."""
    if name in INTERPOSED:
        return None
    objs = [p for p in params if OBJ.search(p)]
    if not objs:
        return None
    if SAME_VALUE.search(name):
        return None
    if READ_ONLY.search(name):
        if STRUCTURE_ONLY.search(name):
            return None
        acts = []
        for p in objs:
            pname = param_name(p)
            if pname is None:
                raise SystemExit('gen_objver: unnamed argument in %s' % name)
            if '*' in p:
                raise SystemExit('gen_objver: no rule for %s (%s)' % (name, p))
            acts.append(('touch', pname))
        if '...' in params and name not in VARIADIC:
            raise SystemExit('gen_objver: variadic %s needs a rule' % name)
        return acts
    actions = []
    for p in objs:
        pname = param_name(p)
        if pname is None:
            raise SystemExit('gen_objver: unnamed argument in %s' % name)
        is_const = re.search(r'\bconst\b', p.split('GrB_')[0]) is not None
        is_ptr = '*' in p
        if is_ptr and is_const:
            if name == 'GxB_Matrix_concat' and pname == 'Tiles':
                actions.append(('touch_tiles', pname))
                continue
            raise SystemExit('gen_objver: no rule for %s (%s)' % (name, p))
        if is_ptr:
            if DESTROY.search(name):
                actions.append(('destroy', pname))
            elif name == 'GxB_Matrix_split' and pname == 'Tiles':
                actions.append(('tiles', pname))
            elif name == 'GxB_pack_HyperHash' and pname == 'Y':
                actions.append(('consume', pname))
            elif name == 'GxB_unpack_HyperHash' and pname == 'Y':
                actions.append(('create', pname))
            elif CREATE.search(name) and p is params[0]:
                actions.append(('create', pname))
            else:
                raise SystemExit('gen_objver: no rule for %s (%s)' % (name, p))
        elif not is_const and pname not in INPUT_OVERRIDES.get(name, ()):
            actions.append(('inplace', pname))
        else:
            actions.append(('touch', pname))  # an input
    if '...' in params and name not in VARIADIC:
        raise SystemExit('gen_objver: variadic %s needs a rule' % name)
    return actions

#-------------------------------------------------------------------------------
# emit
#-------------------------------------------------------------------------------

PREAMBLE = '''\
//------------------------------------------------------------------------------
// backend/interpose/objver_wrappers.c: version bumps and resident results
//------------------------------------------------------------------------------

// GENERATED by scripts/gen_objver.py from GraphBLAS.h (SuiteSparse:GraphBLAS
// %(version)s); do not edit.  %(count)d wrappers.
//
// Each wrapper first materialises every matrix / vector argument that holds
// its values on the device (grbgpu_resident_touch, backend/resident/; a free
// drops the device copy instead), then forwards to the real function (looked
// up once through grbgpu_real) and records what the call did to its matrix /
// vector arguments in backend/interpose/objver.c: in-place changes bump the
// version (even on error), new objects are bumped after a successful call,
// freed objects are dropped (their handle is read before the call).
// GrB_mxm / GrB_mxv / GrB_vxm are exported by backend/interpose/interpose.c
// instead.

#include <stdarg.h>

#include "backend/grbgpu_internal.h"
#include "backend/dispatch/vec_dispatch.h"

// The real function behind `name`, cached in *slot.  Relaxed ordering is
// enough: the pointer refers to code that was mapped before dlsym returned,
// and two threads racing here store the same value.
static inline void *gg_resolve (void *_Atomic *slot, const char *name)
{
    void *f = atomic_load_explicit (slot, memory_order_relaxed) ;
    if (__builtin_expect (f == NULL, 0))
    {
        f = grbgpu_real (name) ;
        atomic_store_explicit (slot, f, memory_order_relaxed) ;
    }
    return f ;
}

#define GG_REAL(name) \\
    static void *_Atomic gg_slot ; \\
    __typeof__ (&name) real = (__typeof__ (&name)) gg_resolve (&gg_slot, #name)
'''

# The option's value type follows the field (GraphBLAS.h): the switches
# are double, the format and sparsity control are int.  An unknown field
# is forwarded with an int (GraphBLAS rejects it without reading it).
# One body serves GxB_Matrix_Option_set and GxB_Vector_Option_set.
OPTION_SET_BODY = '''\
GG_EXPORT GrB_Info (GxB_{KIND}_Option_set) (GrB_{KIND} A, GxB_Option_Field field, ...)
{
    GG_REAL (GxB_{KIND}_Option_set) ;
    GrB_Info info = grbgpu_resident_touch (A, "GxB_{KIND}_Option_set") ;
    if (info != GrB_SUCCESS) return info ;
    va_list ap ;
    va_start (ap, field) ;
    if (field == GxB_HYPER_SWITCH || field == GxB_BITMAP_SWITCH)
    {
        double value = va_arg (ap, double) ;
        info = real (A, field, value) ;
    }
    else if (field == GxB_FORMAT || field == GxB_SPARSITY_CONTROL)
    {
        int value = va_arg (ap, int) ;
        info = real (A, field, value) ;
    }
    else
    {
        info = real (A, field, 0) ;
    }
    va_end (ap) ;
    grbgpu_objver_bump (A) ;
    return info ;
}
'''

# Every field's value is a pointer, whatever it points to.
OPTION_GET_BODY = '''\
GG_EXPORT GrB_Info (GxB_{KIND}_Option_get) (GrB_{KIND} A, GxB_Option_Field field, ...)
{
    GG_REAL (GxB_{KIND}_Option_get) ;
    GrB_Info info = grbgpu_resident_touch (A, "GxB_{KIND}_Option_get") ;
    if (info != GrB_SUCCESS) return info ;
    va_list ap ;
    va_start (ap, field) ;
    void *value = va_arg (ap, void *) ;
    va_end (ap) ;
    return real (A, field, value) ;
}
'''

VARIADIC_BODIES = {}
for kind in ('Matrix', 'Vector'):
    VARIADIC_BODIES['GxB_%s_Option_set' % kind] = OPTION_SET_BODY.replace('{KIND}', kind)
    VARIADIC_BODIES['GxB_%s_Option_get' % kind] = OPTION_GET_BODY.replace('{KIND}', kind)


def emit_wrapper(ret, name, params, actions):
    if name in VARIADIC_BODIES:
        return VARIADIC_BODIES[name]
    assert ret == 'GrB_Info', name
    names = [param_name(p) for p in params]
    lines = ['GG_EXPORT GrB_Info (%s) (%s)' % (name, ', '.join(params)), '{',
             '    GG_REAL (%s) ;' % name]
    hook = HOOKS.get(name)
    if hook:
        lines += ['    GrB_Info info ;', '    if (%s)' % hook, '    {']
        lines += ['    ' + l for l in bump_lines(actions)]
        lines += ['        return info ;', '    }']
    # resident results: materialise what the call may read or change (a
    # free drops the device copy instead)
    touches = []
    for kind, a in actions:
        if kind in ('touch', 'inplace'):
            touches.append('grbgpu_resident_touch (%s, "%s")' % (a, name))
        elif kind == 'destroy' and name.endswith('_free'):
            lines.append('    if (%s != NULL) grbgpu_resident_forget (*%s) ;' % (a, a))
        elif kind == 'destroy':
            touches.append('(%s == NULL ? GrB_SUCCESS : grbgpu_resident_touch (*%s, "%s"))'
                           % (a, a, name))
        elif kind == 'touch_tiles':
            lines += ['    for (GrB_Index k = 0 ; Tiles != NULL && k < m * n ; k++)',
                      '    {',
                      '        GrB_Info t = grbgpu_resident_touch (Tiles [k], "%s") ;' % name,
                      '        if (t != GrB_SUCCESS) return t ;',
                      '    }']
    for t in touches:
        lines += ['    {',
                  '        GrB_Info t = %s ;' % t,
                  '        if (t != GrB_SUCCESS) return t ;',
                  '    }']
    for kind, a in actions:
        if kind in ('destroy', 'consume'):
            lines.append('    const void *old_%s = (%s == NULL) ? NULL : (const void *) *%s ;'
                         % (a, a, a))
    lines.append('    %sinfo = real (%s) ;' % ('' if hook else 'GrB_Info ', ', '.join(names)))
    lines += bump_lines(actions)
    lines += ['    return info ;', '}', '']
    return '\n'.join(lines)


def bump_lines(actions):
    lines = []
    for kind, a in actions:
        if kind == 'inplace':
            lines.append('    grbgpu_objver_bump (%s) ;' % a)
        elif kind == 'create':
            lines.append('    if (info == GrB_SUCCESS && %s != NULL) grbgpu_objver_bump (*%s) ;'
                         % (a, a))
        elif kind == 'destroy':
            lines.append('    grbgpu_objver_drop (old_%s) ;' % a)
        elif kind == 'consume':
            lines.append('    if (%s == NULL || *%s != old_%s) grbgpu_objver_drop (old_%s) ;'
                         % (a, a, a, a))
        elif kind == 'tiles':
            lines += ['    if (info == GrB_SUCCESS && %s != NULL)' % a,
                      '    {',
                      '        for (GrB_Index k = 0 ; k < m * n ; k++) grbgpu_objver_bump (%s [k]) ;' % a,
                      '    }']
    return lines


def header_version(raw):
    """SuiteSparse:GraphBLAS's version, as GraphBLAS.h gives it."""
    return '.'.join(
        re.search(r'#define\s+GxB_IMPLEMENTATION_%s\s+(\d+)' % k, raw).group(1)
        for k in ('MAJOR', 'MINOR', 'SUB'))


def write_output(text, output):
    """text into the file output, or to standard output when it is None."""
    if output:
        with open(output, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main():
    header = sys.argv[1] if len(sys.argv) > 1 else '/usr/include/GraphBLAS.h'
    output = sys.argv[2] if len(sys.argv) > 2 else None
    raw = open(header).read()
    version = header_version(raw)
    wrapped = []
    for ret, name, params in declarations(strip_comments(raw)):
        actions = classify(name, params)
        if actions is not None:
            assert name not in HOOKS or actions, name
            wrapped.append((ret, name, params, actions))
    body = [PREAMBLE % {'version': version, 'count': len(wrapped)}]
    for w in wrapped:
        body.append(emit_wrapper(*w))
    text = '\n'.join(body)
    write_output(text, output)
    sys.stderr.write('gen_objver: %d wrappers (GraphBLAS %s)\n' % (len(wrapped), version))


if __name__ == '__main__':
    main()
