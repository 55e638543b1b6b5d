#!/bin/sh
#-------------------------------------------------------------------------------
# tests/test_conformance_resident.sh: the conformance suite with residency on
#-------------------------------------------------------------------------------

# GRBGPU_RESIDENT=1 (results kept on the device, vector operations on
# resident vectors) changes what a product does around its write-back: every
# conformance case must still give the CPU library's answer, GrB_Info,
# settings and statistics (one intercepted call per product: grbgpu's own
# calls inside a product, e.g. the write-back applying an accumulator, are
# not counted; a run of 2026-11-25 found 60 mxv / vxm cases counting two).
# Whatever GRBGPU_TEST_DEVICE says (host emulation by default, cuda on the
# GPU host).
#
# Environment (from AM_TESTS_ENVIRONMENT): top_builddir.

set -u
top_builddir=${top_builddir:-.}
prog=$top_builddir/tests/test_conformance
[ -x "$prog" ] || { echo "test_conformance_resident: build first" >&2; exit 99; }
GRBGPU_RESIDENT=1 exec "$prog"
