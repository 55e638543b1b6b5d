#!/usr/bin/env python3
# bench/sddmm_table.py LOG: one line per (matrix, type, K) from a
# `spmm_bench --sddmm-only` log (the backend's SDDMM, cusparseSDDMM, and our
# group / batch schedules called directly), and geometric means per type and K.
import math, re, sys
rows = {}
order = []
for line in open(sys.argv[1]):
    m = re.match(r'(\S+)\s+(fp32|fp64) K=(\d+)\s+sddmm\s+([\d.]+) ms.*cusparse\s+([\d.]+) ms.*\| (ok|WRONG)', line)
    if m:
        key = (m.group(1), m.group(2), int(m.group(3)))
        if key not in rows: order.append(key)
        rows.setdefault(key, {}).update(be=float(m.group(4)), cs=float(m.group(5)), ok=m.group(6))
        continue
    m = re.match(r'(\S+)\s+(fp32|fp64) K=(\d+)\s+sddmm own schedules: grp\s+([\d.na]+) ms \((\w+)\)\s+w\s+([\d.na]+) ms \((\w+)\)\s+w4\s+([\d.na]+) ms \((\w+)\)', line)
    if m:
        key = (m.group(1), m.group(2), int(m.group(3)))
        rows.setdefault(key, {}).update(grp=float(m.group(4)), w=float(m.group(6)), w4=float(m.group(8)),
            sok=(m.group(5), m.group(7), m.group(9)))
print("%-16s %-4s %4s %9s %9s %6s | %8s %8s %8s %s" % ("matrix", "type", "K", "backend", "cusparse",
    "x", "grp", "w", "w4", "checks"))
geo = {}
for key in order:
    r = rows[key]
    if 'be' not in r or 'grp' not in r: continue
    x = r['cs'] / r['be']
    print("%-16s %-4s %4d %9.4f %9.4f %6.2f | %8.4f %8.4f %8.4f %s %s" % (key[0], key[1], key[2],
        r['be'], r['cs'], x, r['grp'], r['w'], r['w4'], r['ok'], ','.join(r['sok'])))
    g = geo.setdefault((key[1], key[2]), [0.0, 0.0, 0.0, 0])
    g[0] += math.log(x)
    g[1] += math.log(r['cs'] / r['grp'])
    g[2] += math.log(r['grp'] / min(r['w'], r['w4'], r['grp']))
    g[3] += 1
for (t, K), g in sorted(geo.items()):
    n = g[3]
    print("geomean %s K=%d over %d: backend x cusparse %.3f, group schedule x cusparse %.3f, "
          "best own schedule over group %.3f" % (t, K, n, math.exp(g[0] / n), math.exp(g[1] / n),
          math.exp(g[2] / n)))
