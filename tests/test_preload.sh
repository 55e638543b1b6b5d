#!/bin/sh
#-------------------------------------------------------------------------------
# tests/test_preload.sh: grbgpu under LD_PRELOAD, and linked in either order
#-------------------------------------------------------------------------------

# tests/preload_prog is an ordinary GraphBLAS program (linked -lgraphblas
# only).  It runs
#   1. under LD_PRELOAD with GRBGPU_DISABLE=1 (the reference: pure pass-through),
#   2. under LD_PRELOAD forced onto the host emulation backend, with stats;
# the outputs must agree (integers exactly, floats within a relative 1e-5
# (f32) / 1e-12 (f64) of the sum of |terms|), and the stats line must show
# offloads: with GRBGPU_RESIDENT=0 exactly its 16 products, with residency
# on (the default) those and the vector operations on kept results, some of
# them kept.  Then the same program linked -lgrbgpu -lgraphblas must offload
# and agree, and linked -lgraphblas -lgrbgpu (--no-as-needed) must warn about
# the link order once and still agree.  With PRELOAD_PROG_ALLOC=count the
# program starts GraphBLAS through GxB_init with its own counting memory
# functions (GraphBLAS's memory pool on, as by default) and exits with 2
# unless, after GrB_finalize, every block was given back and no foreign one
# reached its free: alone, and under LD_PRELOAD on the host backend.
#
# Environment (from AM_TESTS_ENVIRONMENT): GRBGPU_LIB, top_builddir.

set -u
top_builddir=${top_builddir:-.}
GRBGPU_LIB=${GRBGPU_LIB:-$top_builddir/.libs/libgrbgpu.so}
prog=$top_builddir/tests/preload_prog
linked=$top_builddir/tests/preload_prog_linked
badorder=$top_builddir/tests/preload_prog_badorder

if [ ! -f "$GRBGPU_LIB" ]; then
    echo "test_preload: $GRBGPU_LIB not found" >&2
    exit 99
fi
for p in "$prog" "$linked" "$badorder"; do
    if [ ! -x "$p" ]; then
        echo "test_preload: $p not built" >&2
        exit 99
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbgpu-preload.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0

fail () {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# the settings of the environment must not leak into the runs
unset GRBGPU_DEVICE GRBGPU_MIN_WORK GRBGPU_STATS GRBGPU_DISABLE GRBGPU_VERBOSE \
    GRBGPU_FAULT GRBGPU_RESIDENT LD_PRELOAD PRELOAD_PROG_ALLOC 2>/dev/null

# compare REF GOT: same lines, same names and indices; values within tolerance
compare () {
    awk -v what="$3" '
        function abs (x) { return x < 0 ? -x : x }
        NR == FNR { ref [FNR] = $0 ; nref = FNR ; next }
        {
            ngot = FNR
            if (!(FNR in ref)) { if (bad++ < 5) print what ": extra line: " $0 ; next }
            split (ref [FNR], r, " ")
            if ($2 == "nvals") {
                if (r [1] != $1 || r [2] != "nvals" || r [3] != $3) {
                    if (bad++ < 5) print what ": expected \"" ref [FNR] "\", got \"" $0 "\""
                }
                next
            }
            if (r [1] != $1 || r [2] != $2 || r [3] != $3 || r [4] != $4) {
                if (bad++ < 5) print what ": expected \"" ref [FNR] "\", got \"" $0 "\""
                next
            }
            a = r [5] + 0 ; b = $5 + 0
            if ($4 == "i") ok = (r [5] == $5)
            else {
                tol = ($4 == "f32" ? 1e-5 : 1e-12) * (abs (r [6] + 0) + abs (a))
                ok = (a == b) || (abs (a - b) <= tol)
            }
            if (!ok && bad++ < 5) print what ": value: expected \"" ref [FNR] "\", got \"" $0 "\""
        }
        END {
            if (nref != ngot) { print what ": " nref " lines expected, " ngot " got" ; bad++ }
            exit (bad > 0)
        }' "$1" "$2"
}

# offloaded_host=N from the stats line of a run's stderr
offloaded () {
    sed -n 's/.*grbgpu: stats:.*offloaded_host=\([0-9][0-9]*\).*/\1/p' "$1" | tail -n 1
}

# 0. the program alone (no grbgpu anywhere): the reference of the reference
"$prog" > "$tmp/plain.out" 2> "$tmp/plain.err" || fail "preload_prog alone exited $?"
lines=$(grep -cv ' nvals ' "$tmp/plain.out")
if [ "$lines" -lt 1000 ]; then
    fail "preload_prog printed only $lines entries"
fi

# 1. preloaded, disabled: a pure pass-through, identical output
env LD_PRELOAD="$GRBGPU_LIB" GRBGPU_DISABLE=1 GRBGPU_STATS=1 \
    "$prog" > "$tmp/ref.out" 2> "$tmp/ref.err" || fail "disabled run exited $?"
cmp -s "$tmp/plain.out" "$tmp/ref.out" || fail "GRBGPU_DISABLE=1 changed the output"
n=$(offloaded "$tmp/ref.err")
if [ -n "$n" ] && [ "$n" != 0 ]; then
    fail "GRBGPU_DISABLE=1 still offloaded $n calls"
fi

# resident_kept=N from the stats line of a run's stderr
kept () {
    sed -n 's/.*grbgpu: stats:.*resident_kept=\([0-9][0-9]*\).*/\1/p' "$1" | tail -n 1
}

# 2. preloaded, forced onto the host emulation backend (residency off: the
# products alone)
env LD_PRELOAD="$GRBGPU_LIB" GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 \
    GRBGPU_RESIDENT=0 "$prog" > "$tmp/off.out" 2> "$tmp/off.err" || fail "offload run exited $?"
compare "$tmp/ref.out" "$tmp/off.out" "LD_PRELOAD host" || fail "LD_PRELOAD host: results differ"
n=$(offloaded "$tmp/off.err")
echo "LD_PRELOAD host: $(grep 'grbgpu: stats:' "$tmp/off.err" | tail -n 1)"
if [ -z "$n" ]; then
    fail "LD_PRELOAD host: no 'grbgpu: stats:' line with offloaded_host= on stderr"
    cat "$tmp/off.err"
elif [ "$n" -ne 16 ]; then
    fail "LD_PRELOAD host: offloaded_host=$n, expected 16 (every product of the program)"
    cat "$tmp/off.err"
fi

# 2a. the same with residency on (the default): more offloaded, some kept
env LD_PRELOAD="$GRBGPU_LIB" GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 \
    "$prog" > "$tmp/res.out" 2> "$tmp/res.err" || fail "resident run exited $?"
compare "$tmp/ref.out" "$tmp/res.out" "LD_PRELOAD host, resident" \
    || fail "LD_PRELOAD host, resident: results differ"
n=$(offloaded "$tmp/res.err")
echo "LD_PRELOAD host, resident: $(grep 'grbgpu: stats:' "$tmp/res.err" | tail -n 1)"
if [ "${n:-0}" -lt 16 ] || [ "$(kept "$tmp/res.err")" -lt 1 ] 2>/dev/null; then
    fail "LD_PRELOAD host, resident: offloaded_host=${n:-none} (expected 16 or more), resident_kept=$(kept "$tmp/res.err") (expected some)"
fi

# 2b. the program's own allocator (GxB_init): alone, the counts balance and
# the output is the same
env PRELOAD_PROG_ALLOC=count "$prog" > "$tmp/count.out" 2> "$tmp/count.err"
rc=$?
[ "$rc" -eq 0 ] || { fail "alone with its own allocator: exited $rc"; cat "$tmp/count.err"; }
cmp -s "$tmp/plain.out" "$tmp/count.out" || fail "its own allocator changed the output"

# 2c. the same under LD_PRELOAD on the host backend (residency on: kept
# results' placeholders and values arrays too): every array grbgpu hands to
# GraphBLAS comes from that allocator, and every one it takes goes back
env LD_PRELOAD="$GRBGPU_LIB" GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 \
    PRELOAD_PROG_ALLOC=count "$prog" > "$tmp/offcount.out" 2> "$tmp/offcount.err"
rc=$?
echo "LD_PRELOAD host, own allocator: $(grep 'preload_prog: allocator:' "$tmp/offcount.err")"
if [ "$rc" -ne 0 ]; then
    fail "LD_PRELOAD host with the program's own allocator: exited $rc"
    cat "$tmp/offcount.err"
fi
compare "$tmp/ref.out" "$tmp/offcount.out" "LD_PRELOAD host, own allocator" \
    || fail "LD_PRELOAD host, own allocator: results differ"
n=$(offloaded "$tmp/offcount.err")
if [ "${n:-0}" -lt 16 ]; then
    fail "LD_PRELOAD host, own allocator: offloaded_host=${n:-none}, expected 16 or more"
fi

# 3. linked -lgrbgpu -lgraphblas: offloads, no link-order warning
env GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 GRBGPU_RESIDENT=0 \
    "$linked" > "$tmp/linked.out" 2> "$tmp/linked.err" || fail "linked run exited $?"
compare "$tmp/ref.out" "$tmp/linked.out" "linked" || fail "linked: results differ"
n=$(offloaded "$tmp/linked.err")
echo "linked: $(grep 'grbgpu: stats:' "$tmp/linked.err" | tail -n 1)"
if [ "${n:-0}" -ne 16 ]; then
    fail "linked -lgrbgpu -lgraphblas: offloaded_host=${n:-none}, expected 16"
fi
if grep -q 'link order' "$tmp/linked.err"; then
    fail "linked in the right order, yet warned about the link order"
fi

# 4. linked -lgraphblas -lgrbgpu: warns once, answers right (on the CPU library)
env GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 GRBGPU_STATS=1 \
    "$badorder" > "$tmp/bad.out" 2> "$tmp/bad.err" || fail "bad-order run exited $?"
compare "$tmp/ref.out" "$tmp/bad.out" "bad order" || fail "bad order: results differ"
nwarn=$(grep -c 'link order' "$tmp/bad.err")
if [ "$nwarn" -ne 1 ]; then
    fail "linked -lgraphblas -lgrbgpu: expected one link-order warning, got $nwarn"
    cat "$tmp/bad.err"
fi
n=$(offloaded "$tmp/bad.err")
if [ -n "$n" ] && [ "$n" != 0 ]; then
    fail "linked in the wrong order, yet offloaded_host=$n"
fi
if ! ldd "$badorder" 2>/dev/null | grep -q libgrbgpu \
    && ! grep -q 'libgrbgpu' "$badorder" 2>/dev/null; then
    echo "note: could not confirm that the bad-order program loads libgrbgpu"
fi

if [ "$failures" -ne 0 ]; then
    echo "test_preload: $failures failure(s)"
    exit 1
fi
echo "test_preload: all checks passed"
exit 0
