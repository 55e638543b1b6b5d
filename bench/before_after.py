#!/usr/bin/env python3
# bench/before_after.py: compare two bench/spmm_bench CSV files of one GPU run
#
#   python3 bench/before_after.py BEFORE.csv AFTER.csv
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
            rows[(r["op"], r["matrix"], r["type"], int(r["n"]))] = r
    return rows


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
