#!/bin/sh
#-------------------------------------------------------------------------------
# tests/test_conformance_split.sh: the conformance suite split across slots
#-------------------------------------------------------------------------------

# GRBGPU_DEVICES=0,0,0 (three slots on one device): every SpMM, SpMV and
# SDDMM the offload side takes is split by row blocks (docs/SCALING.md); every
# conformance case must still give the CPU library's answer.  The run must
# have split products, SDDMMs among them (GRBGPU_VERBOSE=2 logs each split).
# Whatever GRBGPU_TEST_DEVICE says (host emulation by default, cuda on the
# GPU host).
#
# Environment (from AM_TESTS_ENVIRONMENT): top_builddir.

set -u
top_builddir=${top_builddir:-.}
prog=$top_builddir/tests/test_conformance
[ -x "$prog" ] || { echo "test_conformance_split: build first" >&2; exit 99; }
log=${TMPDIR:-/tmp}/test_conformance_split.$$.log
trap 'rm -f "$log"' EXIT
# (GRBGPU_TEST_SELFCHECK: both sides are the CPU library, nothing to split)
GRBGPU_DEVICES=0,0,0 GRBGPU_STATS=1 GRBGPU_VERBOSE=2 "$prog" > "$log" 2>&1
rc=$?
grep -E '^\[  (PASSED|FAILED)  \]' "$log"
if [ $rc -ne 0 ]; then
    grep -E 'FAIL' "$log" | head -20
    echo "test_conformance_split: the suite failed ($rc)"
    exit 1
fi
split=$(grep -oE ' split=[0-9]+' "$log" | tail -1 | cut -d= -f2)
sddmm=$(grep -cE '(host|cuda): sddmm .*split over' "$log")
echo "test_conformance_split: ${split:-0} products split, $sddmm of them SDDMMs"
case "${GRBGPU_TEST_SELFCHECK:-0}" in 0|"") ;; *) exit 0 ;; esac
[ "${split:-0}" -gt 0 ] || { echo "test_conformance_split: nothing split"; exit 1; }
[ "$sddmm" -gt 0 ] || { echo "test_conformance_split: no SDDMM split"; exit 1; }
exit 0
