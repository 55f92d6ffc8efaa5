#!/usr/bin/env python3
"""tests/certs/tamper.py — tamper resistance of `mxcert check` (docs/certificates.md).

Makes small certificates with `mxcert table`, mutates them the ways a bug or an attacker
would, and checks that `mxcert check` rejects every mutation with the right exit code (1: a
claim is false, 2: unreadable or schema-invalid), exactly one line on stderr that names the
failing claim, and never a crash (no signal, no "internal error"). The untouched fixtures must
pass (exit 0). With a second binary (the AddressSanitizer build, $MXCERT_ASAN_BIN) every case
runs under it too.

Usage: tamper.py path/to/mxcert [path/to/asan/mxcert] [--table FILE.md]
Prints one line per case; --table also writes the cases and outcomes as a Markdown table.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
MX = args[0]
ASAN = args[1] if len(args) > 1 and args[1] else os.environ.get("MXCERT_ASAN_BIN") or None
if ASAN and not os.access(ASAN, os.X_OK):
    print("note: MXCERT_ASAN_BIN=%s is not an executable; running without it" % ASAN)
    ASAN = None
TABLE = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
if TABLE in args:
    args.remove(TABLE)
TMP = tempfile.mkdtemp(prefix="mxcert-tamper-")
FAILS = []
ROWS = []


def run(binary, argv):
    p = subprocess.run([binary] + argv, capture_output=True, text=True, errors="replace", timeout=600)
    return p.returncode, p.stdout, p.stderr


def table(name, *opts):
    path = os.path.join(TMP, name + ".json")
    rc, out, err = run(MX, ["table", *opts, "-o", path])
    assert rc == 0, "mxcert table %s failed: %s" % (opts, err)
    return json.load(open(path))


def emit(*opts):
    rc, out, err = run(MX, ["emit-smt2", *opts])
    assert rc == 0, err
    return out


def sha256(text):
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()


def write(name, doc=None, raw=None):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        if raw is not None:
            f.write(raw if isinstance(raw, bytes) else raw.encode())
        else:
            f.write(json.dumps(doc, indent=1).encode())
    return path


def count(regions):
    s = set()
    for r in regions:
        for a in range(r["xa"][0], r["xa"][1] + 1):
            for b in range(r["xb"][0], r["xb"][1] + 1):
                if r["e"][0] <= a + b - 254 <= r["e"][1]:
                    s.add((a, b))
    return s


def case(name, path, want_rc, want_text, extra=()):
    """Runs check on path; expects want_rc and want_text on the one stderr line."""
    for binary in [MX] + ([ASAN] if ASAN else []):
        rc, out, err = run(binary, ["check", path, *extra])
        lines = [l for l in err.splitlines() if l.strip()]
        problems = []
        if rc != want_rc:
            problems.append("exit %d, expected %d" % (rc, want_rc))
        if rc < 0 or rc >= 128 or "internal error" in err or "AddressSanitizer" in err or "runtime error" in err:
            problems.append("crash")
        if want_rc != 0 and len(lines) != 1:
            problems.append("%d stderr lines" % len(lines))
        if want_text and want_text not in err:
            problems.append("stderr lacks %r" % want_text)
        tag = "" if binary == MX else " [asan]"
        msg = lines[0] if lines else ""
        if problems:
            FAILS.append(name + tag)
            print("FAIL %s%s: %s; stderr: %s" % (name, tag, ", ".join(problems), err[:600]))
        else:
            print("ok   %s%s -> %d: %s" % (name, tag, rc, msg[:220]))
        if binary == MX:
            ROWS.append((name, rc, msg))


# Fixtures: the public example (pre/post, e-only, embedded queries; the unrolled query, whose
# one proof per region the region cases below widen), dequant/post (depends on xa and xb),
# k = 4 pairwise (a tree to tamper with). The tables are proven by the induction's steps by
# default (`--proof auto`); ppi is one, for the step cases.
pp = table("pp2", "--a", "e2m1", "--b", "e2m1", "--k", "2", "--tree", "seq", "--lhs", "pre", "--rhs", "post",
           "--embed-queries", "--proof", "unrolled")
ppi = table("pp2i", "--a", "e2m1", "--b", "e2m1", "--k", "2", "--tree", "seq", "--lhs", "pre", "--rhs", "post")
case("untouched pp2i (induction steps)", write("pp2i.ok.json", ppi), 0, "")
d = copy.deepcopy(ppi)
i = next(i for i, p in enumerate(d["proofs"]) if p.get("step") == "root")
d["proofs"][i]["step"] = "leaf"
case("a fixed tree's root step relabelled leaf", write("ti1.json", d), 1, "")
d = copy.deepcopy(ppi)
d["proofs"][i]["invariant"]["unit"] = str(int(d["proofs"][i]["invariant"]["unit"]) + 1)
case("a fixed tree's step with another invariant unit", write("ti2.json", d), 1, "")
d = copy.deepcopy(ppi)
del d["proofs"][i]["invariant"]
case("a fixed tree's step without its invariant", write("ti3.json", d), 2, "'step' and 'invariant'")
dp = table("dp2", "--a", "e2m1", "--b", "e2m1", "--k", "2", "--tree", "seq", "--lhs", "dequant", "--rhs", "post")
pw = table("pw4", "--a", "e2m1", "--b", "e2m1", "--k", "4", "--tree", "pairwise", "--lhs", "pre", "--rhs", "post")
val = table("ppv", "--a", "e2m1", "--b", "e2m1", "--k", "2", "--tree", "seq", "--lhs", "pre", "--rhs", "post",
            "--relation", "value")
for n, d in [("pp2", pp), ("dp2", dp), ("pw4", pw), ("ppv", val)]:
    case("untouched " + n, write(n + ".ok.json", d), 0, "")
case("untouched pp2, --solver both", os.path.join(TMP, "pp2.ok.json"), 0, "", ["--solver", "both"])
case("untouched dp2, --solver cvc5", os.path.join(TMP, "dp2.ok.json"), 0, "", ["--solver", "cvc5"])
case("--solver none: proofs not re-proven", os.path.join(TMP, "pp2.ok.json"), 3, "not re-proven",
     ["--solver", "none"])

# --- claims (exit 1) -------------------------------------------------------------------------
E_HI = pp["agree"][0]["e"][1]  # 122

d = copy.deepcopy(pp)
d["agree"][0]["e"][1] += 1
case("widen agree region by one (agree_pairs stale)", write("t1.json", d), 2, "agree_pairs")

d["agree_pairs"] = len(count(d["agree"]))
case("widen agree region by one (agree_pairs updated)", write("t2.json", d), 1, "coverage: overlap")

# ... and the witness's refuted set narrowed so that coverage holds: the proofs do not cover it.
for w in d["witnesses"]:
    for r in w["refutes"]:
        if r["e"][0] <= E_HI + 1 <= r["e"][1]:
            if r["e"][0] == E_HI + 1:
                r["e"][0] += 1
            elif r["e"][1] == E_HI + 1:
                r["e"][1] -= 1
case("widen agree region, witnesses narrowed", write("t3.json", d), 1, "proof coverage")

# ... and the proof's region widened too: its stored query no longer matches.
d["proofs"][0]["region"]["e"][1] += 1
case("widen agree + proof region (old query)", write("t4.json", d), 1, "query does not match the configuration")

# ... and the query regenerated for the widened region (what a careful attacker would do):
# the second solver finds the counterexample.
q = emit("--a", "e2m1", "--b", "e2m1", "--k", "2", "--tree", "seq", "--lhs", "pre", "--rhs", "post", "--guard",
         "xa:0..254,xb:0..254,e:%d..%d" % (d["proofs"][0]["region"]["e"][0], E_HI + 1))
# (The widened query is no longer the constant false, and the attacker says so.)
d["proofs"][0].update(query=q, query_sha256=sha256(q), query_bytes=len(q.encode()), constant_false=False)
# The obligations counts of the widened query, as the checker's message tells them.
import re
rc, out, err = run(MX, ["check", write("t5a.json", d)])
m = re.search(r"the regenerated query has (\d+), (\d+), (\d+)", err)
if m:
    d["proofs"][0]["obligations"] = {"phases": int(m.group(1)), "facts": int(m.group(2)),
                                     "decisions": int(m.group(3))}
case("widen agree + proof + regenerated query", write("t5.json", d), 1, "answers sat")

d = copy.deepcopy(pp)
d["agree"][0]["e"] = [d["agree"][0]["e"][0] + 1, d["agree"][0]["e"][1] + 1]
d["agree_pairs"] = len(count(d["agree"]))
case("shift agree region by one", write("t6.json", d), 1, "coverage")

d = copy.deepcopy(pp)
d["agree"][0]["e"][1] -= 1
d["agree_pairs"] = len(count(d["agree"]))
case("narrow agree region by one (gap)", write("t7.json", d), 1, "gap")

d = copy.deepcopy(pp)
del d["witnesses"][-1]
case("drop a witness", write("t8.json", d), 1, "gap")

d = copy.deepcopy(pp)
d["witnesses"][0]["a"] = [0] * len(d["witnesses"][0]["a"])
d["witnesses"][0]["a_values"] = ["0"] * len(d["witnesses"][0]["a"])
case("alter a witness value (all-zero a)", write("t9.json", d), 1, "does not refute")

d = copy.deepcopy(dp)
w = d["witnesses"][0]
w["a"][0] = 1 if w["a"][0] != 1 else 2
w["a_values"] = None
del w["a_values"]
case("alter a witness code (dequant/post)", write("t10.json", d), 1, "witnesses")

d = copy.deepcopy(pp)
d["witnesses"][0]["a_values"][0] = "6"
case("alter a witness's printed value", write("t11.json", d), 1, "a_values")

d = copy.deepcopy(pw)
d["config"]["tree"] = "(((0 1) 2) 3)"
case("change the tree in the config", write("t12.json", d), 1, "")

d = copy.deepcopy(pp)
d["lhs"] = "dequant"
case("change the placement (lhs pre -> dequant)", write("t13.json", d), 1, "")

d = copy.deepcopy(pp)
d["relation"] = "value"
case("change the relation", write("t14.json", d), 1, "")

d = copy.deepcopy(pp)
d["config"]["round"] = "rtz"
case("change the rounding", write("t15.json", d), 1, "")

d = copy.deepcopy(pp)
d["config"]["acc"] = "f16"
case("change the accumulator", write("t16.json", d), 1, "")

d = copy.deepcopy(pp)
src = dp["proofs"][0]
d["proofs"][0].update(query_sha256=src["query_sha256"], query_bytes=src["query_bytes"])
del d["proofs"][0]["query"]
case("swap the proof's query (another table's)", write("t17.json", d), 1, "query does not match the configuration")

d = copy.deepcopy(pp)
d["proofs"][0]["query"] = d["proofs"][0]["query"].replace("(check-sat)", "(assert false)\n(check-sat)")
case("embedded query text altered (hash kept)", write("t18.json", d), 1, "embedded query text differs")

d = copy.deepcopy(pp)
d["proofs"][0]["query_file"] = "missing.smt2"
case("query_file that does not exist", write("t19.json", d), 1, "cannot be read")

d = copy.deepcopy(pp)
d["bound"]["params"]["U"] += 1
case("bound parameter changed", write("t20.json", d), 1, "bound")

d = copy.deepcopy(pp)
d["bound"]["agree"][0]["e"][1] += 1
case("bound's predicted set changed", write("t21.json", d), 1, "bound")

d = copy.deepcopy(pp)
d["region_proofs"] = [[]]
case("region_proofs emptied", write("t22.json", d), 1, "region_proofs")

d = copy.deepcopy(pp)
r = d["agree"][0]
d["agree"] = [dict(r, e=[r["e"][0], 0]), dict(r, e=[0, r["e"][1]])]
d["region_proofs"] = [[0], [0]]
case("overlapping agree regions", write("t23.json", d), 1, "overlap")

d = copy.deepcopy(pp)
d["proofs"] = []
d["region_proofs"] = [[]]
case("drop the proof", write("t24.json", d), 1, "proof coverage")

d = copy.deepcopy(dp)
d["witnesses"][0]["refutes"] = d["witnesses"][0]["refutes"] + d["agree"]
case("witness claims pairs inside the agree set", write("t25.json", d), 1, "overlap")

# constant_false: the writer records whether the encoder's analysis decided a proof's region
# (the query is the constant false); the checker recomputes it.
# Since format version 2 no committed proof is one (the solver proves the analysis' facts).
assert pp["proofs"][0]["constant_false"] is False, "the public example's query has facts for the solver"
d = copy.deepcopy(pp)
d["proofs"][0]["constant_false"] = True
case("constant_false flipped (claiming an analysis-decided proof)", write("t26.json", d), 1, "constant_false")
d = copy.deepcopy(pp)
d["proofs"][0]["constant_false"] = "yes"
case("constant_false not a Boolean", write("t27.json", d), 2, "constant_false")

# --- unreadable or schema-invalid (exit 2) ---------------------------------------------------
text = open(os.path.join(TMP, "pp2.ok.json")).read()
case("truncated file (half)", write("s1.json", raw=text[: len(text) // 2]), 2, "not valid JSON")
case("truncated file (last byte)", write("s2.json", raw=text.rstrip()[:-1]), 2, "not valid JSON")
case("empty file", write("s3.json", raw=""), 2, "not valid JSON")
case("non-JSON bytes", write("s4.json", raw=bytes(range(256))), 2, "not valid JSON")
case("invalid UTF-8 in a string", write("s5.json", raw=text.replace('"mxcert"', '"mx\xffcert"').encode("latin-1")), 2,
     "not valid JSON")
case("huge number 1e400", write("s6.json", raw=text.replace('"format_version": 2', '"format_version": 1e400')), 2,
     "")
case("huge integer agree_pairs", write("s7.json", raw=text.replace('"agree_pairs": 50469',
                                                                       '"agree_pairs": 99999999999999999999')), 2,
     "agree_pairs")
d = copy.deepcopy(pp)
d["agree"][0]["e"][0] = -123456789
case("huge negative e", write("s8.json", raw=json.dumps(d).replace("-123456789", "-99999999999999999999")), 2,
     "region.e")
case("NaN literal", write("s9.json", raw=text.replace('"seconds": ', '"seconds": NaN, "x": ', 1)), 2, "")
d = copy.deepcopy(pp)
d["extra"] = 1
case("unknown key", write("s10.json", d), 2, "unknown field 'extra'")
case("duplicate key", write("s11.json", raw=text.replace('"engine": "solver"', '"engine": "solver", "engine": "solver"')),
     2, "duplicate key")
d = copy.deepcopy(pp)
d["config"]["k"] = "2"
case("wrong type (k as a string)", write("s12.json", d), 2, "k")
case("deep nesting (100000 brackets)", write("s13.json", raw=text.replace('"stats": {', '"stats": {"x": ' + "[" * 100000 + "]" * 100000 + ', ')), 2, "nesting")
d = copy.deepcopy(pp)
d["config"]["tree"] = "(" * 100000 + "0 1" + ")" * 100000
case("tree nested 100000 deep", write("s14.json", d), 2, "config.tree")
d = copy.deepcopy(pp)
d["agree"][0]["e"] = [122, -147]
case("region with lo > hi", write("s15.json", d), 2, "lo > hi")
d = copy.deepcopy(pp)
d["agree"][0]["xa"] = [0, 255]
case("code 255 in a region", write("s16.json", d), 2, "out of range")
d = copy.deepcopy(pp)
d["witnesses"][0]["a"].append(0)
case("witness with k+1 codes", write("s17.json", d), 2, "k = 2")
d = copy.deepcopy(pp)
d["witnesses"][0]["a"][0] = 16
case("witness code out of range", write("s18.json", d), 2, "code out of range")
d = copy.deepcopy(pp)
d["proofs"][0]["solver"] = "yices"
case("unknown solver", write("s19.json", d), 2, "solver")
d = copy.deepcopy(pp)
d["proofs"][0]["query_sha256"] = "XYZ"
case("malformed SHA-256", write("s20.json", d), 2, "query_sha256")
d = copy.deepcopy(pp)
d["region_proofs"] = [[7]]
case("region_proofs index out of range", write("s21.json", d), 2, "region_proofs")
d = copy.deepcopy(pp)
d["proofs"][0]["query_file"] = "../../etc/passwd"
case("query_file escaping the directory", write("s22.json", d), 2, "query_file")
d = copy.deepcopy(pp)
d["format_version"] = 3
case("unsupported format_version", write("s23.json", d), 2, "format_version")
# A version 1 certificate (its proofs trusted the encoder's analysis): exit 2, not a failed
# check, with the command that regenerates it.
d = copy.deepcopy(pp)
d["format_version"] = 1
for p in d["proofs"]:
    p.pop("obligations", None)
case("format version 1", write("s23b.json", d), 2,
     "format version 1: regenerate with `mxcert table --a e2m1 --b e2m1 --acc f32 --round rne --subnormals keep --k 2 --tree seq --lhs pre --rhs post --relation bitwise -o FILE`")
# Version 2 requires the obligations record on a QF_LIA proof.
d = copy.deepcopy(pp)
d["proofs"][0].pop("obligations", None)
case("a QF_LIA proof without obligations", write("s23c.json", d), 2, "without 'obligations'")
d = copy.deepcopy(pp)
d["config"]["tree"] = "(0 1 2)"
case("tree not matching k", write("s24.json", d), 2, "config.tree")
case("file does not exist", os.path.join(TMP, "nope.json"), 2, "cannot read")
case("a directory", TMP, 2, "cannot read")
# Files that are not regular must be refused without blocking (a FIFO has no writer here).
fifo = os.path.join(TMP, "cert.fifo")
os.mkfifo(fifo)
case("a FIFO as the certificate", fifo, 2, "not a regular file")
d = copy.deepcopy(pp)
os.mkfifo(os.path.join(TMP, "q.fifo"))
d["proofs"][0]["query_file"] = "q.fifo"
case("query_file is a FIFO", write("t28.json", d), 1, "cannot be read")
os.symlink("/dev/zero", os.path.join(TMP, "q.zero"))
d["proofs"][0]["query_file"] = "q.zero"
case("query_file links to /dev/zero", write("t29.json", d), 1, "cannot be read")
case("JSON but not an object", write("s25.json", raw="[1, 2, 3]"), 2, "")

if TABLE:
    with open(TABLE, "w") as f:
        f.write("| case | exit | message (stderr) |\n|---|---|---|\n")
        for n, rc, m in ROWS:
            m = m.replace(TMP + "/", "").replace("|", "\\|")
            if len(m) > 200:
                m = m[:200] + "..."
            f.write("| %s | %d | %s |\n" % (n, rc, m))
print("tamper.py: %d cases, %d failed" % (len(ROWS), len(FAILS)))
sys.exit(1 if FAILS else 0)
