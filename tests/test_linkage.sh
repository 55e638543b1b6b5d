#!/bin/sh
#-------------------------------------------------------------------------------
# tests/test_linkage.sh: libgrbgpu.so maps no CUDA library until it offloads
#-------------------------------------------------------------------------------

# The CUDA backend is a module (libgrbgpu-cuda.so) opened on the first call
# that wants a GPU (backend/cuda/cuda_loader.c).  Checked here:
#   1. libgrbgpu.so names no CUDA library (nor the C++ runtime the kernels
#      bring) among its DT_NEEDED entries;
#   2. an ordinary GraphBLAS program under LD_PRELOAD, offloading to the host
#      emulation backend, loads no CUDA library at all (LD_DEBUG=files lists
#      every object the dynamic loader maps, dlopen'ed ones included), and
#      neither does one with GRBGPU_DISABLE=1;
#   3. when the module was built, GRBGPU_DEVICE=cuda opens it (from beside
#      libgrbgpu.so), and the program's answers are still right (with no GPU
#      the CPU library answers);
#   4. a module that cannot be found leaves the program's answers right.
#
# Environment (from AM_TESTS_ENVIRONMENT): GRBGPU_LIB, top_builddir.

set -u
top_builddir=${top_builddir:-.}
GRBGPU_LIB=${GRBGPU_LIB:-$top_builddir/.libs/libgrbgpu.so}
prog=$top_builddir/tests/preload_prog
module=$(dirname "$GRBGPU_LIB")/libgrbgpu-cuda.so
fail=0

command -v readelf >/dev/null 2>&1 || { echo "test_linkage: no readelf: skipped"; exit 77; }
[ -f "$GRBGPU_LIB" ] && [ -x "$prog" ] || { echo "test_linkage: build first" >&2; exit 99; }

cuda_re='libcuda|libcudart|libcublas|libcusparse|libnvJitLink|libnvrtc|libstdc\+\+'

needed=$(readelf -d "$GRBGPU_LIB" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "test_linkage: libgrbgpu.so needs: $needed"
if echo "$needed" | grep -Eq "$cuda_re"; then
    echo "FAIL: libgrbgpu.so names a CUDA library among its DT_NEEDED entries"
    fail=1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbgpu-linkage.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# the reference answers: the CPU library alone
GRBGPU_DISABLE=1 LD_PRELOAD="$GRBGPU_LIB" "$prog" > "$tmp/ref.out" 2> "$tmp/ref.err" \
    || { echo "FAIL: reference run failed"; cat "$tmp/ref.err"; exit 1; }

# which objects does the loader map?  (LD_DEBUG writes to stderr)
mapped () {
    sed -n 's/.*file=\([^ ]*\) *\[.*generating link map.*/\1/p' "$1" | sort -u
}

for mode in "GRBGPU_DISABLE=1" "GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0" "GRBGPU_DEVICE=cpu"; do
    env $mode LD_DEBUG=files LD_PRELOAD="$GRBGPU_LIB" "$prog" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    libs=$(mapped "$tmp/err")
    if [ $rc != 0 ]; then
        echo "FAIL: $mode: exit $rc"; fail=1
    elif echo "$libs" | grep -Eq "$cuda_re|libgrbgpu-cuda"; then
        echo "FAIL: $mode: a CUDA library was loaded:"; echo "$libs" | grep -E "$cuda_re|libgrbgpu-cuda"
        fail=1
    elif [ "$mode" != "GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0" ] && ! cmp -s "$tmp/out" "$tmp/ref.out"; then
        echo "FAIL: $mode: output differs from the CPU library's"; fail=1
    else
        echo "ok: $mode: $(echo "$libs" | wc -l) objects mapped, none of CUDA"
    fi
done
# (the host backend's sums may differ in the last bits, in another order of
# summation: tests/test_preload.sh compares those with tolerances)

if [ -f "$module" ]; then
    GRBGPU_DEVICE=cuda GRBGPU_MIN_WORK=0 LD_DEBUG=files LD_PRELOAD="$GRBGPU_LIB" "$prog" \
        > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc != 0 ]; then
        echo "FAIL: GRBGPU_DEVICE=cuda: exit $rc"; tail -5 "$tmp/err"; fail=1
    elif ! mapped "$tmp/err" | grep -q "libgrbgpu-cuda.so"; then
        echo "FAIL: GRBGPU_DEVICE=cuda did not open $module"; fail=1
    else
        echo "ok: GRBGPU_DEVICE=cuda opened the module"
    fi
    GRBGPU_CUDA_MODULE="$tmp/missing.so" GRBGPU_DEVICE=cuda GRBGPU_MIN_WORK=0 \
        LD_PRELOAD="$GRBGPU_LIB" "$prog" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc != 0 ]; then
        echo "FAIL: missing module: exit $rc"; tail -5 "$tmp/err"; fail=1
    elif ! cmp -s "$tmp/out" "$tmp/ref.out"; then
        echo "FAIL: missing module: output differs from the CPU library's"; fail=1
    else
        echo "ok: a missing module: the CPU library answered, same output"
    fi
else
    echo "test_linkage: no CUDA module built: the module checks skipped"
fi

[ $fail = 0 ] && echo "test_linkage: passed"
exit $fail
