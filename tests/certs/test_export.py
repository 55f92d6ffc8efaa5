#!/usr/bin/env python3
"""tests/certs/test_export.py — `mxcert export --as cpp|json|mlir`.

For a few certificates (made with `mxcert table`, plus the committed tables given on the
command line): the C++ header compiles (-std=c++17 -Wall -Werror) and NAME_safe(xa, xb)
agrees with the certificate's agree set on all 256 x 256 code pairs (255 always safe), also in
a constant expression; the compact JSON reads back through `mxcert export` (the reader the
MLIR pass uses) with the same agree set and configuration; the MLIR attribute parses with
mlir-opt when one is given and carries the guard text, the regions and the configuration.
Bad usage exits 2 with one line on stderr.

Usage: test_export.py MXCERT CXX [MLIR_OPT|-] [TABLE.json...]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MX, CXX = sys.argv[1], sys.argv[2]
MLIR_OPT = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] not in ("-", "") else None
EXTRA = sys.argv[4:]
TMP = tempfile.mkdtemp(prefix="mxcert-export-")
FAILS = []
CHECKS = [0]


def fail(msg):
    print("FAIL: " + msg)
    FAILS.append(msg)


def ok():
    CHECKS[0] += 1


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def pairs(regions):
    s = set()
    for r in regions:
        for a in range(r["xa"][0], r["xa"][1] + 1):
            lo = max(r["xb"][0], r["e"][0] - a + 254)
            hi = min(r["xb"][1], r["e"][1] - a + 254)
            s.update((a, b) for b in range(lo, hi + 1))
    return s


def parse_guard_text(t):
    """The guard text syntax of models/guard.h ("none" = empty)."""
    regs = []
    if t == "none":
        return regs
    for part in t.split("|"):
        r = {"xa": [0, 254], "xb": [0, 254], "e": [-254, 254]}
        for c in part.split(","):
            k, v = c.split(":")
            lo, _, hi = v.partition("..")
            r[k] = [int(lo), int(hi or lo)]
        regs.append(r)
    return regs


def check_one(path, label):
    cert = json.load(open(path))
    want = pairs(cert["agree"])
    # C++ header.
    hdr = os.path.join(TMP, label + ".h")
    p = run([MX, "export", path, "--as", "cpp", "--name", "g_" + label, "-o", hdr])
    if p.returncode != 0:
        return fail("%s: export --as cpp: %s" % (label, p.stderr))
    main = os.path.join(TMP, label + "_main.cpp")
    with open(main, "w") as f:
        f.write('#include "%s"\n#include <cstdio>\n' % hdr)
        # A constant-expression use: the function is constexpr.
        f.write("static_assert(g_%s_safe(255, 255));\n" % label)
        f.write("int main() {\n  for (int a = 0; a < 256; ++a) {\n    for (int b = 0; b < 256; ++b)"
                " std::putchar(g_%s_safe(std::uint8_t(a), std::uint8_t(b)) ? '1' : '0');\n"
                "    std::putchar('\\n');\n  }\n  std::printf(\"%%ld\\n\", g_%s_agree_pairs);\n}\n" % (label, label))
    exe = os.path.join(TMP, label + "_main")
    p = run([CXX, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", main, "-o", exe])
    if p.returncode != 0:
        return fail("%s: the header does not compile: %s" % (label, p.stderr[:800]))
    out = run([exe]).stdout.split("\n")
    bad = [(a, b) for a in range(256) for b in range(256)
           if (out[a][b] == "1") != (a == 255 or b == 255 or (a, b) in want)]
    if bad:
        fail("%s: %s_safe differs from the agree set at %d pairs, e.g. %s" % (label, label, len(bad), bad[:3]))
    elif int(out[256]) != len(want):
        fail("%s: agree_pairs %s != %d" % (label, out[256], len(want)))
    else:
        ok()
    # Compact JSON: reads back (through the guard-table reader) with the same claims.
    cj = os.path.join(TMP, label + ".compact.json")
    p = run([MX, "export", path, "--as", "json", "-o", cj])
    if p.returncode != 0:
        return fail("%s: export --as json: %s" % (label, p.stderr))
    c = json.load(open(cj))
    if (c["format"] != "mxcert-guard-table" or c["config"] != cert["config"] or pairs(c["agree"]) != want
            or (c["lhs"], c["rhs"], c["relation"]) != (cert["lhs"], cert["rhs"], cert["relation"])):
        fail("%s: compact JSON does not carry the certificate's claims" % label)
    else:
        ok()
    p = run([MX, "export", cj, "--as", "json"])
    if p.returncode != 0 or json.loads(p.stdout) != c:
        fail("%s: the compact table does not read back identically: %s" % (label, p.stderr))
    else:
        ok()
    # MLIR attribute.
    mf = os.path.join(TMP, label + ".mlir")
    p = run([MX, "export", path, "--as", "mlir", "--name", "g_" + label, "-o", mf])
    if p.returncode != 0:
        return fail("%s: export --as mlir: %s" % (label, p.stderr))
    text = open(mf).read()
    m = re.search(r'mxcert\.guard = "([^"]*)"', text)
    r = re.search(r"mxcert\.regions = array<i64(?:: ([-0-9, ]*))?>", text)
    if not m or not r:
        fail("%s: the MLIR attribute lacks mxcert.guard or mxcert.regions" % label)
    else:
        nums = [int(x) for x in r.group(1).split(",")] if r.group(1) else []
        regs = [{"xa": nums[i:i + 2], "xb": nums[i + 2:i + 4], "e": nums[i + 4:i + 6]} for i in range(0, len(nums), 6)]
        cfg_ok = all('mxcert.%s = "%s"' % (k, cert["config"][k]) in text for k in ("a", "b", "acc", "round", "tree"))
        if pairs(parse_guard_text(m.group(1))) != want or pairs(regs) != want or not cfg_ok:
            fail("%s: the MLIR attribute's guard, regions or config differ from the certificate" % label)
        else:
            ok()
    if MLIR_OPT:
        p = run([MLIR_OPT, mf])
        if p.returncode != 0 or "mxcert.guard_table" not in p.stdout:
            fail("%s: %s does not parse the exported attribute: %s" % (label, MLIR_OPT, p.stderr[:500]))
        else:
            ok()


def table(label, *opts):
    path = os.path.join(TMP, label + ".json")
    p = run([MX, "table", *opts, "-o", path])
    if p.returncode != 0:
        fail("mxcert table %s: %s" % (opts, p.stderr))
        return None
    return path


fixtures = [
    ("pp2", ["--a", "e2m1", "--b", "e2m1", "--k", "2", "--lhs", "pre", "--rhs", "post"]),
    ("ppv", ["--a", "e2m1", "--b", "e2m1", "--k", "2", "--lhs", "pre", "--rhs", "post", "--relation", "value"]),
    ("dp2", ["--a", "e2m1", "--b", "e2m1", "--k", "2", "--lhs", "dequant", "--rhs", "post"]),
    ("p2p", ["--a", "e2m1", "--b", "e2m1", "--k", "2", "--lhs", "post2", "--rhs", "post"]),
    ("exh", ["--a", "e2m1", "--b", "e2m1", "--k", "2", "--lhs", "pre", "--rhs", "post", "--engine", "exhaustive"]),
]
for label, opts in fixtures:
    path = table(label, *opts)
    if path:
        check_one(path, label)
for i, path in enumerate(EXTRA):
    check_one(path, "t%d" % i)

# An empty agree set (a hand-made compact table) still gives a compiling header.
empty = os.path.join(TMP, "empty.json")
json.dump({"format": "mxcert-guard-table", "format_version": 1,
           "config": {"a": "e2m1", "b": "e2m1", "acc": "f32", "round": "rne", "subnormals": "keep", "k": 1,
                      "tree": "0"},
           "lhs": "pre", "rhs": "post", "relation": "bitwise", "agree": []}, open(empty, "w"))
check_one(empty, "empty")

# Bad usage: exit 2, one line on stderr.
for argv in (["export", empty], ["export", empty, "--as", "rust"], ["export", empty, "--as", "cpp", "--name", "1x"],
             ["export", os.path.join(TMP, "missing.json"), "--as", "cpp"], ["export", "--as", "cpp"]):
    p = run([MX] + argv)
    if p.returncode != 2 or len(p.stderr.strip().splitlines()) != 1:
        fail("%s: exit %d, stderr %r" % (argv, p.returncode, p.stderr))
    else:
        ok()

print("test_export.py: %d checks passed, %d failed" % (CHECKS[0], len(FAILS)))
sys.exit(1 if FAILS else 0)
