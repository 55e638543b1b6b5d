#!/usr/bin/env python3
# bench/sddmm_tc_plot.py LOG CSV SVG: from a `spmm_bench --sddmm-only
# --sddmm-kernels ...,tc3,tc3t` log, the back-to-back times per (matrix,
# type, K) as CSV, and an SVG bar chart of the speedup over cusparseSDDMM
# per matrix at K=128: our best CUDA-core schedule, the tensor-core SDDMM
# exact (tc3) and tf32 (tc3t) in FP32, and tc3 in FP64 (DMMA).  Needs no
# plotting library (the SVG is written by hand).
import math, re, sys

src = open(__file__.replace('sddmm_tc_plot.py', 'sddmm_table.py')).read().split('def geo')[0]
log, csv_out, svg_out = sys.argv[1:4]
g = {}
sys.argv = ['sddmm_table.py', log]
exec(src, g)
rows, order = g['rows'], g['order']
cc_names = [n for n in ('grp_r', 'w4_r', 'w4l_r', 'grp', 'w4', 'w4l') if any(n in rows[k]['bb'] for k in order)]

with open(csv_out, 'w') as f:
    f.write('matrix,type,K,cusparse_ms,cuda_core_best_ms,tc3_exact_ms,tc3t_tf32_ms\n')
    for key in order:
        b = rows[key]['bb']
        cc = min(b[n] for n in cc_names if n in b)
        f.write('%s,%s,%d,%.4f,%.4f,%.4f,%.4f\n' % (key[0], key[1], key[2], b['cusparse'], cc,
            b.get('tc3', float('nan')), b.get('tc3t', float('nan'))))

# bars: per matrix (K=128) four speedups, log scale from 0.25x to 8x
series = [('fp32', 'cc', 'FP32 CUDA-core best', '#888888'),
          ('fp32', 'tc3', 'FP32 tc3 exact', '#1f77b4'),
          ('fp32', 'tc3t', 'FP32 tc3t tf32', '#9ecae1'),
          ('fp64', 'tc3', 'FP64 tc3 (DMMA)', '#d62728')]
mats = []
for key in order:
    if key[2] == 128 and key[1] == 'fp32' and key[0] not in mats:
        mats.append(key[0])
def speed(m, t, which):
    b = rows[(m, t, 128)]['bb']
    v = min(b[n] for n in cc_names if n in b) if which == 'cc' else b.get(which, float('nan'))
    return b['cusparse'] / v
lo, hi = math.log(0.25), math.log(8.0)
W, left, rowh, top = 900, 150, 34, 40
H = top + rowh * len(mats) + 60
def x_of(s):
    s = min(max(s, 0.25), 8.0)
    return left + (math.log(s) - lo) / (hi - lo) * (W - left - 20)
out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H),
       '<text x="%d" y="18" font-size="13">SDDMM, K=128, speedup over cusparseSDDMM (back to back, H200; log scale)</text>' % left]
for s in (0.25, 0.5, 1, 2, 4, 8):
    x = x_of(s)
    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>' % (x, top - 5, x, top + rowh * len(mats), '#000' if s == 1 else '#ddd'))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%gx</text>' % (x, top + rowh * len(mats) + 14, s))
for i, m in enumerate(mats):
    y0 = top + i * rowh
    out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 6, y0 + rowh / 2 + 4, m))
    for j, (t, which, label, col) in enumerate(series):
        s = speed(m, t, which)
        if math.isnan(s):
            continue
        y = y0 + 3 + j * 7
        x1 = x_of(1.0)
        x2 = x_of(s)
        out.append('<rect x="%.1f" y="%d" width="%.1f" height="6" fill="%s"/>' % (min(x1, x2), y, abs(x2 - x1) + 0.5, col))
for j, (t, which, label, col) in enumerate(series):
    x = left + j * 180
    y = top + rowh * len(mats) + 32
    out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>' % (x, y, col, x + 14, y + 9, label))
out.append('</svg>')
open(svg_out, 'w').write('\n'.join(out) + '\n')
