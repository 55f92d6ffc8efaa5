#!/usr/bin/env python3
"""tests/scripts/test_plot_bench.py — scripts/plot-bench: what it plots and how it fails.

  data:   (needs no matplotlib) `--data` on a small hand-made results file and certificate
          directory gives exactly the expected points (medians, min-max spreads, timeouts on
          the cap), ratio labels, table bars, certificate grid and caption; on the committed
          docs/bench-results.json every measurement in the file is plotted once, with its own
          seconds; bad input (missing, corrupt or foreign files, unknown or incomplete options)
          gets exit 2 and one line on stderr; --help exits 0.
  render: (skipped, exit 77, without Debian's python3-matplotlib) the SVG of the hand-made
          results is the same on two runs, carries no date, has the expected labels, and no
          label overlaps another or sticks out (no warning); the PNG has the documented size;
          the committed results draw without a warning as well.

Usage: test_plot_bench.py data|render"""
import json
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "plot-bench")
FAILS = []


def check(cond, what):
    """Records a failure (what) unless cond holds."""
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(*args):
    """Runs scripts/plot-bench with args; returns (exit status, stdout, stderr)."""
    p = subprocess.run([SCRIPT] + list(args), capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def meas(seconds, verdict, runs=None):
    """A measurement as scripts/bench records it."""
    m = {"verdict": verdict, "seconds": seconds}
    if runs is not None:
        m["runs"] = runs
    return m


# A results file in scripts/bench's layout, with round numbers whose plotted values are known.
RESULTS = {
    "versions": {"cvc5": "This is cvc5 version 1.0.3", "z3": "Z3 version 4.8.12 - 64 bit"},
    "cap_s": 60.0, "reps": 3, "nproc": 2, "cpu": "Test CPU", "date": "2030-01-02",
    "queries": [
        {"k": 1, "query": "in-guard e=0", "expect": "unsat",
         "lia": {"cvc5": meas(0.02, "unsat", [0.03, 0.01, 0.02]),
                 "z3": meas(0.05, "unsat", [0.05, 0.05, 0.06])},
         "fp": {"cvc5": meas(3.0, "unsat"), "z3": meas(0.5, "unsat")}},
        {"k": 1, "query": "boundary e=-148", "expect": "sat",
         "lia": {"cvc5": meas(0.015, "unsat", [0.015, 0.014, 0.016])},
         "fp": {"cvc5": meas(2.0, "unsat")},
         "guided": {"cex": {"cvc5": meas(0.01, "unsat", [0.01, 0.012, 0.009])},
                    "lia_fixed": {}, "fp_fixed": {}}},
        {"k": 1, "query": "interval e:-254..254", "expect": "unsat",
         "lia": {"cvc5": meas(0.016, "unsat", [0.016, 0.016, 0.017])}, "fp": {}},
        {"k": 2, "query": "in-guard e=0", "expect": "unsat",
         "lia": {"cvc5": meas(0.01, "unsat", [0.01, 0.01, 0.01])},
         "fp": {"cvc5": meas(60.5, "timeout"), "z3": meas(4.0, "unsat")}},
        {"k": 2, "query": "boundary e=-148", "expect": "sat",
         "lia": {"cvc5": meas(60.2, "timeout", [60.2])},
         "fp": {"cvc5": meas(2.0, "sat")},
         "guided": {"cex": {"cvc5": meas(0.008, "sat", [0.008, 0.007, 0.009])},
                    "lia_fixed": {"cvc5": meas(0.008, "sat", [0.008, 0.008, 0.008])},
                    "fp_fixed": {"cvc5": meas(0.064, "sat")}}},
    ],
    "tables": [
        {"table": "MXFP4 k=32 pairwise bitwise", "rc": 0, "seconds": 0.08, "runs": [0.08, 0.07, 0.09]},
        {"table": "e4m3 k=32 seq value", "rc": 0, "seconds": 4.25, "runs": [4.5, 4.25, 4.0]},
    ],
}


def certificate(a, k, tree, lhs, relation, seconds):
    """(file name, content) of a minimal certificate as scripts/gen-tables names and writes it."""
    name = "%sx%s_f32_rne_keep_k%d_%s_%s-post_%s.json" % (a, a, k, tree, lhs, relation)
    return name, {"config": {"a": a, "b": a, "k": k, "acc": "f32", "round": "rne"},
                  "lhs": lhs, "rhs": "post", "relation": relation, "stats": {"seconds": seconds}}


CERTS = [certificate("e2m1", 32, "pairwise", "pre", "bitwise", 0.07),
         certificate("e4m3", 32, "seq", "dequant", "value", 3.5),
         certificate("e2m1", 1, "seq", "dequant", "bitwise", 0.02)]


def write_inputs(tmp):
    """Writes the hand-made results file and certificate directory; returns their paths."""
    os.makedirs(tmp, exist_ok=True)
    res = os.path.join(tmp, "results.json")
    with open(res, "w") as f:
        json.dump(RESULTS, f)
    certs = os.path.join(tmp, "certs")
    os.makedirs(certs)
    for name, body in CERTS:
        with open(os.path.join(certs, name), "w") as f:
            json.dump(body, f)
    return res, certs


def point(k, seconds, verdict, runs, cap=60.0):
    """The plotted point expected for one measurement (runs: the recorded repeats or None)."""
    rs = runs or [seconds]
    timeout = verdict == "timeout"
    return {"k": k, "seconds": seconds, "lo": min(rs), "hi": max(rs), "runs": len(rs),
            "verdict": verdict, "timeout": timeout, "y": cap if timeout else seconds}


def test_fixture_data(tmp):
    """--data on the hand-made inputs gives exactly the expected numbers and labels."""
    res, certs = write_inputs(tmp)
    rc, out, err = run("--results", res, "--tables", certs, "--data")
    check(rc == 0 and err == "", "--data: exit %d, stderr %r" % (rc, err))
    d = json.loads(out)
    check(d["cap_s"] == 60.0 and d["ks"] == [1, 2], "cap/ks: %r %r" % (d["cap_s"], d["ks"]))
    proofs = {s["label"]: s["points"] for s in d["proofs"]["series"]}
    check(list(proofs) == ["QF_LIA cvc5, one e", "QF_LIA z3, one e", "QF_FP cvc5, one e",
                           "QF_FP z3, one e", "QF_LIA cvc5, whole interval",
                           "QF_LIA z3, whole interval"], "proof series: %r" % list(proofs))
    want = {
        "QF_LIA cvc5, one e": [point(1, 0.02, "unsat", [0.03, 0.01, 0.02]),
                               point(2, 0.01, "unsat", [0.01, 0.01, 0.01])],
        "QF_LIA z3, one e": [point(1, 0.05, "unsat", [0.05, 0.05, 0.06])],
        "QF_FP cvc5, one e": [point(1, 3.0, "unsat", None), point(2, 60.5, "timeout", None)],
        "QF_FP z3, one e": [point(1, 0.5, "unsat", None), point(2, 4.0, "unsat", None)],
        "QF_LIA cvc5, whole interval": [point(1, 0.016, "unsat", [0.016, 0.016, 0.017])],
        "QF_LIA z3, whole interval": [],
    }
    for label, pts in want.items():
        check(proofs.get(label) == pts, "%s: %r, expected %r" % (label, proofs.get(label), pts))
    check(d["proofs"]["ratios"] == {"1": ["FP/LIA", "cvc5 150x", "z3 10x"],
                                    "2": ["FP/LIA", "cvc5 >6050x"]},
          "proof ratios: %r" % d["proofs"]["ratios"])
    bound = {s["label"]: s["points"] for s in d["boundary"]["series"]}
    check(bound["QF_LIA cvc5, whole query"] == [point(1, 0.015, "unsat", [0.015, 0.014, 0.016]),
                                                point(2, 60.2, "timeout", [60.2])],
          "boundary LIA cvc5: %r" % bound["QF_LIA cvc5, whole query"])
    check(bound["mxcert cex --solver cvc5"] == [point(1, 0.01, "unsat", [0.01, 0.012, 0.009]),
                                                point(2, 0.008, "sat", [0.008, 0.007, 0.009])],
          "cex cvc5: %r" % bound["mxcert cex --solver cvc5"])
    check(bound["mxcert cex --solver z3"] == [], "cex z3: %r" % bound["mxcert cex --solver z3"])
    check(d["boundary"]["ratios"] == {"1": ["FP/cex", "cvc5 200x"], "2": ["FP/cex", "cvc5 250x"]},
          "boundary ratios: %r" % d["boundary"]["ratios"])
    check(d["boundary"]["cex_verdicts"] == {"1": "unsat", "2": "sat"},
          "cex verdicts: %r" % d["boundary"]["cex_verdicts"])
    fixed = {s["label"]: s["points"] for s in d["fixed"]["series"]}
    check(fixed["QF_LIA cvc5, inputs fixed"] == [point(2, 0.008, "sat", [0.008] * 3)] and
          fixed["QF_FP cvc5, inputs fixed"] == [point(2, 0.064, "sat", None)],
          "fixed-input points: %r" % fixed)
    check(d["fixed"]["ratios"] == {"2": ["FP/LIA", "cvc5 8x"]}, "fixed ratios: %r" % d["fixed"]["ratios"])
    tabs = [(t["label"], t["seconds"], t["lo"], t["hi"], t["runs"], t["verdict"]) for t in d["tables"]]
    check(tabs == [("MXFP4 k=32 pairwise bitwise", 0.08, 0.07, 0.09, 3, "done"),
                   ("e4m3 k=32 seq value", 4.25, 4.0, 4.5, 3, "done")], "tables: %r" % tabs)
    c = d["certificates"]
    grid = [[None] * 8 for _ in range(5)]
    grid[0][0] = 0.07  # e2m1, pairwise pre/post bitwise
    grid[3][7] = 3.5   # e4m3, seq dequant/post value
    check(c["seconds"] == grid, "certificate grid: %r" % c["seconds"])
    check(c["formats"] == ["e2m1", "e2m3", "e3m2", "e4m3", "e5m2"] and
          c["configs"][0] == "pairwise pre/post bitwise" and c["configs"][7] == "seq dequant/post value",
          "grid axes: %r %r" % (c["formats"], c["configs"]))
    check(c["count"] == 3 and abs(c["total_s"] - 3.59) < 1e-12, "count/total: %r %r" % (c["count"], c["total_s"]))
    check(c["targets"] == {"e2m1": {"target_s": 5.0, "max_s": 0.07}, "e4m3": {"target_s": 60.0, "max_s": 3.5}},
          "targets: %r" % c["targets"])
    check(d["caption"] == {"nproc": 2, "cpu": "Test CPU", "reps": 3, "date": "run 2030-01-02",
                           "results": res, "solvers": "cvc5 version 1.0.3, Z3 version 4.8.12 - 64 bit"},
          "caption: %r" % d["caption"])
    rc, out, _ = run("--results", res, "--tables", "none", "--data")
    check(rc == 0 and json.loads(out)["certificates"] is None, "--tables none: %d" % rc)


def test_committed_data():
    """Every measurement of docs/bench-results.json is plotted exactly once, with its seconds
    (and at the cap when it timed out), and the whole-table bars are the file's medians."""
    rc, out, err = run("--data")
    check(rc == 0 and err == "", "--data on the committed results: exit %d, %r" % (rc, err))
    d = json.loads(out)
    res = json.load(open(os.path.join(ROOT, "docs", "bench-results.json")))
    plotted = {}
    for panel in ("proofs", "boundary", "fixed"):
        for s in d[panel]["series"]:
            for p in s["points"]:
                plotted[(panel, s["style"], p["k"])] = p
    expected = {}
    for q in res["queries"]:
        kind = q["query"].split()[0]
        parts = {"in-guard": [("proofs", "lia", q["lia"]), ("proofs", "fp", q["fp"])],
                 "interval": [("proofs", "iv", q["lia"])],
                 "boundary": [("boundary", "lia", q["lia"]), ("boundary", "fp", q["fp"])]}[kind]
        g = q.get("guided", {})
        parts += [("boundary", "cex", g.get("cex", {})), ("fixed", "lia", g.get("lia_fixed", {})),
                  ("fixed", "fp", g.get("fp_fixed", {}))]
        for panel, enc, ms in parts:
            for solver, m in ms.items():
                expected[(panel, enc + "-" + solver, q["k"])] = m
    check(set(plotted) == set(expected), "plotted %d measurements, the file has %d: %r" % (
        len(plotted), len(expected), sorted(set(plotted) ^ set(expected))))
    for key, m in expected.items():
        p = plotted.get(key)
        if not p:
            continue
        runs = m.get("runs") or [m["seconds"]]
        y = res["cap_s"] if m["verdict"] == "timeout" else m["seconds"]
        check((p["seconds"], p["lo"], p["hi"], p["verdict"], p["y"]) ==
              (m["seconds"], min(runs), max(runs), m["verdict"], y), "%r: %r vs %r" % (key, p, m))
    check([(t["label"], t["seconds"]) for t in d["tables"]] ==
          [(t["table"], t["seconds"]) for t in res["tables"]], "table bars differ from the file")


def test_errors(tmp):
    """Bad input: exit 2, one line on stderr naming the problem; --help: exit 0."""
    res, certs = write_inputs(tmp)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"cap_s": 60, "queries": [')
    foreign = os.path.join(tmp, "foreign.json")
    with open(foreign, "w") as f:
        json.dump({"agree": []}, f)
    cases = [
        (["--results", os.path.join(tmp, "missing.json"), "--data"], "cannot read results file"),
        (["--results", bad, "--data"], "is not valid JSON"),
        (["--results", foreign, "--data"], "is not a scripts/bench results file"),
        (["--results", res, "--tables", os.path.join(tmp, "nowhere"), "--data"],
         "no certified tables directory"),
        (["--svgg", "x.svg"], "unknown option '--svgg' (did you mean --svg?)"),
        (["--frobnicate"], "unknown option '--frobnicate' (try --help)"),
        (["--results"], "--results needs a value"),
        (["extra"], "unexpected argument 'extra'"),
        (["--results", res, "--svg", "none"], "nothing to write"),
    ]
    for args, msg in cases:
        rc, out, err = run(*args)
        lines = err.splitlines()
        check(rc == 2 and len(lines) == 1 and lines[0].startswith("plot-bench: error: ") and msg in lines[0],
              "%s: exit %d, stderr %r (expected one line with %r)" % (" ".join(args), rc, err, msg))
    rc, out, err = run("--help")
    check(rc == 0 and out.startswith("usage: scripts/plot-bench [--results FILE]") and err == "",
          "--help: exit %d, %r" % (rc, out[:60]))


def png_size(path):
    """(width, height) of a PNG from its IHDR chunk."""
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", "%s is not a PNG" % path)
    return struct.unpack(">II", head[16:24])


def test_render(tmp):
    """The SVG is deterministic, dateless, labelled as expected and free of overlaps."""
    res, certs = write_inputs(tmp)
    svgs = []
    for i in range(2):
        svg, png = os.path.join(tmp, "b%d.svg" % i), os.path.join(tmp, "b%d.png" % i)
        rc, out, err = run("--results", res, "--tables", certs, "--svg", svg, "--png", png)
        check(rc == 0 and err == "", "render %d: exit %d, stderr %r" % (i, rc, err))
        svgs.append(open(svg, "rb").read())
    check(svgs[0] == svgs[1], "two renders of the same data differ")
    text = svgs[0].decode()
    check("<dc:date>" not in text, "the SVG carries a date")
    for label in ("(a) Proofs (unsat): QF_LIA vs QF_FP", "(b) Boundary e = -148: whole query vs cex",
                  "(c) The counterexample checked: inputs fixed",
                  "(d) Whole tables: mxcert table, k = 32, cvc5",
                  "timeout: no answer within the 60 s cap (red-edged markers)",
                  "cvc5 150x", "cvc5 &gt;6050x", "cvc5 250x", "cvc5 8x", "(no cex)",
                  "80 ms", "4.25 s", "70 ms", "3.50 s", "QF_FP z3, one e",
                  "slowest e2m1 table 70 ms (target &lt; 5 s); slowest e4m3 table 3.50 s (target &lt; 60 s)",
                  "Machine: 2 cores, Test CPU, shared with other jobs; run 2030-01-02."):
        check(("<!-- %s" % label) in text or (" %s -->" % label) in text or label in text,
              "the SVG lacks the label %r" % label)
    check("QF_LIA z3, whole interval" not in text, "an unmeasured series is in the legend")
    check(png_size(os.path.join(tmp, "b0.png")) == (1100, 1750), "PNG size %r" % (png_size(os.path.join(tmp, "b0.png")),))
    png = os.path.join(tmp, "small.png")
    rc, _, err = run("--results", res, "--tables", "none", "--svg", "none", "--png", png)
    check(rc == 0 and err == "" and png_size(png) == (1100, 1250), "--tables none: %d %r" % (rc, err))
    svg = os.path.join(tmp, "committed.svg")
    rc, _, err = run("--svg", svg)
    check(rc == 0 and err == "", "committed results: exit %d, stderr %r" % (rc, err))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ("data", "render"):
        print("usage: test_plot_bench.py data|render", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "data":
            test_fixture_data(os.path.join(tmp, "a"))
            test_committed_data()
            test_errors(os.path.join(tmp, "b"))
        else:
            probe = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True)
            if probe.returncode != 0:
                print("skipped: Debian's python3-matplotlib is not installed")
                return 77
            test_render(tmp)
    print("%s: %d failure(s)" % (mode, len(FAILS)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
