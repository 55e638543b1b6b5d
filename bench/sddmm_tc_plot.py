#!/usr/bin/env python3
# bench/sddmm_tc_plot.py LOG CSV SVG: from a `spmm_bench --sddmm-only
# --sddmm-kernels ...,tc3,tc3t` log, the back-to-back times per (matrix,
# type, K) as CSV, and an SVG bar chart of the speedup over cusparseSDDMM
# per matrix at K=128: our best CUDA-core schedule, the tensor-core SDDMM
# exact (tc3) and tf32 (tc3t) in FP32, and tc3 in FP64 (DMMA); where the log
# has tc3e4 (exact with four MMAs, the backend's FP32 exact from K = 16), a
# column and a bar for it too.  Needs no plotting library (the SVG is
# written by hand).
import math, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_bars import panel, legend, svg

src = open(__file__.replace('sddmm_tc_plot.py', 'sddmm_table.py')).read().split('def geo')[0]
log, csv_out, svg_out = sys.argv[1:4]
g = {}
sys.argv = ['sddmm_table.py', log]
exec(src, g)
rows, order = g['rows'], g['order']
cc_names = [n for n in ('grp_r', 'w4_r', 'w4l_r', 'grp', 'w4', 'w4l') if any(n in rows[k]['bb'] for k in order)]

e4 = any('tc3e4' in rows[k]['bb'] for k in order)
with open(csv_out, 'w') as f:
    f.write('matrix,type,K,cusparse_ms,cuda_core_best_ms,tc3_exact_ms,tc3t_tf32_ms%s\n'
            % (',tc3e4_exact4_ms' if e4 else ''))
    for key in order:
        b = rows[key]['bb']
        cc = min(b[n] for n in cc_names if n in b)
        f.write('%s,%s,%d,%.4f,%.4f,%.4f,%.4f' % (key[0], key[1], key[2], b['cusparse'], cc,
            b.get('tc3', float('nan')), b.get('tc3t', float('nan'))))
        f.write(',%.4f\n' % b.get('tc3e4', float('nan')) if e4 else '\n')

# bars: per matrix (K=128) four speedups, log scale from 0.25x to 8x
series = [('fp32', 'cc', 'FP32 CUDA-core best', '#888888'),
          ('fp32', 'tc3', 'FP32 tc3 exact' + (' (6 MMAs)' if e4 else ''), '#1f77b4')] \
       + ([('fp32', 'tc3e4', 'FP32 tc3e4 exact (4 MMAs)', '#2ca02c')] if e4 else []) \
       + [('fp32', 'tc3t', 'FP32 tc3t tf32', '#9ecae1'),
          ('fp64', 'tc3', 'FP64 tc3 (DMMA)', '#d62728')]
mats = []
for key in order:
    if key[2] == 128 and key[1] == 'fp32' and key[0] not in mats:
        mats.append(key[0])
def speed(m, t, which):
    b = rows[(m, t, 128)]['bb']
    v = min(b[n] for n in cc_names if n in b) if which == 'cc' else b.get(which, float('nan'))
    return b['cusparse'] / v
W, left, rowh, top = 900, 150, 34, 40
body = ['<text x="%d" y="18" font-size="13">SDDMM, K=128, speedup over cusparseSDDMM (back to back, H200; log scale)</text>' % left]
end = panel(body, top, left, W, None, mats, [(l, c) for (_, _, l, c) in series],
            lambda m, j: speed(m, series[j][0], series[j][1]), rowh=rowh)
legend(body, end + 32, left, [(l, c) for (_, _, l, c) in series])
svg(svg_out, W, end + 60, body)
