#!/usr/bin/env python3
"""widen_agree.py IN OUT — a hand-widened copy of a certificate (for verify.mlir).

Raises the upper e bound of the first agree region by one and recomputes agree_pairs, so the
file still reads as a schema-valid certificate (every other field untouched) but claims code
pairs that its witnesses refute and its proofs do not cover: `mxcert check` rejects it (exit 1).
"""
import json
import sys

cert = json.load(open(sys.argv[1]))
region = cert["agree"][0]
region["e"][1] += 1
cert["agree_pairs"] = sum(
    1
    for r in cert["agree"]
    for xa in range(r["xa"][0], r["xa"][1] + 1)
    for xb in range(r["xb"][0], r["xb"][1] + 1)
    if r["e"][0] <= xa + xb - 254 <= r["e"][1])
with open(sys.argv[2], "w") as f:
    json.dump(cert, f, indent=1)
