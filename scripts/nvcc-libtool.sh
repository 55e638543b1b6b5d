#!/bin/sh
# scripts/nvcc-libtool.sh: run nvcc under `libtool --mode=compile --tag=CC`.
# libtool adds the C compiler's PIC flag (-fPIC), which nvcc rejects: hand
# it to the host compiler instead.  Everything else passes through.
nvcc=$1
shift
for arg
do
    shift
    case $arg in
        -fPIC|-fpic) set -- "$@" "-Xcompiler=$arg" ;;
        *) set -- "$@" "$arg" ;;
    esac
done
exec "$nvcc" "$@"
