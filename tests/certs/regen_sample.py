#!/usr/bin/env python3
"""tests/certs/regen_sample.py — regenerates a sample of the committed certificates with
`mxcert table -o` and compares what they claim: the configuration, placements and relation,
and the agree set (as a set of code pairs, not as a region list). The new certificate must
also pass `mxcert check`. Files of the sample that are not committed are skipped; when none
is, the test is skipped (exit 77).

Usage: regen_sample.py MXCERT TABLES_DIR [NAME.json...]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

MX, DIR = sys.argv[1], sys.argv[2]
SAMPLE = sys.argv[3:] or [
    "e2m1xe2m1_f32_rne_keep_k32_seq_pre-post_bitwise.json",   # a standard k = 32 table
    "e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json",  # an MLIR table
    "e2m1xe2m1_f32_rne_keep_k32_any_pre-post_bitwise.json",     # an any-order table
]


def pairs(regions):
    s = set()
    for r in regions:
        for a in range(r["xa"][0], r["xa"][1] + 1):
            lo, hi = max(r["xb"][0], r["e"][0] - a + 254), min(r["xb"][1], r["e"][1] - a + 254)
            s.update((a, b) for b in range(lo, hi + 1))
    return s


tmp = tempfile.mkdtemp(prefix="mxcert-regen-")
done, fails = 0, 0
for name in SAMPLE:
    path = os.path.join(DIR, name)
    if not os.path.exists(path):
        print("skip %s: not committed" % name)
        continue
    old = json.load(open(path))
    c = old["config"]
    new_path = os.path.join(tmp, name)
    argv = [MX, "table", "--a", c["a"], "--b", c["b"], "--acc", c["acc"], "--round", c["round"], "--subnormals",
            c["subnormals"], "--k", str(c["k"]), "--tree", c["tree"], "--lhs", old["lhs"], "--rhs", old["rhs"],
            "--relation", old["relation"], "-o", new_path]
    t0 = time.time()
    p = subprocess.run(argv, capture_output=True, text=True)
    t1 = time.time()
    if p.returncode != 0:
        print("FAIL %s: mxcert table exit %d: %s" % (name, p.returncode, p.stderr[:500]))
        fails += 1
        continue
    new = json.load(open(new_path))
    problems = []
    for key in ("config", "lhs", "rhs", "relation"):
        if new[key] != old[key]:
            problems.append("%s differs: %r vs committed %r" % (key, new[key], old[key]))
    a, b = pairs(new["agree"]), pairs(old["agree"])
    if a != b:
        problems.append("agree sets differ: %d pairs regenerated, %d committed, %d in one only" %
                        (len(a), len(b), len(a ^ b)))
    q = subprocess.run([MX, "check", new_path, "--quiet"], capture_output=True, text=True)
    if q.returncode != 0:
        problems.append("the regenerated certificate does not check: " + q.stderr[:300])
    done += 1
    if problems:
        fails += 1
        print("FAIL %s: %s" % (name, "; ".join(problems)))
    else:
        print("ok   %s: same config and agree set (%d pairs), table %.1f s, check passes" % (name, len(a), t1 - t0))
if done == 0:
    print("regen_sample: none of the sample is committed; skipped")
    sys.exit(77)
print("regen_sample: %d regenerated, %d failed" % (done, fails))
sys.exit(1 if fails else 0)
