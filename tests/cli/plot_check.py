#!/usr/bin/env python3
"""tests/cli/plot_check.py — independent checks of `mxcert plot` output (standard library only).

The SVG is parsed with xml.etree: each panel's cells are the rectangles (in cell coordinates)
of its data-class groups; the PNG is decoded with zlib (all five PNG filters). Expected sets
come from the certificate's JSON regions, computed here; expected classes of disagreement come
from `mxcert eval --json` on the witnesses' codes, classified here. Usage:

  plot_check.py cells SVG PANEL CERT            agree cells = the regions; 255 cells; legend counts
  plot_check.py classes SVG PANEL CERT MXCERT   every excluded cell's class (pre/post: exact, all cells)
  plot_check.py corners SVG PANEL CERT MXCERT   the class at the corners of each witness's regions
  plot_check.py png SVG PNG [XA,XB,#rrggbb ...] PNG size and pixels against the SVG; exact cells
  plot_check.py compare SVG CERT1 CERT2         left/right/difference panels: the set algebra
  plot_check.py only SVG PANEL CLASS            every excluded finite cell has CLASS
  plot_check.py text SVG STRING...              each STRING is the text of some <text> element
  plot_check.py labels SVG PANEL CERT           the e labels are exactly the regions' e bounds

Each exits 0 on success and raises (exit 1, a traceback naming the mismatch) otherwise."""
import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
FINITE = range(255)
# The colours and ink of src/plot/agree_plot.cpp (docs/plots.md lists them).
OVERLAY = {(0x00, 0x00, 0x00), (0x1a, 0x1a, 0x1a), (0x4d, 0x4d, 0x4d), (0xff, 0xff, 0xff)}
EMIN = {"f32": -126, "bf16": -126, "f16": -14, "f64": -1022}


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def in_region(r, xa, xb):
    e = xa + xb - 254
    return r["xa"][0] <= xa <= r["xa"][1] and r["xb"][0] <= xb <= r["xb"][1] and r["e"][0] <= e <= r["e"][1]


def agree_set(cert):
    """The finite pairs covered by the certificate's agree regions."""
    return {(xa, xb) for xa in FINITE for xb in FINITE if any(in_region(r, xa, xb) for r in cert["agree"])}


def first_claims(cert, agree):
    """For each excluded finite pair, the index of the first witness that claims it."""
    owner = {}
    for i, w in enumerate(cert.get("witnesses", [])):
        for r in w["refutes"]:
            for xa in range(r["xa"][0], r["xa"][1] + 1):
                for xb in range(r["xb"][0], r["xb"][1] + 1):
                    if (xa, xb) not in agree and (xa, xb) not in owner and r["e"][0] <= xa + xb - 254 <= r["e"][1]:
                        owner[(xa, xb)] = i
    return owner


def svg_root(path):
    return ET.parse(path).getroot()


def panel_group(root, panel):
    for g in root.iter(NS + "g"):
        if g.get("data-panel") == panel:
            return g
    raise AssertionError("no panel %r in the SVG" % panel)


def svg_cells(path, panel):
    """{(xa, xb): class} of a panel; every cell of 0..255 x 0..255 exactly once."""
    cells = {}
    for g in panel_group(svg_root(path), panel).iter(NS + "g"):
        cls = g.get("data-class")
        if cls is None:
            continue
        for r in g.iter(NS + "rect"):
            x, y, w, h = (int(r.get(k)) for k in ("x", "y", "width", "height"))
            for xa in range(x, x + w):
                for xb in range(y, y + h):
                    assert (xa, xb) not in cells, "cell (%d, %d) drawn twice" % (xa, xb)
                    cells[(xa, xb)] = cls
    missing = [(xa, xb) for xa in range(256) for xb in range(256) if (xa, xb) not in cells]
    assert not missing, "%d cells not drawn, e.g. %s" % (len(missing), missing[:3])
    assert len(cells) == 65536, "cells outside 0..255: %d" % (len(cells) - 65536)
    return cells


def grid_origin(path, panel):
    """(x, y, cell) of a panel's grid from its transform translate(X Y+256c) scale(c -c)."""
    t = panel_group(svg_root(path), panel).get("transform")
    m = re.fullmatch(r"translate\((\d+) (\d+)\) scale\((\d+) -(\d+)\)", t)
    assert m, t
    c = int(m.group(3))
    return int(m.group(1)), int(m.group(2)) - 256 * c, c


def classify(lhs, rhs, related, acc):
    """The class of a disagreement from two printed results (docs/plots.md)."""
    if related:
        return "unconfirmed"
    if "nan" in (lhs, rhs):
        return "nan"
    if any(v in ("inf", "-inf") for v in (lhs, rhs)):
        return "overflow"
    fl, fr = float(lhs), float(rhs)
    if fl == 0 and fr == 0:
        return "signed-zero"
    tiny = 2.0 ** EMIN[acc]
    return "underflow" if abs(fl) < tiny or abs(fr) < tiny else "rounding"


def evaluate(mx, cert, w, xa, xb):
    """[(xa, xb, class)] of `mxcert eval --json` for witness w at codes xa, xb (N or LO..HI)."""
    c = cert["config"]
    args = [mx, "eval", "--a", c["a"], "--b", c["b"], "--acc", c["acc"], "--round", c["round"],
            "--subnormals", c["subnormals"], "--k", str(c["k"]), "--tree", c["tree"],
            "--xa", str(xa), "--xb", str(xb), "--relation", cert["relation"],
            "--a-vals", " ".join("0x%x" % v for v in w["a"]), "--b-vals", " ".join("0x%x" % v for v in w["b"]),
            "--placements", cert["lhs"] + "," + cert["rhs"], "--json"]
    out = json.loads(subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True).stdout)
    res = []
    for r in out["results"]:
        v = r["values"]
        related = r["related"][cert["lhs"] + "~" + cert["rhs"]]
        res.append((r["xa"], r["xb"], classify(v[cert["lhs"]]["value"], v[cert["rhs"]]["value"], related, c["acc"])))
    return res


def check_cells(svg, panel, cert_path):
    cert = load(cert_path)
    cells = svg_cells(svg, panel)
    agree = agree_set(cert)
    drawn = {p for p, c in cells.items() if c == "agree"}
    assert drawn == agree, "agree cells differ: %d drawn only, %d in the regions only" % (
        len(drawn - agree), len(agree - drawn))
    for (xa, xb), c in cells.items():
        if xa == 255 or xb == 255:
            assert c == "nan255", (xa, xb, c)
        else:
            assert c != "nan255", (xa, xb, c)
    allowed = {"agree", "overflow", "nan", "signed-zero", "underflow", "rounding", "no-witness", "unconfirmed"}
    assert set(cells.values()) <= allowed | {"nan255"}, set(cells.values())
    if cert.get("witnesses"):
        owner = first_claims(cert, agree)
        for p, c in cells.items():
            if p[0] < 255 and p[1] < 255 and p not in agree:
                assert (c == "no-witness") == (p not in owner), (p, c)
    # The legend counts the cells of each class drawn (the agree set's size for "agree").
    counts = {}
    for c in cells.values():
        counts[c] = counts.get(c, 0) + 1
    legend = {re.sub(r" \(\d+ cells?\)$", "", t): int(re.search(r"\((\d+) cells?\)$", t).group(1))
              for t in all_text(svg) if re.search(r"\(\d+ cells?\)$", t)}
    assert legend["agree: in the agree set of the file"] == len(agree), legend
    assert sorted(legend.values()) == sorted(counts.values()), (legend, counts)


def check_classes(svg, panel, cert_path, mx):
    """Pre/post placements depend on e alone: two eval calls per witness cover every e."""
    cert = load(cert_path)
    assert {cert["lhs"], cert["rhs"]} <= {"pre", "post"}, "classes: pre/post tables only"
    cells = svg_cells(svg, panel)
    agree = agree_set(cert)
    owner = first_claims(cert, agree)
    by_e = {}
    for i, w in enumerate(cert["witnesses"]):
        for xa, xb, c in evaluate(mx, cert, w, "0..254", 0) + evaluate(mx, cert, w, "0..254", 254):
            by_e[(i, xa + xb - 254)] = c
    checked = 0
    for p, i in owner.items():
        want = by_e[(i, p[0] + p[1] - 254)]
        assert cells[p] == want, "cell %s: drawn %s, witness %d gives %s" % (p, cells[p], i, want)
        checked += 1
    assert checked == 65025 - len(agree), checked


def check_corners(svg, panel, cert_path, mx):
    cert = load(cert_path)
    cells = svg_cells(svg, panel)
    agree = agree_set(cert)
    owner = first_claims(cert, agree)
    points = set()
    for r in (r for w in cert["witnesses"] for r in w["refutes"]):
        for xa in (r["xa"][0], r["xa"][1]):
            for xb in (r["xb"][0], r["xb"][1]):
                # The nearest pair of the region to each corner of its box.
                e = min(max(xa + xb - 254, r["e"][0]), r["e"][1])
                xb2 = min(max(e + 254 - xa, r["xb"][0]), r["xb"][1])
                if in_region(r, xa, xb2):
                    points.add((xa, xb2))
    checked = 0
    for xa, xb in sorted(points):
        if (xa, xb) not in owner:
            continue
        [(_, _, want)] = evaluate(mx, cert, cert["witnesses"][owner[(xa, xb)]], xa, xb)
        assert cells[(xa, xb)] == want, "cell (%d, %d): drawn %s, eval gives %s" % (xa, xb, cells[(xa, xb)], want)
        checked += 1
    assert checked >= len(cert["witnesses"]), checked


def png_pixels(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, "bad CRC in chunk %r" % kind
        if kind == b"IHDR":
            width, height, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", body)
            assert (depth, ctype, comp, filt, inter) == (8, 2, 0, 0, 0), "not 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
        if kind == b"IEND":
            break
    assert pos == len(data), "bytes after IEND"
    raw = zlib.decompress(idat)
    stride = width * 3
    assert len(raw) == (stride + 1) * height, "IDAT size"
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else:
                assert f == 0, "filter %d" % f
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, 3)])
        prev = line
    return width, height, rows


def hexrgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))


def check_png(svg, png, exact):
    root = svg_root(svg)
    width, height, rows = png_pixels(png)
    assert (width, height) == (int(root.get("width")), int(root.get("height"))), (width, height)
    panels = [g.get("data-panel") for g in root.iter(NS + "g") if g.get("data-panel")]
    assert panels, "no panels"
    for panel in panels:
        gx, gy, c = grid_origin(svg, panel)
        colours = {g.get("data-class"): hexrgb(g.get("fill"))
                   for g in panel_group(root, panel).iter(NS + "g") if g.get("data-class")}
        pure = 0
        for (xa, xb), cls in svg_cells(svg, panel).items():
            px = [rows[gy + c * (255 - xb) + v][gx + c * xa + u] for u in range(c) for v in range(c)]
            assert all(p == colours[cls] or p in OVERLAY for p in px), \
                "%s cell (%d, %d) is %s: pixels %s" % (panel, xa, xb, cls, px)
            pure += all(p == colours[cls] for p in px)
        assert pure >= 0.98 * 65536, "%s: only %d cells show their colour alone" % (panel, pure)
    # Exact cells of the first panel: every pixel has the given colour.
    gx, gy, c = grid_origin(svg, panels[0])
    for spec in exact:
        xa, xb, colour = spec.split(",")
        xa, xb = int(xa), int(xb)
        px = {rows[gy + c * (255 - xb) + v][gx + c * xa + u] for u in range(c) for v in range(c)}
        assert px == {hexrgb(colour)}, "cell (%d, %d): %s, expected %s" % (xa, xb, px, colour)


def check_compare(svg, cert1, cert2):
    a, b = agree_set(load(cert1)), agree_set(load(cert2))
    for panel, s in (("left", a), ("right", b)):
        assert {p for p, c in svg_cells(svg, panel).items() if c == "agree"} == s, panel
    d = svg_cells(svg, "difference")
    want = {"both-agree": a & b, "only-left": a - b, "only-right": b - a}
    for cls, s in want.items():
        got = {p for p, c in d.items() if c == cls}
        assert got == s, "%s: %d drawn, %d expected" % (cls, len(got), len(s))
    finite = {(xa, xb) for xa in FINITE for xb in FINITE}
    assert {p for p, c in d.items() if c == "both-excluded"} == finite - a - b
    assert {p for p, c in d.items() if c == "nan255"} == {(x, y) for x in range(256) for y in range(256)} - finite
    texts = all_text(svg)
    for label, n in (("agree only in the left file", len(a - b)), ("agree only in the right file", len(b - a))):
        assert "%s (%d %s)" % (label, n, "cell" if n == 1 else "cells") in texts, (label, n)


def check_only(svg, panel, cls):
    bad = {c for (xa, xb), c in svg_cells(svg, panel).items() if xa < 255 and xb < 255 and c not in ("agree", cls)}
    assert not bad, bad


def all_text(svg):
    return ["".join(t.itertext()) for t in svg_root(svg).iter(NS + "text")]


def check_text(svg, strings):
    texts = all_text(svg)
    for s in strings:
        assert s in texts, "no text %r (have e.g. %s)" % (s, texts[:6])


def check_labels(svg, panel, cert_path):
    """The e labels of a single-panel SVG are the e bounds of the (nonempty) agree regions."""
    cert = load(cert_path)
    want = set()
    for r in cert["agree"]:
        es = [xa + xb - 254 for xa in range(r["xa"][0], r["xa"][1] + 1) for xb in range(r["xb"][0], r["xb"][1] + 1)
              if in_region(r, xa, xb)]
        if es and min(es) > -254:
            want.add("e>=%d" % min(es))
        if es and max(es) < 254:
            want.add("e<=%d" % max(es))
    got = {t for t in all_text(svg) if t.startswith("e>=") or t.startswith("e<=")}
    assert got == want, (got, want)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"cells": lambda: check_cells(*args),
     "classes": lambda: check_classes(*args),
     "corners": lambda: check_corners(*args),
     "png": lambda: check_png(args[0], args[1], args[2:]),
     "compare": lambda: check_compare(*args),
     "only": lambda: check_only(*args),
     "text": lambda: check_text(args[0], args[1:]),
     "labels": lambda: check_labels(*args)}[cmd]()


if __name__ == "__main__":
    main()
