#!/usr/bin/env python3
# bench/chooser_table.py: the chooser that measures, against cuSPARSE and
# against the static choices, from one GPU run of bench/spmm_bench
#
#   python3 bench/chooser_table.py TUNED.log TUNED.csv [STATIC.csv]
#
# TUNED.log: spmm_bench's output with GRBGPU_TUNE=1 GRBGPU_VERBOSE=2 (stdout
# and stderr together, so each "tuned spmm" line precedes the kernel row of
# the product that made it); TUNED.csv its CSV; STATIC.csv the same run's
# matrices with GRBGPU_TUNE=0 (the static rule).
#
# Per kernel row: cuSPARSE's best algorithm (spmm_bench's own median), the
# backend's product with the chooser (median) and the family it took, the
# static rule's product, the tuning's wall time (every supporting family
# timed, forms it needed made), and cuSPARSE best / each family as the
# chooser timed it.  Then, per type and N, geometric means of cuSPARSE best
# / backend for the chooser, the static rule, and each family used on every
# tuned row ("a static choice"; a family that does not support a row cannot
# be one, and its mean is over the rows it supports, marked with *).  The
# family columns use the chooser's own timing (the mean of back-to-back runs,
# which for microsecond kernels is below a single call's median); "(winner)"
# is the chooser's pick in that same timing, the fair comparison with them.
# Products under the chooser's work threshold are not tuned (static rule).
import csv
import math
import re
import sys
from collections import defaultdict

TUNED = re.compile(r"tuned spmm (\d+)x(\d+) \((\d+) entries\) n=(\d+): (.*) ms \(-1: not a candidate\)"
                   r" -> (\S+)(?: \(tuning ([\d.]+) ms)?")
ROW = re.compile(r"^(\S+)\s+(fp32|fp64) N=(\d+)\s+kernel\s+([\d.naninf]+) ms")


def gmean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def load_csv(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["op"] == "spmm":
                rows[(r["matrix"], r["type"], int(r["n"]))] = r
    return rows


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: chooser_table.py TUNED.log TUNED.csv [STATIC.csv]")
    tuned_csv = load_csv(sys.argv[2])
    static_csv = load_csv(sys.argv[3]) if len(sys.argv) == 4 else {}
    pending = {}            # n -> (family times, winner, tuning ms)
    tuned = {}              # (matrix, type, n) -> the same
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            m = TUNED.search(line)
            if m:
                fams = {}
                for part in m.group(5).split(", "):
                    name, _, val = part.rpartition(" ")
                    fams[name] = fnum(val)
                pending[int(m.group(4))] = (fams, m.group(6), fnum(m.group(7)))
                continue
            m = ROW.match(line)
            if m:
                n = int(m.group(3))
                if n in pending:
                    tuned[(m.group(1), m.group(2), n)] = pending.pop(n)
                pending.clear()
    families = ["(winner)"]
    for fams, _, _ in tuned.values():
        for name, ms in fams.items():
            if ms > 0 and name not in families:
                families.append(name)

    print("%-16s %-4s %4s | %9s | %9s %-13s %6s | %9s %6s | %9s | %s" % (
        "matrix", "type", "n", "cusp_best", "chooser", "family", "x", "static", "x",
        "tuning_ms", "cuSPARSE best / family (chooser's timing)"))
    chooser_r = defaultdict(list)
    chooser_t = defaultdict(list)
    static_r = defaultdict(list)
    fam_r = defaultdict(lambda: defaultdict(list))
    tuned_rows = defaultdict(int)
    tuning = defaultdict(list)
    for key in sorted(tuned_csv, key=lambda k: (k[1], k[2], k[0])):
        r = tuned_csv[key]
        cb, ka = fnum(r["cusparse_ms"]), fnum(r["kernel_ms"])
        s = static_csv.get(key)
        ks = fnum(s["kernel_ms"]) if s else math.nan
        t = tuned.get(key)
        g = (key[1], key[2])
        chooser_r[g].append(cb / ka if ka > 0 else math.nan)
        if s:
            static_r[g].append(cb / ks if ks > 0 else math.nan)
        fam_txt, winner, tms = "", "(static)", math.nan
        if t:
            fams, winner, tms = t
            tuned_rows[g] += 1
            chooser_t[g].append(cb / ka if ka > 0 else math.nan)
            tuning[key[0]].append(tms)
            fam_txt = ", ".join("%s %.2f" % (name, cb / ms) for name, ms in fams.items() if ms > 0)
            for name, ms in fams.items():
                if ms > 0:
                    fam_r[g][name].append(cb / ms)
            best = min([ms for ms in fams.values() if ms > 0] or [math.nan])
            fam_r[g]["(winner)"].append(cb / best)
        print("%-16s %-4s %4d | %9.4f | %9.4f %-13s %6.2f | %9.4f %6.2f | %9.1f | %s" % (
            key[0][:16], key[1], key[2], cb, ka, winner[:13], cb / ka if ka > 0 else math.nan,
            ks, cb / ks if ks > 0 else math.nan, tms, fam_txt))

    print()
    print("geometric mean of cuSPARSE best / backend (> 1: the backend is faster)")
    print("%-4s %4s | %5s %7s %7s | %5s %7s  %s" % ("type", "n", "rows", "chooser", "static",
          "tuned", "chooser", "each family on the tuned rows (* = not on all of them)"))
    for g in sorted(chooser_r):
        parts = []
        for name in families:
            xs = fam_r[g].get(name, [])
            if xs:
                star = "" if len(xs) == tuned_rows[g] else "*"
                parts.append("%s %.2f%s" % (name, gmean(xs), star))
        print("%-4s %4d | %5d %7.3f %7.3f | %5d %7.3f  %s" % (g[0], g[1], len(chooser_r[g]),
              gmean(chooser_r[g]), gmean(static_r[g]) if static_r.get(g) else math.nan,
              tuned_rows[g], gmean(chooser_t[g]), ", ".join(parts)))
    print()
    print("tuning cost per matrix (wall ms of every tuned product on it, forms made included):")
    for name in sorted(tuning):
        xs = [x for x in tuning[name] if math.isfinite(x)]
        print("  %-16s %3d products, %9.1f ms in all, %8.1f ms the longest" % (
            name[:16], len(tuning[name]), sum(xs), max(xs) if xs else math.nan))


if __name__ == "__main__":
    main()
