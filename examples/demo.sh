#!/bin/sh
#-------------------------------------------------------------------------------
# examples/demo.sh: PageRank and GCN with the CPU library, and with grbgpu
#-------------------------------------------------------------------------------

# Runs examples/pagerank, examples/gcn, examples/attention and examples/mlp
# (plain GraphBLAS programs) three or four ways:
#   cpu    the CPU library alone (no preload)
#   cuda   grbgpu on the GPU (LD_PRELOAD, GRBGPU_DEVICE=cuda), when
#          `nvidia-smi -L` finds one (results stay on the GPU: the default)
#   cuda-nores  the same with GRBGPU_RESIDENT=0 (every result comes back)
#   host   grbgpu's host emulation backend (GRBGPU_DEVICE=host,
#          GRBGPU_MIN_WORK=0: every product goes through grbgpu's own path)
# The cpu run saves its results; the others recompute and compare with them
# (--compare).  The table at the end gives the time per step (PageRank
# iteration, GCN epoch), the speedup over the CPU library, the check, and the
# statistics line grbgpu prints at exit with GRBGPU_STATS=1.
#
# `make demo` runs it from the build directory.  By hand:
#   top_builddir=BUILD GRBGPU_LIB=BUILD/.libs/libgrbgpu.so \
#       sh examples/demo.sh
# Sizes: with a GPU, PageRank on R-MAT scale 20 (30 iterations) and GCN on
# 100000 nodes (10 epochs); without one, R-MAT scale 20 (20 iterations) and
# GCN on 50000 nodes (5 epochs): about a minute on 2 cores.
# The MLP (inference, dense, 2:4 / 1:4 and vector-wise 8:32 weights): batch 1024,
# width 2048, 4 layers with a GPU; batch 256, width 512, 3 layers without.
# DEMO_PAGERANK_ARGS, DEMO_GCN_ARGS and DEMO_MLP_ARGS override them.

bindir="${top_builddir:-.}/examples"
lib="${GRBGPU_LIB:-${top_builddir:-.}/.libs/libgrbgpu.so}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbgpu-demo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
start=$(date +%s)

for p in pagerank gcn attention mlp; do
    if [ ! -x "$bindir/$p" ]; then
        echo "demo: $bindir/$p is not built (make examples/$p)" ; exit 1
    fi
done

attention_args=${DEMO_ATTENTION_ARGS:-""}     # its defaults, GPU or not
if nvidia-smi -L > "$tmp/gpus" 2>/dev/null && [ -s "$tmp/gpus" ]; then
    gpu=yes
    echo "demo: GPU found: $(head -n 1 "$tmp/gpus")"
    pagerank_args=${DEMO_PAGERANK_ARGS:-"--scale 20 --iters 30"}
    gcn_args=${DEMO_GCN_ARGS:-"--nodes 100000 --epochs 10"}
    mlp_args=${DEMO_MLP_ARGS:-"--batch 1024 --width 2048 --layers 4 --reps 3"}
    modes="cpu cuda cuda-nores host"
else
    gpu=no
    echo "demo: no GPU found: running the host emulation backend" \
        "(plain C on this machine's cores) in place of the GPU"
    pagerank_args=${DEMO_PAGERANK_ARGS:-"--scale 20 --iters 20"}
    gcn_args=${DEMO_GCN_ARGS:-"--nodes 50000 --epochs 5"}
    mlp_args=${DEMO_MLP_ARGS:-"--batch 256 --width 512 --layers 3 --reps 3"}
    modes="cpu host"
fi
if [ ! -f "$lib" ]; then
    echo "demo: $lib not found: only the CPU library runs (build libgrbgpu.la)"
    modes="cpu"
fi
echo "demo: pagerank $pagerank_args"
echo "demo: gcn $gcn_args"
echo "demo: attention ${attention_args:-(its defaults)}"
echo "demo: mlp $mlp_args"

table="$tmp/table"
: > "$table"

# run EXAMPLE MODE ARGS...: one run; appends a row to the table
run ()
{
    ex=$1 ; mode=$2 ; shift 2
    log="$tmp/$ex.$mode.log"
    chk="$tmp/$ex.chk"
    echo ""
    echo "=== $ex, $mode ==="
    case $mode in
        cpu)  "$bindir/$ex" "$@" --save "$chk" > "$log" 2>&1 ;;
        cuda) env LD_PRELOAD="$lib" GRBGPU_DEVICE=cuda GRBGPU_STATS=1 \
                  "$bindir/$ex" "$@" --compare "$chk" > "$log" 2>&1 ;;
        cuda-nores) env LD_PRELOAD="$lib" GRBGPU_DEVICE=cuda GRBGPU_RESIDENT=0 \
                  GRBGPU_STATS=1 "$bindir/$ex" "$@" --compare "$chk" > "$log" 2>&1 ;;
        host) env LD_PRELOAD="$lib" GRBGPU_DEVICE=host GRBGPU_MIN_WORK=0 \
                  GRBGPU_STATS=1 "$bindir/$ex" "$@" --compare "$chk" \
                  > "$log" 2>&1 ;;
    esac
    rc=$?
    # the program's own report, less the per-epoch lines past the first few
    grep -v '^grbgpu: stats:' "$log" | awk '/^epoch/ { if (++e > 3) next } 1'
    step=$(sed -n 's/^summary:.* per_step_s=\([0-9.eE+-]*\).*/\1/p' "$log")
    [ -n "$step" ] || step=nan
    first=$(sed -n 's/^summary:.* first_s=\([0-9.eE+-]*\).*/\1/p' "$log")
    [ -n "$first" ] || first=nan
    stats=$(grep '^grbgpu: stats:' "$log" | tail -n 1 | sed 's/^grbgpu: stats: *//')
    [ -n "$stats" ] || stats="-"
    case $mode in
        cpu) check="saved" ; [ $rc -eq 0 ] || check="exit $rc" ;;
        *)   if grep -q '^check: PASS' "$log"; then check=PASS
             elif grep -q '^check: FAIL' "$log"; then check=FAIL
             else check="exit $rc"; fi ;;
    esac
    echo "$ex|$mode|$step|$check|$stats|$first" >> "$table"
}

for m in $modes; do run pagerank $m $pagerank_args ; done
for m in $modes; do run gcn $m $gcn_args ; done
# shellcheck disable=SC2086
for m in $modes; do run attention $m $attention_args ; done
# shellcheck disable=SC2086
for m in $modes; do run mlp $m $mlp_args ; done

#-------------------------------------------------------------------------------
# the table
#-------------------------------------------------------------------------------

echo ""
echo "=== grbgpu demo: $(nproc 2>/dev/null || echo '?') cores," \
    "GPU: $gpu; $(($(date +%s) - start)) s in all ==="
awk -F'|' '
    BEGIN {
        printf "%-9s %-8s %12s %8s %10s %8s %-6s  %s\n", "example", "mode",
            "s/step", "speedup", "first s", "speedup", "check", "grbgpu statistics"
    }
    {
        if ($2 == "cpu") { base[$1] = $3 ; base1[$1] = $6 }
        sp = "-" ; sp1 = "-"
        if ($2 != "cpu" && base[$1] > 0 && $3 > 0)
            sp = sprintf ("%.2fx", base[$1] / $3)
        if ($2 != "cpu" && base1[$1] > 0 && $6 > 0)
            sp1 = sprintf ("%.2fx", base1[$1] / $6)
        printf "%-9s %-8s %12.5f %8s %10.4f %8s %-6s  %s\n", $1, $2, $3, sp, $6, sp1, $4, $5
    }' "$table"
echo "(s/step: seconds per PageRank iteration, GCN epoch, attention aggregation or" \
    "2:4-pruned MLP forward pass after the first; first s: the first one, which alone pays" \
    "one-time costs (CUDA start-up, conversions, uploads); speedup over the CPU library;" \
    "mode cuda-nores = GRBGPU_RESIDENT=0 (results written back on the host);" \
    "mode host = grbgpu's host emulation backend)"
if grep -q '|FAIL|' "$table" || grep -q '|exit ' "$table"; then exit 1 ; fi
exit 0
