#!/bin/sh
#-------------------------------------------------------------------------------
# examples/check.sh: every example, CPU library vs grbgpu, on small inputs
#-------------------------------------------------------------------------------

# Each example runs twice on the same small seeded input: once with grbgpu
# disabled (GRBGPU_DISABLE=1; the CPU library computes everything) writing its
# results with --save, then with the library under test preloaded
# (LD_PRELOAD=$GRBGPU_LIB, GRBGPU_DEVICE=${GRBGPU_DEVICE:-host},
# GRBGPU_MIN_WORK=0 so that every product is offloaded, GRBGPU_STATS=1)
# comparing with --compare: PageRank ranks to 1e-5 (relative to the largest),
# GCN losses to relative 1e-3 and accuracies to 0.01, attention output to 1e-4
# (relative to the largest).  GCN must also reach 50% test accuracy (chance is
# 1/16) in both runs; the MLP's four outputs (dense, 2:4, 1:4, 8:32 vector-wise weights) to
# 1e-4 (relative to the largest).  Fails if any run or comparison fails.
#
# Run by `make check` (top_builddir and GRBGPU_LIB come from
# AM_TESTS_ENVIRONMENT) or by hand:
#   top_builddir=BUILD GRBGPU_LIB=BUILD/.libs/libgrbgpu.so \
#       sh examples/check.sh
# Without libgrbgpu.so (the library not built yet) the examples are compared
# with themselves under the CPU library, and the test reports SKIP (77) if
# that passes.

bindir="${top_builddir:-.}/examples"
lib="${GRBGPU_LIB:-}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbgpu-examples.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -n "$lib" ] && [ -f "$lib" ]; then
    have_lib=yes
    echo "check.sh: library under test: $lib (device ${GRBGPU_DEVICE:-host})"
else
    have_lib=no
    echo "check.sh: libgrbgpu.so not found (GRBGPU_LIB='$lib'):" \
        "comparing the CPU library with itself"
fi

failed=0

# run_case NAME ARGS...: save with the CPU library, compare with grbgpu
run_case ()
{
    name=$1 ; shift
    prog="$bindir/$name"
    if [ ! -x "$prog" ]; then
        echo "check.sh: $prog not built" ; failed=1 ; return
    fi
    ref="$tmp/$name.chk"

    # reference: the CPU library (grbgpu preloaded but disabled)
    if [ "$have_lib" = yes ]; then
        env LD_PRELOAD="$lib" GRBGPU_DISABLE=1 "$prog" "$@" --save "$ref" \
            > "$tmp/$name.save.log" 2>&1
    else
        "$prog" "$@" --save "$ref" > "$tmp/$name.save.log" 2>&1
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "check.sh: FAIL: $name $* --save (exit $rc):"
        cat "$tmp/$name.save.log" ; failed=1 ; return
    fi

    # under test: grbgpu, every product offloaded
    if [ "$have_lib" = yes ]; then
        env LD_PRELOAD="$lib" GRBGPU_DEVICE="${GRBGPU_DEVICE:-host}" \
            GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 \
            "$prog" "$@" --compare "$ref" > "$tmp/$name.cmp.log" 2>&1
    else
        "$prog" "$@" --compare "$ref" > "$tmp/$name.cmp.log" 2>&1
    fi
    rc=$?
    grep -E '^(check:|summary:|gcn: FAIL|grbgpu: stats:)' "$tmp/$name.cmp.log" \
        | sed "s/^/  $name: /"
    if [ "$have_lib" = yes ] && \
        ! grep -q '^grbgpu: stats:' "$tmp/$name.cmp.log"; then
        echo "  $name: warning: no 'grbgpu: stats:' line: was libgrbgpu loaded?"
    fi
    if [ $rc -ne 0 ] || ! grep -q '^check: PASS' "$tmp/$name.cmp.log"; then
        echo "check.sh: FAIL: $name $* --compare (exit $rc); its output:"
        cat "$tmp/$name.cmp.log" ; failed=1 ; return
    fi
    echo "check.sh: ok: $name $*"
}

run_case pagerank --scale 13
run_case pagerank --scale 12 --iters 30
run_case gcn --nodes 3000 --epochs 15 --features 32 --hidden 16 \
    --signal 0.3 --lr 0.05 --min-test-acc 0.5
run_case gcn --nodes 2000 --epochs 8 --features 16 --hidden 8 --classes 4 \
    --sgd --lr 0.5 --seed 11
run_case attention --scale 11 --dim 32 --reps 1
run_case attention --scale 9 --dim 5 --reps 1 --seed 3
run_case mlp --batch 64 --width 128 --layers 3 --reps 1
run_case mlp --batch 37 --width 70 --layers 2 --reps 1 --seed 5

if [ $failed -ne 0 ]; then
    echo "check.sh: FAIL"
    exit 1
fi
if [ "$have_lib" = no ]; then
    echo "check.sh: SKIP: examples agree with themselves, but libgrbgpu.so" \
        "was not there to test"
    exit 77
fi
echo "check.sh: PASS"
exit 0
