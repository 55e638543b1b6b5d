#!/usr/bin/env python3
# bench/sddmm_table.py LOG: one line per (matrix, type, K) from a
# `spmm_bench --sddmm-only` log (the backend's SDDMM, cusparseSDDMM, and our
# schedules called directly, whichever --sddmm-kernels named), and geometric
# means per type and K.  Where the log has the back-to-back times (runs from
# 2026-11-28's fifth session on), a second table of those.
import math, re, sys
rows = {}
order = []
names = []
pat = re.compile(r'(\S+)\s+(fp32|fp64) K=(\d+)\s+sddmm')
for line in open(sys.argv[1]):
    m = pat.match(line)
    if not m:
        continue
    key = (m.group(1), m.group(2), int(m.group(3)))
    rest = line[m.end():]
    r = rows.setdefault(key, {'own': {}, 'ok': {}, 'bb': {}})
    if key not in order:
        order.append(key)
    if rest.startswith(' own schedules:'):
        for n, ms, ok in re.findall(r'(\w+)\s+([\d.na]+) ms \((\w+)\)', rest.split('|')[0]):
            r['own'][n] = float(ms)
            r['ok'][n] = ok
            if n not in names:
                names.append(n)
    elif rest.startswith(' back to back:'):
        for n, ms in re.findall(r'(\w+)\s+([\d.na]+) ms', rest):
            r['bb'][n] = float(ms)
    else:
        b = re.match(r'\s+([\d.na]+) ms.*cusparse\s+([\d.]+) ms.*\| (ok|WRONG)', rest)
        if b:
            r.update(be=float(b.group(1)), cs=float(b.group(2)), check=b.group(3))


def geo(v):
    v = [x for x in v if x > 0 and not math.isnan(x)]
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')


def table(title, get_cs, get_own, with_backend):
    print(title)
    head = "%-16s %-4s %4s" % ("matrix", "type", "K")
    if with_backend:
        head += " %9s" % "backend"
    head += " %9s" % "cusparse" + "".join(" %8s" % n for n in names) + " %6s" % "best x"
    print(head)
    acc = {}
    for key in order:
        r = rows[key]
        cs = get_cs(r)
        own = [get_own(r, n) for n in names]
        if cs is None or any(o is None for o in own) or not own:
            continue
        best = min(own)
        line = "%-16s %-4s %4d" % key
        if with_backend:
            line += " %9.4f" % r.get('be', float('nan'))
        line += " %9.4f" % cs + "".join(" %8.4f" % o for o in own) + " %6.2f" % (cs / best)
        if with_backend:
            line += " " + r.get('check', '?') + " " + ",".join(r['ok'].get(n, '?') for n in names)
        print(line)
        a = acc.setdefault(key[1:], {'best': [], 'be': [], **{n: [] for n in names}})
        a['best'].append(cs / best)
        if with_backend and 'be' in r:
            a['be'].append(cs / r['be'])
        for n, o in zip(names, own):
            a[n].append(cs / o)
    for (t, K), a in sorted(acc.items()):
        s = "geomean %s K=%d over %d, x cusparse:" % (t, K, len(a['best']))
        if with_backend:
            s += " backend %.3f," % geo(a['be'])
        s += " best own %.3f;" % geo(a['best'])
        s += "".join(" %s %.3f" % (n, geo(a[n])) for n in names)
        print(s)


table("== one call between events (ms)", lambda r: r.get('cs'),
      lambda r, n: r['own'].get(n), True)
if any(r['bb'] for r in rows.values()):
    table("== back to back, per call (ms)", lambda r: r['bb'].get('cusparse'),
          lambda r, n: r['bb'].get(n), False)

# "#err" lines (runs from 2026-11-29's second session on): each schedule's
# error against FP64 on the sampled entries (max, median; relative to the sum
# of |terms|), and per (type, K) the distribution over the matrices of the
# tensor-core schedules' error over the CUDA-core reference's (REF, default
# grp_r): the bound is 2x in maximum and in median.
errs = {}
epat = re.compile(r'#err (\S+) (fp32|fp64) K=(\d+):(.*)')
for line in open(sys.argv[1]):
    m = epat.match(line)
    if m:
        key = (m.group(1), m.group(2), int(m.group(3)))
        for n, mx, md in re.findall(r'(\w+) (\S+) (\S+)', m.group(4)):
            errs.setdefault(key, {})[n] = (float(mx), float(md))
if errs:
    ref = sys.argv[2] if len(sys.argv) > 2 else 'grp_r'
    print("== error over %s's (max, median), per matrix; distribution over the matrices" % ref)
    groups = {}
    for key, e in errs.items():
        if ref not in e:
            continue
        rmx, rmd = e[ref]
        for n, (mx, md) in e.items():
            if n == ref:
                continue
            q = groups.setdefault((key[1], key[2], n), [])
            q.append((key[0], mx / rmx if rmx > 0 else float('nan'),
                      md / rmd if rmd > 0 else float('nan'), mx, md, rmx, rmd))
    for (t, K, n), q in sorted(groups.items()):
        def dist(v, f='%.2f'):
            v = sorted(x for x in v if not math.isnan(x))
            if not v:
                return "-"
            return ("min " + f + " median " + f + " max " + f) % (v[0], v[len(v) // 2], v[-1])
        print("%s K=%d %s over %d matrices: max ratio %s; median ratio %s" % (
            t, K, n, len(q), dist([x[1] for x in q]), dist([x[2] for x in q])))
        print("   own max error %s; %s max error %s" % (
            dist([x[3] for x in q], '%.1e'), ref, dist([x[5] for x in q], '%.1e')))
