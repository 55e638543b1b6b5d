#!/bin/sh
#-------------------------------------------------------------------------------
# tests/test_conformance_resident_off.sh: the conformance suite, residency off
#-------------------------------------------------------------------------------

# Residency is on by default (results kept on the device, vector and dense
# matrix operations on resident objects): test_conformance itself runs so.
# This runs the same suite with GRBGPU_RESIDENT=0, where every product writes
# its result back on the host: every case must give the CPU library's
# answer, GrB_Info, settings and statistics either way.  Whatever
# GRBGPU_TEST_DEVICE says (host emulation by default, cuda on the GPU host).
#
# Environment (from AM_TESTS_ENVIRONMENT): top_builddir.

set -u
top_builddir=${top_builddir:-.}
prog=$top_builddir/tests/test_conformance
[ -x "$prog" ] || { echo "test_conformance_resident_off: build first" >&2; exit 99; }
GRBGPU_RESIDENT=0 exec "$prog"
