#!/bin/sh
# scripts/setup.sh: install what a fresh Debian 12 machine lacks, then build
# grbgpu (with the CUDA backend when nvcc and cuSPARSE are found).
# Usage (from the repository root, as root or with sudo available):
#   ./scripts/setup.sh && make demo      # the demonstration
#   ./scripts/setup.sh && make check     # the test suite
# Extra arguments are passed to ./configure.  MAKE_CFLAGS, when set, is
# passed to make as CFLAGS (CI uses it for -Werror: given to configure it
# would make configure's own test programs fail).
set -eu
cd "$(dirname "$0")/.."

need=""
for pkg in libgraphblas-dev libcmocka-dev autoconf automake libtool pkg-config \
           make gcc python3 gzip; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -n "$need" ]; then
    echo "setup: installing$need"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi

[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
if [ ! -f Makefile ] || [ config.status -ot configure ] || [ $# -gt 0 ]; then
    ./configure -q "$@"
fi
if [ -n "${MAKE_CFLAGS:-}" ]; then
    make -j"$(nproc)" CFLAGS="$MAKE_CFLAGS" >/dev/null 2>&1 || make CFLAGS="$MAKE_CFLAGS"
else
    make -j"$(nproc)" >/dev/null 2>&1 || make
fi
echo "setup: built $(ls .libs/libgrbgpu.so 2>/dev/null) ($(grep -q 'define GRBGPU_HAVE_CUDA 1' config.h && echo 'with CUDA' || echo 'without CUDA'))"
