#!/usr/bin/env python3
# bench/ceilings.py: the speedup over cuSPARSE that the hardware allows, per
# product, from bench/floor_bench's measured floors.
#
#   python3 bench/ceilings.py FLOOR_LOG [--sddmm SDDMM_CSV] [--spmm TC_BENCH_CSV]
#
# FLOOR_LOG: floor_bench's output (launch floor, row-gather rates, L2 size).
# --sddmm: sddmm_tc_plot.py's CSV (cuSPARSE and ours back to back, FP32);
#   the floor bound is cuSPARSE's time over the empty kernel's back-to-back
#   time: no SDDMM, ours or anyone's, takes less than a launch.  With --spmm
#   too (its matrices' sizes and tensor-core shares), the gather bound: each
#   entry's row of B read once at the gather rate, A and the pattern once at
#   the stream rate, where B fits in L2 and the share is under 10 % (a
#   tensor-core tile reads a row of B once for its whole 8x1 vector).
# --spmm: tc_bench's CSV (single calls, FP32); per matrix and N, cuSPARSE's
#   best algorithm over the larger of (a) the empty kernel's single-call time
#   and (b) the time to read X's rows once per entry of S at the measured
#   rate of random row gathers from an L2-resident table, plus S and Y at the
#   stream rate.  (b) is a model of a kernel that reuses no row of X between
#   entries (the CUDA-core kernels and cuSPARSE) on an X that fits in L2; it
#   is reported only there and where the tensor-core share is under 10 % (a
#   tensor-core window reuses a row of X for every entry of its 8x1 column
#   vector).  Where X does not fit, skewed columns (R-MAT's hubs) keep their
#   rows in L2 and cuSPARSE beats a uniform gather from HBM, so no figure
#   is given; (a) is reported everywhere.
# Prints a row per product and the geometric means of the bounds next to the
# measured speedups.
import csv
import math
import re
import sys


def gmean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')


def floors(path):
    f = {'gather': {}}
    for line in open(path):
        m = re.match(r'launch\s+grid\s+(\d+) x 128\s+empty kernel\s+single\s+([\d.]+) us\s+back to back\s+([\d.]+) us', line)
        if m and int(m.group(1)) == 132:
            f['single_us'], f['bb_us'] = float(m.group(2)), float(m.group(3))
        m = re.match(r'gather\s+rows of\s+(\d+) B from a\s+(\d+) MB table:\s+[\d.]+ ms\s+([\d.]+) TB/s', line)
        if m:
            f['gather'][(int(m.group(1)), int(m.group(2)) <= 64)] = float(m.group(3)) * 1e12
        m = re.match(r'stream\s+read\s+\d+ MB in order:\s+[\d.]+ ms\s+([\d.]+) TB/s', line)
        if m:
            f['stream'] = float(m.group(1)) * 1e12
        m = re.search(r'L2 (\d+) MB', line)
        if m:
            f['l2'] = int(m.group(1)) * 1048576
    return f


def gather_ms(f, rows, width, bytes_once, table_bytes):
    # rows of width bytes gathered once each from a table that fits in L2,
    # bytes_once streamed, in ms (None where the table does not fit)
    if table_bytes > f.get('l2', 50 << 20) * 0.8:
        return None
    rate = f['gather'].get((128 if width <= 128 else 512, True))
    return (rows * width / rate + bytes_once / f['stream']) * 1e3


def sddmm(path, f, dims):
    rows, seen = {}, set()
    for r in csv.DictReader(open(path)):
        key = (r['matrix'], r['K'])
        if r['type'] != 'fp32' or key in seen:
            continue
        seen.add(key)
        cs = float(r['cusparse_ms'])
        ours = min(float(r[c]) for c in r if c.endswith('_ms') and c not in
                   ('cusparse_ms', 'tc3t_tf32_ms') and r[c] not in ('', 'nan'))
        rows[key] = (cs, ours)
    print('# SDDMM FP32, back to back: cuSPARSE / ours (best exact) and cuSPARSE / launch floor (%.2f us)'
          % f['bb_us'])
    print('%-16s %5s %10s %10s %8s %8s %8s' % ('matrix', 'K', 'cusparse', 'ours', 'x now', 'x floor',
                                               'x gather'))
    for K in ('32', '128'):
        now, bound, bg, bg_now = [], [], [], []
        for (name, k), (cs, ours) in rows.items():
            if k != K:
                continue
            t_floor = f['bb_us'] * 1e-3
            b = cs / t_floor
            now.append(cs / ours)
            bound.append(b)
            xg = '-'
            d = dims.get(name)
            w = 4 * int(K)
            t = None if d is None else gather_ms(f, d['nnz'], w, d['m'] * w + d['nnz'] * 12, d['k'] * w)
            if t is not None and d['share'] < 0.10:
                bg.append(cs / max(t_floor, t))
                bg_now.append(cs / ours)
                xg = '%.2f' % bg [-1]
            print('%-16s %5s %10.4f %10.4f %8.2f %8.2f %8s' % (name, k, cs, ours, cs / ours, b, xg))
        print('# K=%s: geometric mean now %.2f, floor bound %.2f (products under 3x at the floor: %d of %d); '
              'share under 10 %% (%d): now %.2f, gather bound %.2f'
              % (K, gmean(now), gmean(bound), sum(1 for b in bound if b < 3), len(bound), len(bg),
                 gmean(bg_now), gmean(bg)))


def spmm_rows(path):
    best = {}
    for r in csv.DictReader(open(path)):
        try:
            ms = float(r['ms'])
        except ValueError:
            continue
        if r['variant'].endswith('/tc') or r['variant'].endswith('/rem'):
            continue
        key = (r['matrix'], int(r['n']))
        d = best.setdefault(key, {'m': int(r['m']), 'k': int(r['k']), 'nnz': int(r['nnz']), 'share': 0.0})
        if r['mode'] in ('cusparse', 'cuda', 'exact'):
            d[r['mode']] = min(d.get(r['mode'], 1e30), ms)
        if r['mode'] == 'exact':
            d['share'] = max(d['share'], float(r['tc_share'] or 0))
    return best


def spmm(best, f):
    print('# SpMM FP32, single calls: cuSPARSE best / ours (best of CUDA-core and exact hybrid) and the bounds')
    print('#   floor: the empty kernel single (%.2f us); gather: X rows at %s, S and Y at %.2f TB/s'
          % (f['single_us'], ', '.join('%d B %s %.2f TB/s' % (w, 'L2' if l2 else 'HBM', v / 1e12)
                                       for (w, l2), v in sorted(f['gather'].items())), f['stream'] / 1e12))
    print('%-16s %4s %6s %10s %10s %8s %8s %8s' % ('matrix', 'N', 'share', 'cusparse', 'ours', 'x now',
                                                  'x floor', 'x gather'))
    for N in (32, 128):
        now, bf, bg, bg_now = [], [], [], []
        for (name, n), d in sorted(best.items()):
            if n != N or 'cusparse' not in d:
                continue
            ours = min(d.get('cuda', 1e30), d.get('exact', 1e30))
            w = 4 * N
            t_floor = f['single_us'] * 1e-3
            t_gather = gather_ms(f, d['nnz'], w, d['nnz'] * 8 + d['m'] * w, d['k'] * w)
            low = d['share'] < 0.10 and t_gather is not None
            xg = d['cusparse'] / max(t_floor, t_gather) if low else 0
            now.append(d['cusparse'] / ours)
            bf.append(d['cusparse'] / t_floor)
            if low:
                bg.append(xg)
                bg_now.append(d['cusparse'] / ours)
            print('%-16s %4d %6.3f %10.4f %10.4f %8.2f %8.2f %8s' % (name, n, d['share'], d['cusparse'], ours,
                  d['cusparse'] / ours, d['cusparse'] / t_floor, '%.2f' % xg if low else '-'))
        print('# N=%d: geometric mean now %.2f, floor bound %.2f; X in L2 and tensor-core share under 10 %% '
              '(%d matrices): now %.2f, gather bound %.2f' % (N, gmean(now), gmean(bf), len(bg), gmean(bg_now),
                                                            gmean(bg)))


def main():
    a = sys.argv[1:]
    if not a:
        sys.exit('usage: ceilings.py FLOOR_LOG [--sddmm CSV] [--spmm CSV]')
    f = floors(a[0])
    best = spmm_rows(a[a.index('--spmm') + 1]) if '--spmm' in a else {}
    dims = {name: d for (name, n), d in best.items()}     # sizes and shares by matrix
    if '--sddmm' in a:
        sddmm(a[a.index('--sddmm') + 1], f, dims)
    if best:
        spmm(best, f)


if __name__ == '__main__':
    main()
