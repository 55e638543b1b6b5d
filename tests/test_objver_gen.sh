#!/bin/sh
# tests/test_objver_gen.sh: scripts/gen_objver.py, run on the installed
# GraphBLAS.h, reproduces the committed backend/interpose/objver_wrappers.c,
# and scripts/gen_resident_calls.py the committed tests/resident_calls_gen.c.
# Skips (77) without python3, without the header, or for a GraphBLAS other
# than the one the committed file was generated from.
srcdir=${top_srcdir:-$(dirname "$0")/..}
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
header=
for h in ${GRAPHBLAS_H:-} /usr/include/GraphBLAS.h /usr/include/suitesparse/GraphBLAS.h \
         /usr/local/include/GraphBLAS.h /usr/local/include/suitesparse/GraphBLAS.h; do
    if [ -f "$h" ]; then header=$h; break; fi
done
[ -n "$header" ] || { echo "no GraphBLAS.h"; exit 77; }
committed="$srcdir/backend/interpose/objver_wrappers.c"
want=$(sed -n 's/^\/\/ \([0-9][0-9.]*\)); do not edit.*/\1/p' "$committed")
have=$(sed -n 's/^#define GxB_IMPLEMENTATION_\(MAJOR\|MINOR\|SUB\) *\([0-9]*\).*/\2/p' "$header" | paste -sd. -)
if [ "$want" != "$have" ]; then
    echo "committed wrappers are for GraphBLAS $want, header is $have: skip"
    exit 77
fi
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
python3 "$srcdir/scripts/gen_objver.py" "$header" "$tmp" || exit 1
if ! diff -u "$committed" "$tmp"; then
    echo "backend/interpose/objver_wrappers.c differs from the generator's output: run make regen-objver"
    exit 1
fi
nwrap=$(grep -c '^GG_EXPORT' "$tmp")
python3 "$srcdir/scripts/gen_resident_calls.py" "$header" "$tmp" 2>/dev/null || exit 1
if ! diff -u "$srcdir/tests/resident_calls_gen.c" "$tmp"; then
    echo "tests/resident_calls_gen.c differs from the generator's output: run make regen-resident-calls"
    exit 1
fi
echo "objver_wrappers.c and resident_calls_gen.c are up to date ($nwrap wrappers, GraphBLAS $have)"
