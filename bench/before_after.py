#!/usr/bin/env python3
# bench/before_after.py: compare two bench/spmm_bench CSV files of one GPU run
# (or two bench/kernels_bench CSV files: told apart by their columns)
#
#   python3 bench/before_after.py BEFORE.csv AFTER.csv
#
# kernels_bench files: rows matched on (matrix, n, semiring, kernel); prints
# each kernel's time before and after and the geometric mean of after /
# before per semiring and N (1.0: unchanged; < 1: faster after).
#
# Rows are matched on (op, matrix, type, n).  Prints, per row: the backend's
# product time (kernel_ms) before and after, cuSPARSE's best algorithm in each
# run, the speedup over cuSPARSE after, and the warm / first call times of the
# end-to-end rows; then the geometric mean of (cuSPARSE / backend) per op,
# type and N, before and after.  A row whose check is not "ok" is flagged.
import csv
import math
import sys
from collections import defaultdict


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if "semiring" in r:     # kernels_bench
                rows[(r["matrix"], int(r["n"]), r["semiring"], r["kernel"])] = r
            else:
                rows[(r["op"], r["matrix"], r["type"], int(r["n"]))] = r
    return rows


def kernels(before, after):
    keys = sorted(set(before) & set(after), key=lambda k: (k[2], k[1], k[0], k[3]))
    ratio = defaultdict(list)
    print("%-16s %4s %-10s %-16s | %9s %9s %6s %s" % (
        "matrix", "n", "semiring", "kernel", "ms_bef", "ms_aft", "aft/bef", "check"))
    for k in keys:
        b, a = before[k], after[k]
        mb, ma = num(b, "ms"), num(a, "ms")
        flag = "" if (a["check"], b["check"]) == ("ok", "ok") else "CHECK %s/%s" % (b["check"], a["check"])
        if mb > 0 and ma > 0:
            ratio[(k[2], k[1])].append(ma / mb)
        print("%-16s %4d %-10s %-16s | %9.4f %9.4f %6.3f %s" % (
            k[0][:16], k[1], k[2][:10], k[3][:16], mb, ma, ma / mb if mb > 0 else math.nan, flag))
    print()
    print("geometric mean of after / before kernel time (1.0: unchanged):")
    print("%-10s %4s | %7s %5s" % ("semiring", "n", "aft/bef", "rows"))
    for key in sorted(ratio):
        print("%-10s %4d | %7.3f %5d" % (key[0][:10], key[1], gmean(ratio[key]), len(ratio[key])))
    only = (set(before) ^ set(after))
    if only:
        print("%d rows in one file only (kernels added or removed)" % len(only))


def num(r, key):
    try:
        v = float(r.get(key) or "nan")
    except ValueError:
        return math.nan
    return v


def gmean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: before_after.py BEFORE.csv AFTER.csv")
    before, after = load(sys.argv[1]), load(sys.argv[2])
    if before and len(next(iter(before))) == 4 and isinstance(next(iter(before))[1], int):
        return kernels(before, after)
    keys = sorted(set(before) & set(after), key=lambda k: (k[0], k[2], k[1], k[3]))
    ratio = defaultdict(lambda: ([], []))
    print("%-6s %-16s %-4s %4s | %9s %9s %9s %6s | %9s %9s %8s %8s %s" % (
        "op", "matrix", "type", "n", "krn_bef", "krn_aft", "cusp_aft", "x_cusp",
        "warm_bef", "warm_aft", "1st_bef", "1st_aft", "check"))
    for k in keys:
        b, a = before[k], after[k]
        kb, ka = num(b, "kernel_ms"), num(a, "kernel_ms")
        cb, ca = num(b, "cusparse_ms"), num(a, "cusparse_ms")
        flag = "" if (a["check"], b["check"]) == ("ok", "ok") else "CHECK %s/%s" % (b["check"], a["check"])
        if math.isfinite(ka) and math.isfinite(ca) and ka > 0:
            ratio[(k[0], k[2], k[3])][1].append(ca / ka)
        if math.isfinite(kb) and math.isfinite(cb) and kb > 0:
            ratio[(k[0], k[2], k[3])][0].append(cb / kb)
        print("%-6s %-16s %-4s %4d | %9.4f %9.4f %9.4f %6.2f | %9.3f %9.3f %8.2f %8.2f %s" % (
            k[0][:6], k[1][:16], k[2], k[3], kb, ka, ca, ca / ka if ka > 0 else math.nan,
            num(b, "call_warm_ms"), num(a, "call_warm_ms"),
            num(b, "call_first_ms"), num(a, "call_first_ms"), flag))
    print()
    print("geometric mean of cuSPARSE best / backend product (kernel level):")
    print("%-6s %-4s %4s | %7s %7s %5s" % ("op", "type", "n", "before", "after", "rows"))
    for key in sorted(ratio):
        rb, ra = ratio[key]
        print("%-6s %-4s %4d | %7.3f %7.3f %5d" % (key[0][:6], key[1], key[2], gmean(rb), gmean(ra), len(ra)))


if __name__ == "__main__":
    main()
