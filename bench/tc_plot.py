#!/usr/bin/env python3
# bench/tc_plot.py CSV SVG: from bench/tc_bench's CSV (--csv), an SVG bar chart
# of the speedup over cuSPARSE's best CSR algorithm per matrix, at N=32 and
# N=128: our CUDA-core kernel, the hybrid's fastest exact variant (threshold 3,
# segments of 16, whole products), the team variant alone (exact), the
# hybrid's fastest tf32 variant (asked for only), and where the CSV holds
# window-rule rows (tc_bench --rules: threshold 1000 = the first rule) the
# fastest exact variant with that rule and the best of the CUDA-core kernel,
# the exact hybrid and the exact hybrid with the rule per matrix (what a
# chooser that measures takes).  Prints the geometric means.
import csv, math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_bars import panel, legend, svg

rows = list(csv.DictReader(open(sys.argv[1])))
mats = []
for r in rows:
    if r['matrix'] not in mats:
        mats.append(r['matrix'])


def ms(m, n, mode, only=None, thr='3'):
    if mode == 'pick':
        return min(ms(m, n, 'cuda'), ms(m, n, 'exact'), ms(m, n, 'exact', None, '1000'))
    v = [float(r['ms']) for r in rows if r['matrix'] == m and r['n'] == n and r['mode'] == mode
         and float(r['ms']) > 0 and r['check'] != 'WRONG'
         and (mode in ('cusparse', 'cuda') or ('/' not in r['variant'] and '+' not in r['variant']
              and r['threshold'] == thr and r['seg'] == '16'))
         and (only is None or r['variant'] == only)
         and not (mode == 'cusparse' and r['variant'] == 'best')]
    return min(v) if v else float('nan')


series = [('our CUDA-core kernel', '#888888', 'cuda', None),
          ('hybrid exact (fastest variant)', '#1f77b4', 'exact', None),
          ('team variant, exact', '#2ca02c', 'exact', 'team'),
          ('hybrid tf32 (opt-in)', '#9ecae1', 'tf32', None)]
if any(r['threshold'] == '1000' for r in rows):
    series = [series[0], series[1],
              ('hybrid exact, window rule', '#d62728', 'exact', None, '1000'),
              ('best of the three (exact)', '#9467bd', 'pick', None),
              series[3]]
series = [s + ('3',) if len(s) == 4 else s for s in series]
W, left, rowh = 900, 150, 34
body, top = [], 40
for n in ('32', '128'):
    def speed(m, j, n=n):
        return ms(m, n, 'cusparse') / ms(m, n, series[j][2], series[j][3], series[j][4])
    top = panel(body, top, left, W, 'SpMM FP32, N=%s: speedup over cuSPARSE\'s best (single calls, H200; log scale)' % n,
                mats, [(l, c) for (l, c, *_) in series], speed, lo=0.125, hi=4.0, rowh=rowh) + 60
    for j, (label, *_) in enumerate(series):
        v = [speed(m, j) for m in mats]
        v = [x for x in v if x > 0 and not math.isnan(x)]
        print('N=%s %-32s geomean %.3f over %d matrices' % (n, label, math.exp(sum(map(math.log, v)) / len(v)), len(v)))
legend(body, top - 28, left, [(l, c) for (l, c, *_) in series], step=180)
svg(sys.argv[2], W, top, body)
