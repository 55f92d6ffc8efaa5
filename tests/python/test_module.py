#!/usr/bin/env python3
"""tests/python/test_module.py — the Python module `import mxcert` against the `mxcert` command.

Every result is compared exactly with the JSON the command prints for the same input (times,
the only thing that differs between two runs, are masked): eval on several configurations,
exhaustive and solver tables, reading every committed certificate, check (holds, unknown,
rejected), guard lookups on every scale-code pair, and every kind of bad input raising the
package's exception with the command's message. Also progress callbacks, interrupts, and the
examples of docs/python.md and of the docstrings (doctest).

Usage: PYTHONPATH=BUILD/python test_module.py MXCERT_BINARY SOURCE_DIR (ctest python_module)."""
import copy
import doctest
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import unittest

MX = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
TABLES = os.path.join(SRC, "certs", "tables")
K2_TABLE = os.path.join(TABLES, "e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json")
K32_TABLE = os.path.join(TABLES, "e2m1xe2m1_f32_rne_keep_k32_pairwise_pre-post_bitwise.json")
DEQUANT_TABLE = os.path.join(TABLES, "e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_value.json")

import mxcert  # noqa: E402 (after the arguments: PYTHONPATH names the build tree)


def cli(*args):
    """Runs the mxcert command: (exit code, stdout, stderr)."""
    r = subprocess.run([MX] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


def load(path):
    """The JSON of a file."""
    with open(path) as f:
        return json.load(f)


def save(path, text):
    """Writes `text` (a str, or JSON for anything else) to `path`."""
    with open(path, "w") as f:
        f.write(text if isinstance(text, str) else json.dumps(text))


def cli_json(*args, rc=0):
    """The JSON the command prints for ARGS (which must exit with `rc`)."""
    code, out, err = cli(*args)
    assert code == rc, "mxcert %s: exit %d, expected %d: %s" % (" ".join(map(str, args)), code, rc, err)
    return json.loads(out)


def untimed(doc):
    """`doc` with every measured time masked: "...seconds" fields and "N.NNN s" in texts."""
    if isinstance(doc, dict):
        return {k: ("T" if k.endswith("seconds") else untimed(v)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [untimed(v) for v in doc]
    if isinstance(doc, str):
        return re.sub(r"\d+(\.\d+)?(e-?\d+)? s\b", "T s", doc)
    return doc


def pairs_of(regions):
    """The set of (xa, xb) pairs of a list of JSON regions."""
    out = set()
    for r in regions:
        for xa in range(r["xa"][0], r["xa"][1] + 1):
            lo = max(r["xb"][0], r["e"][0] + 254 - xa)
            hi = min(r["xb"][1], r["e"][1] + 254 - xa)
            out.update((xa, xb) for xb in range(lo, hi + 1))
    return out


class Eval(unittest.TestCase):
    """mxcert.eval == mxcert eval --json."""

    # (keyword arguments, the same input as command-line arguments)
    CASES = [
        (dict(a="e2m1", b="e2m1", acc="f32", k=4, tree="pairwise", xa=120, xb=3,
              a_vals=[6, -0.5, 1, 0], b_vals=[1, 1, "-0", "0x7"], placements=["pre", "post", "dequant", "post2"]),
         ["--a", "e2m1", "--b", "e2m1", "--acc", "f32", "--k", "4", "--tree", "pairwise", "--xa", "120",
          "--xb", "3", "--a-vals", "6 -0.5 1 0", "--b-vals", "1 1 -0 0x7", "--placements", "pre,post,dequant,post2"]),
        # MLIR and PyTorch names, code ranges, "all", a string of values, the value relation.
        (dict(a="f8E4M3FN", b="float8_e5m2", k=2, xa=(250, 254), xb="all", a_vals="448 -0.001953125",
              b_vals=["inf", -57344.0], relation="value"),
         ["--a", "f8E4M3FN", "--b", "float8_e5m2", "--k", "2", "--xa", "250..254", "--xb", "all",
          "--a-vals", "448 -0.001953125", "--b-vals", "inf -57344", "--relation", "value"]),
        # Another accumulator, rounding and subnormal mode, an S-expression tree, hex scale codes.
        (dict(format="mxfp6", acc="bf16", round="rtz", subnormals="ftz", k=4, tree="((0 2) (1 3))",
              xa="0x7f", xb="0x60..0x70", a_vals=[7.5, -0.0, 0.125, 3], b_vals=["-7.5", 1, 2, "0x3f"],
              placements="post2,dequant"),
         ["--format", "mxfp6", "--acc", "bf16", "--round", "rtz", "--subnormals", "ftz", "--k", "4",
          "--tree", "((0 2) (1 3))", "--xa", "0x7f", "--xb", "0x60..0x70", "--a-vals", "7.5 -0 0.125 3",
          "--b-vals", "-7.5 1 2 0x3f", "--placements", "post2,dequant"]),
        # NaN scale code, f16 and f64 accumulators, fused tree.
        (dict(a="e3m2", k=3, acc="f16", tree="fused", xa=255, xb=(0, 3), a_vals=[28, 28, 28], b_vals=[28, 28, -28]),
         ["--a", "e3m2", "--k", "3", "--acc", "f16", "--tree", "fused", "--xa", "255", "--xb", "0..3",
          "--a-vals", "28 28 28", "--b-vals", "28 28 -28"]),
        (dict(format="mxfp8", k=1, acc="f64", xa="all", xb=127, a_vals=["nan"], b_vals=[1]),
         ["--format", "mxfp8", "--k", "1", "--acc", "f64", "--xa", "all", "--xb", "127", "--a-vals", "nan",
          "--b-vals", "1"]),
    ]

    def test_same_as_cli(self):
        for kwargs, args in self.CASES:
            with self.subTest(args=" ".join(args)):
                got = mxcert.eval(**kwargs)
                self.assertEqual(got, cli_json("eval", *args, "--json"))
                self.assertEqual(list(got), ["a", "b", "config", "relation", "results", "schema", "schema_version"])
                self.assertEqual((got["schema"], got["schema_version"]), ("mxcert-eval", 1))

    def test_certificate_config_fits(self):
        cert = load(K2_TABLE)
        w = cert["witnesses"][0]
        got = mxcert.eval(**cert["config"], xa=127, xb=127, a_vals=w["a_values"], b_vals=w["b_values"])
        self.assertEqual(got["config"], cert["config"])
        self.assertEqual(got["a"], w["a_values"])


class Table(unittest.TestCase):
    """mxcert.table == mxcert table --json (up to the measured times)."""

    def test_exhaustive_e2m1_k2(self):
        got = mxcert.table(a="e2m1", k=2, engine="exhaustive")
        want = cli_json("table", "--a", "e2m1", "--k", "2", "--engine", "exhaustive", "--json")
        self.assertEqual(untimed(got), untimed(want))
        self.assertEqual(got["agree_pairs"], want["agree_pairs"])
        self.assertEqual(sorted(got["stats"]), sorted(want["stats"]))

    def test_exhaustive_options(self):
        cases = [
            (dict(format="mxfp4", k=2, lhs="dequant", rhs="post", relation="value"),
             ["--format", "mxfp4", "--k", "2", "--lhs", "dequant", "--rhs", "post", "--relation", "value"]),
            (dict(a="e2m1", k=2, relation="value", no_collapse=True), ["--a", "e2m1", "--k", "2", "--relation", "value",
                                                                       "--no-collapse"]),
            (dict(a="e2m1", k=3, tree="fused", acc="bf16", round="rtz", subnormals="ftz"),
             ["--a", "e2m1", "--k", "3", "--tree", "fused", "--acc", "bf16", "--round", "rtz", "--subnormals", "ftz"]),
        ]
        for kwargs, args in cases:
            with self.subTest(args=" ".join(args)):
                got = mxcert.table(engine="exhaustive", **kwargs)
                want = cli_json("table", "--engine", "exhaustive", "--json", *args)
                self.assertEqual(untimed(got), untimed(want))

    def test_solver_matches_cli_and_committed(self):
        got = mxcert.table(format="mxfp4", k=2, lhs="dequant", rhs="post")
        want = cli_json("table", "--format", "mxfp4", "--k", "2", "--lhs", "dequant", "--rhs", "post", "--json")
        self.assertEqual(untimed(got), untimed(want))
        committed = load(K2_TABLE)
        self.assertEqual(got["agree"], committed["agree"])
        self.assertEqual(got["agree_pairs"], committed["agree_pairs"])
        # What the module computed, its own checker confirms.
        self.assertEqual(mxcert.check(got)["verdict"], "HOLDS")

    def test_progress(self):
        calls = []
        cert = mxcert.table(a="e2m1", k=2, engine="exhaustive", progress=lambda d, t: calls.append((d, t)))
        groups = cert["stats"]["groups"]
        self.assertEqual([d for d, _ in calls], list(range(len(calls))))  # 0, 1, 2, ... in order
        self.assertEqual({t for _, t in calls}, {groups})
        self.assertEqual(len(calls), groups)

    def test_progress_exception_stops_and_is_raised(self):
        class Stop(Exception):
            pass

        def stop(done, total):
            if done == 10:
                raise Stop("at 10")
        with self.assertRaises(Stop):
            mxcert.table(a="e2m1", k=2, engine="exhaustive", progress=stop)
        # Nothing is left behind: the next table is complete.
        self.assertEqual(mxcert.table(a="e2m1", k=2, engine="exhaustive")["agree_pairs"], 50469)

    def test_ctrl_c(self):
        before = signal.getsignal(signal.SIGINT)

        calls = []

        def interrupt(done, total):
            calls.append(done)
            if len(calls) == 2:
                os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C: our handler, then the budget stops
        with self.assertRaises(KeyboardInterrupt):
            mxcert.table(a="e2m1", k=2, engine="exhaustive", progress=interrupt)
        self.assertEqual(len(calls), 2)  # the next group saw the interrupt
        calls.clear()
        with self.assertRaises(KeyboardInterrupt):  # a solver table with many steps
            mxcert.table(format="mxfp8", k=32, lhs="dequant", rhs="post", relation="value", progress=interrupt)
        self.assertEqual(len(calls), 2)
        self.assertIs(signal.getsignal(signal.SIGINT), before)
        self.assertEqual(mxcert.table(a="e2m1", k=2, engine="exhaustive")["agree_pairs"], 50469)


class Certificates(unittest.TestCase):
    """read_certificate: every committed certificate reads back as its own JSON."""

    def test_every_committed_table(self):
        files = sorted(pathlib.Path(TABLES).glob("*.json"))
        self.assertGreater(len(files), 40)
        for f in files:
            with self.subTest(file=f.name):
                data = load(f)
                self.assertEqual(mxcert.read_certificate(f), data)
                self.assertEqual(mxcert.read_certificate(str(f)), data)
                self.assertEqual(mxcert.read_certificate(data), data)


class Check(unittest.TestCase):
    """mxcert.check == mxcert check --json (up to the measured times)."""

    def test_holds(self):
        for solver, rc in ((None, 0), ("cvc5", 0), ("both", 0), ("none", 3)):
            with self.subTest(solver=solver):
                opt = ["--solver", solver] if solver else []
                got = mxcert.check(K2_TABLE, solver=solver)
                want = cli_json("check", K2_TABLE, "--json", *opt, rc=rc)
                self.assertEqual(untimed(got), untimed(want))
                self.assertEqual(got["verdict"], "HOLDS" if rc == 0 else "UNKNOWN")

    def test_k32_table(self):
        got = mxcert.check(K32_TABLE, solver="z3")
        want = cli_json("check", K32_TABLE, "--solver", "z3", "--json")
        self.assertEqual(untimed(got), untimed(want))
        self.assertEqual(got["verdict"], "HOLDS")

    def test_dict_and_relative_path(self):
        by_path = mxcert.check(K2_TABLE)
        by_dict = mxcert.check(load(K2_TABLE))
        self.assertIsNone(by_dict["file"])
        self.assertEqual(by_path["file"], K2_TABLE)
        by_dict["file"] = K2_TABLE
        self.assertEqual(untimed(by_dict), untimed(by_path))

    def test_rejected(self):
        cert = load(K2_TABLE)
        bad = copy.deepcopy(cert)
        bad["witnesses"][0]["a"] = [0] * len(bad["witnesses"][0]["a"])      # +0 refutes nothing
        bad["witnesses"][0]["a_values"] = ["0"] * len(bad["witnesses"][0]["a"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.json")
            save(path, bad)
            got = mxcert.check(path)
            want = cli_json("check", path, "--json", rc=1)
        self.assertEqual(untimed(got), untimed(want))
        self.assertEqual(got["verdict"], "REJECTED")
        self.assertIn("FALSE", [c["status"] for c in got["claims"]])


class Guards(unittest.TestCase):
    """GuardTable lookups agree with the certificate's agree set on every (xa, xb)."""

    def lookups(self, table, cert):
        agree = pairs_of(cert["agree"])
        refuted = set().union(*(pairs_of(w["refutes"]) for w in cert["witnesses"]))
        self.assertEqual(len(agree) + len(refuted), 255 * 255)
        self.assertFalse(agree & refuted)
        for xa in range(256):
            for xb in range(256):
                expect = (xa, xb) in agree
                if table.agrees(xa, xb) != expect or ((xa, xb) in table) != expect:
                    self.fail("(%d, %d): agrees %s, the certificate says %s" % (xa, xb, table.agrees(xa, xb), expect))
        self.assertEqual(table.agree_pairs, len(agree))

    def test_certificates(self):
        for path in (K2_TABLE, K32_TABLE, DEQUANT_TABLE):
            with self.subTest(file=os.path.basename(path)):
                cert = load(path)
                table = mxcert.GuardTable(path)
                self.lookups(table, cert)
                self.assertEqual(table.config, cert["config"])
                self.assertEqual((table.lhs, table.rhs, table.relation), (cert["lhs"], cert["rhs"], cert["relation"]))
                self.assertEqual(table.agree, cert["agree"])
                self.assertEqual(table.agree_pairs, cert["agree_pairs"])
                self.assertIs(table.certified, True)
                self.assertEqual(table.guard, "|".join(
                    "xa:%d..%d,xb:%d..%d,e:%d..%d" % (*r["xa"], *r["xb"], *r["e"]) for r in cert["agree"]))
                self.lookups(mxcert.GuardTable(cert), cert)

    def test_compact_table(self):
        _, out, _ = cli("export", DEQUANT_TABLE, "--as", "json")
        compact = json.loads(out)
        cert = load(DEQUANT_TABLE)
        table = mxcert.GuardTable(compact)
        self.assertIs(table.certified, False)
        self.lookups(table, cert)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "compact.json")
            save(path, out)
            self.assertEqual(mxcert.GuardTable(path).agree, table.agree)

    def test_exhaustive_table_is_not_certified(self):
        table = mxcert.GuardTable(mxcert.table(a="e2m1", k=2, engine="exhaustive"))
        self.assertIs(table.certified, False)
        self.assertEqual(table.agree_pairs, 50469)

    def test_bad_codes(self):
        table = mxcert.GuardTable(K2_TABLE)
        for xa, xb, msg in ((256, 0, "xa: 256 is out of range 0..255"), (0, -1, "xb: -1 is out of range 0..255")):
            with self.assertRaises(mxcert.UsageError) as e:
                table.agrees(xa, xb)
            self.assertEqual(str(e.exception), msg)
        with self.assertRaises(TypeError):
            table.agrees(1.5, 0)


class Errors(unittest.TestCase):
    """Bad input raises UsageError with the message of the command's one line (exit 2)."""

    def same_error(self, call, args, kind=mxcert.UsageError, rc=2, prefix="mxcert: error: "):
        code, _, err = cli(*args)
        self.assertEqual(code, rc, err)
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, err)
        with self.assertRaises(kind) as e:
            call()
        self.assertEqual(prefix + str(e.exception), lines[0])
        self.assertIsInstance(e.exception, mxcert.Error)
        return e.exception

    def test_config(self):
        ev = dict(xa=127, xb=127, a_vals=[1, 1], b_vals=[1, 1])
        cli_ev = ["--xa", "127", "--xb", "127", "--a-vals", "1 1", "--b-vals", "1 1"]
        cases = [
            (dict(a="e9m9", k=2), ["--a", "e9m9", "--k", "2"]),
            (dict(format="mxfp5", k=2), ["--format", "mxfp5", "--k", "2"]),
            (dict(format="mxfp4", a="e2m1", k=2), ["--format", "mxfp4", "--a", "e2m1", "--k", "2"]),
            (dict(b="e2m1", k=2), ["--b", "e2m1", "--k", "2"]),
            (dict(k=2), ["--k", "2"]),
            (dict(a="e2m1"), ["--a", "e2m1"]),
            (dict(a="e2m1", k=0), ["--a", "e2m1", "--k", "0"]),
            (dict(a="e2m1", k="two"), ["--a", "e2m1", "--k", "two"]),
            (dict(a="e2m1", k=2, acc="f8"), ["--a", "e2m1", "--k", "2", "--acc", "f8"]),
            (dict(a="e2m1", k=2, round="rna"), ["--a", "e2m1", "--k", "2", "--round", "rna"]),
            (dict(a="e2m1", k=2, subnormals="dazz"), ["--a", "e2m1", "--k", "2", "--subnormals", "dazz"]),
            (dict(a="e5m2", k=2, acc="f16", subnormals="daz"),
             ["--a", "e5m2", "--k", "2", "--acc", "f16", "--subnormals", "daz"]),
            (dict(a="e2m1", k=2, tree="(0 0)"), ["--a", "e2m1", "--k", "2", "--tree", "(0 0)"]),
            (dict(a="e2m1", k=2, tree="bogus"), ["--a", "e2m1", "--k", "2", "--tree", "bogus"]),
            (dict(a="e2m1", k=2, fromat="mxfp4"), ["--a", "e2m1", "--k", "2", "--fromat", "mxfp4"]),
        ]
        for kwargs, args in cases:
            with self.subTest(args=" ".join(args)):
                self.same_error(lambda: mxcert.eval(**kwargs, **ev), ["eval"] + args + cli_ev)
                self.same_error(lambda: mxcert.table(**kwargs), ["table"] + args)

    def test_eval_inputs(self):
        base = dict(a="e2m1", k=2)
        cli_base = ["eval", "--a", "e2m1", "--k", "2"]
        cases = [
            (dict(xb=1, a_vals=[1, 1], b_vals=[1, 1]), ["--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1"]),
            (dict(xa=256, xb=1, a_vals=[1, 1], b_vals=[1, 1]), ["--xa", "256", "--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1"]),
            (dict(xa=(5, 3), xb=1, a_vals=[1, 1], b_vals=[1, 1]), ["--xa", "5..3", "--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1"]),
            (dict(xa=1, xb=1, a_vals=[1], b_vals=[1, 1]), ["--xa", "1", "--xb", "1", "--a-vals", "1", "--b-vals", "1 1"]),
            (dict(xa=1, xb=1, a_vals=[0.3, 1], b_vals=[1, 1]), ["--xa", "1", "--xb", "1", "--a-vals", "0.3 1", "--b-vals", "1 1"]),
            (dict(xa=1, xb=1, a_vals=["inf", 1], b_vals=[1, 1]), ["--xa", "1", "--xb", "1", "--a-vals", "inf 1", "--b-vals", "1 1"]),
            (dict(xa=1, xb=1, a_vals=[1, 1], b_vals=["0x10", 1]), ["--xa", "1", "--xb", "1", "--a-vals", "1 1", "--b-vals", "0x10 1"]),
            (dict(xa=1, xb=1, a_vals=[1, 1]), ["--xa", "1", "--xb", "1", "--a-vals", "1 1"]),
            (dict(xa=1, xb=1, a_vals=[1, 1], b_vals=[1, 1], placements=["pre", "mid"]),
             ["--xa", "1", "--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1", "--placements", "pre,mid"]),
            (dict(xa=1, xb=1, a_vals=[1, 1], b_vals=[1, 1], relation="approx"),
             ["--xa", "1", "--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1", "--relation", "approx"]),
            (dict(xa=1, xb=1, a_vals=[1, 1], b_vals=[1, 1], placement="pre"),
             ["--xa", "1", "--xb", "1", "--a-vals", "1 1", "--b-vals", "1 1", "--placement", "pre"]),
        ]
        for kwargs, args in cases:
            with self.subTest(args=" ".join(args)):
                self.same_error(lambda: mxcert.eval(**base, **kwargs), cli_base + args)

    def test_table_options(self):
        base = ["table", "--a", "e2m1", "--k", "2"]
        cases = [
            (dict(engine="smt"), ["--engine", "smt"]),
            (dict(solver="yices"), ["--solver", "yices"]),
            (dict(lhs="middle"), ["--lhs", "middle"]),
            (dict(rhs="post3"), ["--rhs", "post3"]),
            (dict(timeout=-1), ["--timeout", "-1"]),
            (dict(timeout="soon"), ["--timeout", "soon"]),
            (dict(query_timeout=0), ["--query-timeout", "0"]),
            (dict(max_terms=5), ["--max-terms", "5"]),
        ]
        for kwargs, args in cases:
            with self.subTest(args=" ".join(args)):
                self.same_error(lambda: mxcert.table(a="e2m1", k=2, **kwargs), base + args)

    def test_certificates(self):
        with tempfile.TemporaryDirectory() as d:
            corrupt = os.path.join(d, "corrupt.json")
            save(corrupt, '{"format": "mxcert-certificate", ')
            extra = load(K2_TABLE)
            extra["comment"] = "not in the schema"
            extra_file = os.path.join(d, "extra.json")
            save(extra_file, extra)
            wrong = load(K2_TABLE)
            wrong["config"]["k"] = "two"
            wrong_file = os.path.join(d, "wrong.json")
            save(wrong_file, wrong)
            missing = os.path.join(d, "missing.json")
            for path in (missing, d, corrupt, extra_file, wrong_file):
                with self.subTest(file=os.path.basename(path)):
                    self.same_error(lambda: mxcert.check(path), ["check", path])
                    self.same_error(lambda: mxcert.read_certificate(path), ["check", path])
                    # `mxcert export DIR` reads a directory as a sweep index (docs/sweeps.md);
                    # GuardTable reads one certificate, as `mxcert check` does.
                    export = ["check", path] if path == d else ["export", path, "--as", "json"]
                    self.same_error(lambda: mxcert.GuardTable(path), export)
            # The same contents as dicts: the schema messages do not name a file.
            for doc, path in ((extra, extra_file), (wrong, wrong_file)):
                with self.subTest(dict=os.path.basename(path)):
                    self.same_error(lambda: mxcert.check(doc), ["check", path])
                    self.same_error(lambda: mxcert.read_certificate(doc), ["check", path])
            self.same_error(lambda: mxcert.check(K2_TABLE, solver="yices"), ["check", K2_TABLE, "--solver", "yices"])
            self.same_error(lambda: mxcert.check(K2_TABLE, timeout=0), ["check", K2_TABLE, "--timeout", "0"])

    def test_unknown_exhaustive(self):
        # A deadline reached by the exhaustive engine (all or nothing): exit 3 and one line.
        code, _, err = cli("table", "--format", "mxfp8", "--k", "2", "--engine", "exhaustive", "--timeout", "0.001")
        self.assertEqual(code, 3)
        with self.assertRaises(mxcert.Unknown) as e:
            mxcert.table(format="mxfp8", k=2, engine="exhaustive", timeout=0.001)
        shape = r"the --timeout of 0.001 s has passed (during an exhaustive evaluation|after \d+ of \d+ )"
        self.assertRegex(str(e.exception), "^" + shape)
        self.assertRegex(err, "^mxcert: unknown: " + shape)
        self.assertIsNone(e.exception.certificate)

    def test_unknown_incomplete_table(self):
        code, out, err = cli("table", "--format", "mxfp4", "--k", "32", "--timeout", "0.001", "--json")
        self.assertEqual(code, 3)
        with self.assertRaises(mxcert.Unknown) as e:
            mxcert.table(format="mxfp4", k=32, timeout=0.001)
        first = r"\d+ code pair\(s\) undecided in \d+ region\(s\) \(the --timeout of 0.001 s has passed\)"
        self.assertRegex(str(e.exception), "^" + first + "$")
        self.assertRegex(err.splitlines()[0], "^mxcert: unknown: " + first + "$")
        self.assertEqual(e.exception.details[0], str(e.exception))
        partial, cli_partial = e.exception.certificate, json.loads(out)
        self.assertEqual(sorted(partial), sorted(cli_partial))
        self.assertEqual(partial["config"], cli_partial["config"])
        undecided = int(str(e.exception).split()[0])
        self.assertEqual(partial["agree_pairs"] + sum(len(pairs_of(w["refutes"])) for w in partial["witnesses"]),
                         255 * 255 - undecided)

    def test_python_side(self):
        with self.assertRaises(mxcert.UsageError) as e:
            mxcert.eval(a="e2\0m1", k=2)
        self.assertIn("NUL", str(e.exception))
        with self.assertRaises(mxcert.UsageError):
            mxcert.table(a="e2m1", k=2, help=True)
        with self.assertRaises(TypeError):
            mxcert.check(42)
        self.assertTrue(issubclass(mxcert.UsageError, ValueError))
        self.assertFalse(issubclass(mxcert.Unknown, mxcert.UsageError))


class Docs(unittest.TestCase):
    """The examples of docs/python.md and of the docstrings run as written (doctest)."""

    def test_examples(self):
        cwd = os.getcwd()
        os.chdir(SRC)  # the examples name files as from the repository root
        try:
            r = doctest.testfile(os.path.join(SRC, "docs", "python.md"), module_relative=False,
                                 optionflags=doctest.ELLIPSIS)
            self.assertEqual(r.failed, 0)
            self.assertGreater(r.attempted, 10)
            r = doctest.testmod(mxcert, optionflags=doctest.ELLIPSIS)
            self.assertEqual(r.failed, 0)
            self.assertGreater(r.attempted, 0)
        finally:
            os.chdir(cwd)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
