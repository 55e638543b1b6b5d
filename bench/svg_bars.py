# bench/svg_bars.py: horizontal bar charts of speedups (log scale, 1x marked)
# written as SVG by hand, for the plot scripts of bench/ (no plotting library
# on the machines that run them).  panel () draws one chart of per-matrix
# bars under a title; legend () the series' colours; svg () the document.
import math


def panel(out, top, left, width, title, mats, series, speed, lo=0.25, hi=8.0, rowh=34):
    """Bars for mats (rows) x series ((label, colour) each; speed (m, j) is
    the speedup of series j on matrix m, NaN: none), log scale lo..hi, the
    chart's top at y = top; returns the y below it."""
    llo, lhi = math.log(lo), math.log(hi)

    def x_of(s):
        s = min(max(s, lo), hi)
        return left + (math.log(s) - llo) / (lhi - llo) * (width - left - 20)
    if title:
        out.append('<text x="%d" y="%d" font-size="13">%s</text>' % (left, top - 22, title))
    ticks, t = [], lo
    while t <= hi * 1.0001:
        ticks.append(t)
        t *= 2
    for s in ticks:
        x = x_of(s)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>' % (
            x, top - 5, x, top + rowh * len(mats), '#000' if s == 1 else '#ddd'))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%gx</text>' % (
            x, top + rowh * len(mats) + 14, s))
    for i, m in enumerate(mats):
        y0 = top + i * rowh
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 6, y0 + rowh / 2 + 4, m))
        for j, (label, col) in enumerate(series):
            s = speed(m, j)
            if math.isnan(s):
                continue
            y = y0 + 3 + j * 7
            x1, x2 = x_of(1.0), x_of(s)
            out.append('<rect x="%.1f" y="%d" width="%.1f" height="6" fill="%s"/>' % (
                min(x1, x2), y, abs(x2 - x1) + 0.5, col))
    return top + rowh * len(mats)


def legend(out, y, left, series, step=180):
    for j, (label, col) in enumerate(series):
        x = left + j * step
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>' % (
            x, y, col, x + 14, y + 9, label))


def svg(path, width, height, body):
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (width, height)]
    out += body
    out.append('</svg>')
    open(path, 'w').write('\n'.join(out) + '\n')
