#!/usr/bin/env python3
"""mlir_pass/exec/exec_test.py — execution test of --mx-scale-placement and --mx-to-llvm.

For one element format and each vector length K, a module holds the SPEC §8 dot product with
variable scales (@dot) and with constant scales at a grid of codes (@dot_s<j>), and a driver that
calls @dot for ALL 256 x 256 scale-code pairs and every @dot_s<j>, for a set of element vectors
(the witnesses of the certified table, all-max, all-min-subnormal, alternating signs, negative
zeros, specials, random). Three lowerings of that module are JIT-ed with mlir-runner:
  original   mxcert-opt --mx-to-llvm                                    vs mxcert eval's dequant
  rewritten  mxcert-opt --mx-scale-placement --mx-to-llvm               vs mxcert eval's dequant
  post-all   mxcert-opt --mx-scale-placement=mode=runtime,guards=ALL    vs mxcert eval's post
(ALL: a compact table whose agree set is every finite pair, so the post branch runs wherever
it can; this checks the post computation itself, including e outside the f32 exponent range;
it is deliberately false, so it is used with allow-uncertified=true). The pass verifies the
committed certificates with the given mxcert (checker=) and caches the outcome in
WORKDIR/check-cache (check-cache=).
--scale-form writes the block scales as SPEC §8's broadcast scalar, as a broadcast
vector<1xf8E8M0FNU>, or as i8 bits broadcast and bitcast to f8E8M0FNU (mxexec.scale_lines).
Every returned bit pattern must equal the model's (two NaNs count as the same bits).
--denormal ftz|daz runs every lowering with the thread's f32 subnormals flushed (x86 MXCSR FTZ)
or also read as zero (FTZ+DAZ), set by @main through exec/fpenv.cpp (--fpenv-lib); the model is
then `mxcert eval --subnormals ftz|daz`, the pass gets denormal=ftz|daz and uses the committed
tables certified for that mode; post-all is not run (under ftz and daz the pass refuses its
every-pair agree set, which reaches values below 2^-126). Another lowering, "wrong-mode", is
the rewrite made with the ieee (keep) table, run in the same environment: it must give wrong
bits somewhere (the check
that a rewrite under the wrong denormal mode is caught), and the MXCSR bits printed after the
last dot product must be the mode's.
--k K:FORM:ACC sums the products with another op from a constant zero accumulator
(reduction-acc, multi_reduction, contract; the model is `mxcert eval` over K + 1 leaves, the
accumulator first); K:contract-tile:ACC runs a 4xK vector.contract tile with per-row scale codes
(check_tile), K:wide a kernel of 4 blocks of K, as slices of one vector and as an scf.for
(check_wide; the model sums the blocks' bits in f32).
Exit 0 when there is no mismatch, 1 otherwise; 77 (skipped) for --denormal on a non-x86 host.
"""

import argparse
import concurrent.futures
import json
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mxexec as mx  # noqa: E402

def static_pairs(agree):
    """Constant scale-code pairs for the @dot_s<j> functions: the corners and the NaN code, the
    bias, and one step inside and outside every bound of every region of the certified agree
    set (xa, xb and e bounds), so that the compile-time decision is exercised on both sides of
    each boundary. Sorted, without duplicates."""
    pairs = {(0, 0), (0, 254), (254, 0), (254, 254), (127, 127), (1, 1), (128, 126),
             (255, 127), (127, 255), (255, 255), (0, 255)}

    def clip(x):
        return max(0, min(255, x))

    for r in agree:
        (alo, ahi), (blo, bhi), (elo, ehi) = r["xa"], r["xb"], r["e"]
        for xa in (alo - 1, alo, ahi, ahi + 1):
            if 0 <= xa <= 255:
                pairs.add((xa, clip(blo)))
                pairs.add((xa, clip(127)))
        for xb in (blo - 1, blo, bhi, bhi + 1):
            if 0 <= xb <= 255:
                pairs.add((clip(alo), xb))
                pairs.add((clip(127), xb))
        for e in (elo - 1, elo, ehi, ehi + 1):
            s = e + 254  # xa + xb
            if 0 <= s <= 508:
                xa = clip(max(s - 254, min(127, s)))
                pairs.add((xa, s - xa))
                xa = clip(min(s, 254))  # the other end of the diagonal
                pairs.add((xa, s - xa))
    return sorted(p for p in pairs if 0 <= p[0] <= 255 and 0 <= p[1] <= 255)


def canonical(bits):
    """The list with every f32 NaN replaced by 0x7FC00000 (SPEC §3: all NaNs are one value);
    None (a pair the model does not cover) stays None."""
    return [0x7FC00000 if x is not None and (x & 0x7F800000) == 0x7F800000 and (x & 0x7FFFFF) else x for x in bits]


def differing(got, want):
    """The indices at which the printed list got and the expected list want differ (want's
    indices; an index got lacks counts as differing). Equal lists are the fast path."""
    if got == want:
        return []
    return [i for i, w in enumerate(want) if i >= len(got) or got[i] != w]


def hex_or_missing(lst, at):
    """lst[at] as 0x%08X, or "nothing" past its end."""
    return "0x%08X" % lst[at] if at < len(lst) else "nothing"


def table_path(tables, fmt, k, subnormals="keep", acc=None, fmt_b=None):
    """The committed table the pass uses: seq over k, or with a zero accumulator every tree over
    k + 1 leaves (the pass looks up the seq file first, and no seq k + 1 table is committed);
    fmt x fmt_b (default fmt x fmt)."""
    fb = fmt_b or fmt
    if acc is None:
        return os.path.join(tables, "%sx%s_f32_rne_%s_k%d_seq_dequant-post_bitwise.json" % (fmt, fb, subnormals, k))
    return os.path.join(tables, "%sx%s_f32_rne_%s_k%d_any_dequant-post_bitwise.json" % (fmt, fb, subnormals, k + 1))


def guard_contains(regions, xa, xb):
    if xa > 254 or xb > 254:
        return False
    e = xa + xb - 254
    return any(r["xa"][0] <= xa <= r["xa"][1] and r["xb"][0] <= xb <= r["xb"][1] and r["e"][0] <= e <= r["e"][1]
               for r in regions)


def build_vectors(fmt, k, table, all_vectors=False, denormal="ieee", quick=False, fmt_b=None):
    """(name, a codes, b codes) for one format pair (a: fmt, b: fmt_b, default fmt) and length:
    the witnesses of the certified table, the edge vectors, the element specials of a's format
    (b at one or its maximum), and random vectors. For k > 2 the evaluation of the model
    dominates the test's time, so a few near-duplicates of the edge vectors and the second
    random vector are only used with all_vectors."""
    M, S, one = mx.max_code(fmt), mx.sign_bit(fmt), mx.one_code(fmt)
    fb = fmt_b or fmt
    Mb, Sb, oneb = mx.max_code(fb), mx.sign_bit(fb), mx.one_code(fb)
    extra = all_vectors or k <= 2
    witnesses = table.get("witnesses", [])[:3 if quick else None]
    vs = [("witness%d" % i, list(w["a"]), list(w["b"])) for i, w in enumerate(witnesses)]
    vs += [
        ("all-max", [M] * k, [Mb] * k),
        ("max-times-neg-max", [M] * k, [Mb | Sb] * k),
        ("all-min-subnormal", [1] * k, [1] * k),
        ("alternating-signs", [M | (S if i % 2 else 0) for i in range(k)], [Mb] * k),
        ("alternating-signs-mixed", [((i * 5 + 3) % (M + 1)) | (S if i % 2 else 0) for i in range(k)],
         [((i * 7 + 1) % (Mb + 1)) | (Sb if i % 3 == 1 else 0) for i in range(k)]),
        ("negative-zeros", [S] * k, [oneb] * k),
        ("negative-zeros-both", [S] * k, [Sb] * k),
    ]
    if quick:
        vs = [v for v in vs if v[0] not in ("max-times-neg-max", "alternating-signs-mixed", "negative-zeros-both")]
    if extra:
        vs += [
            ("neg-min-subnormal", [1 | S] * k, [1] * k),
            ("neg-zero-times-zero", [S] * k, [0] * k),
            ("neg-zero-and-tiny", [S] + [1 | S] * (k - 1), [oneb] * k),
        ]
    rng = random.Random("%s-%d" % (fmt, k) if fb == fmt else "%sx%s-%d" % (fmt, fb, k))
    for r in range(2 if extra else 1):
        vs.append(("random%d" % r, [rng.randrange(M + 1) | rng.choice([0, S]) for _ in range(k)],
                   [rng.randrange(Mb + 1) | rng.choice([0, Sb]) for _ in range(k)]))
    spec = mx.FORMATS[fmt]["specials"]
    if spec == "nan":
        vs.append(("nan", [0x7F] + [one] * (k - 1), [oneb] * k))
    if denormal != "ieee":
        # All ones: with xa = 0 the dequant factor 2^-127 is subnormal (DAZ reads it as zero).
        vs.append(("all-one", [one] * k, [oneb] * k))
    if spec == "ieee":
        vs.append(("inf", [0x7C] + [one] * (k - 1), [Mb] * k))
        vs.append(("inf-times-zero", [0x7C] + [one] * (k - 1), [0] * k))
        vs.append(("nan", [0x7E] + [one] * (k - 1), [oneb] * k))
        if k >= 2:
            vs.append(("inf-minus-inf", [0x7C, 0xFC] + [one] * (k - 2), [oneb] * k))
    seen, out = set(), []
    for name, a, b in vs:
        if (tuple(a), tuple(b)) not in seen:
            seen.add((tuple(a), tuple(b)))
            out.append((name, a, b))
    return out


def write_post_all(work, table, region=None):
    """A compact table of table's configuration claiming every finite pair (so the post branch
    runs wherever it can; deliberately false, used with allow-uncertified=true): its path.
    region: the one region it claims (default every e8m0 pair but code 255)."""
    post_all = os.path.join(work, "post_all.json")
    with open(post_all, "w") as f:
        json.dump({"format": "mxcert-guard-table", "format_version": 1, "config": table["config"],
                   "lhs": "dequant", "rhs": "post", "relation": "bitwise",
                   "agree": [region or {"xa": [0, 254], "xb": [0, 254], "e": [-254, 254]}]}, f)
    return post_all


def trust_options(args):
    """The pass options that say where the tables are and how they are verified: with this
    mxcert, the cache in the work directory."""
    return "tables-dir=%s checker=%s check-cache=%s" % (args.tables, args.mxcert,
                                                       os.path.join(args.workdir, "check-cache"))


def check_one(args, fmt, k, form="reduction", acc=None):
    """Runs the three lowerings for one (format, K, form); returns (counts dict, mismatch lines)."""
    t0 = time.time()
    work = mx.ensure_dir(os.path.join(args.workdir, "k%d" % k if form == "reduction" else "k%d-%s%s" % (k, form, acc)))
    sub = mx.SUBNORMALS[args.denormal]
    fb = args.b_format or fmt  # b's element format (a's by default)
    with open(table_path(args.tables, fmt, k, sub, acc, fb)) as f:
        table = json.load(f)
    # With an accumulator the table's witnesses have k + 1 elements; the vectors are K long, so
    # the seq K table's witnesses (where there is one) are used.
    wit = table
    if acc is not None:
        seq = table_path(args.tables, fmt, k, sub, fmt_b=fb)
        wit = json.load(open(seq)) if os.path.exists(seq) else {}
    vectors = build_vectors(fmt, k, wit, args.all_vectors, args.denormal, args.quick, fb)
    if form != "reduction" or args.denormal != "ieee":
        vectors = fewer(args, vectors)
    pairs = static_pairs(table["agree"])
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.driver_module(fmt, fb, k, [(a, b) for _, a, b in vectors], pairs, args.scale_form, args.denormal,
                                 form=form, acc=acc))
    runner_libs = args.runner_libs + ("," + args.fpenv_lib if args.denormal != "ieee" else "")
    post_all = write_post_all(work, table)
    trust = trust_options(args)
    if args.denormal != "ieee":
        trust += " denormal=" + args.denormal
    placement = "--mx-scale-placement=" + trust
    # The rewrite itself: @dot gets a runtime guard, the constant pairs are decided statically.
    rewritten_ir = os.path.join(work, "rewritten.mlir")
    remarks = mx.lower(args.mxcert_opt, src, rewritten_ir, [placement])
    text = open(rewritten_ir).read()
    expect_static = sum(1 for p in pairs if guard_contains(table["agree"], *p))
    n_rewrote = remarks.count("rewrote dequant to post")
    n_guard = text.count("mxcert.guard")
    problems = []
    if n_guard != 1:
        problems.append("expected one runtime guard in the rewritten module, found %d" % n_guard)
    if n_rewrote != expect_static:
        problems.append("expected %d static rewrites, the remarks report %d" % (expect_static, n_rewrote))
    # The certificate passed the checker: the runtime guard and every constant pair decided by
    # the agree set (all but those with code 255) name the certified agree set.
    expect_certified = 1 + sum(1 for p in pairs if 255 not in p)
    if remarks.count("the certified agree set") != expect_certified or "uncertified" in remarks:
        problems.append("expected %d remarks naming the certified agree set, found %d" % (
            expect_certified, remarks.count("the certified agree set")))

    variants = [("original", ["--mx-to-llvm"], "dequant"),
                ("rewritten", [placement, "--mx-to-llvm"], "dequant")]
    if args.denormal == "ieee":
        # (Under ftz and daz the pass refuses an agree set that reaches values below 2^-126,
        # as this one does: docs/mlir.md, "Tininess".)
        variants.append(("post-all", ["--mx-scale-placement=mode=runtime guards=%s allow-uncertified=true %s" % (
            post_all, trust), "--mx-to-llvm"], "post"))
    if args.denormal != "ieee":
        # The rewrite the pass makes when it assumes ieee (the source without the functions'
        # denormal attributes, so the keep table), then given the attributes and lowered like
        # the others: it runs in the same environment.
        ieee_trust = trust_options(args)
        plain = os.path.join(work, "input-ieee.mlir")
        with open(plain, "w") as f:
            f.write(mx.driver_module(fmt, fb, k, [(a, b) for _, a, b in vectors], pairs, args.scale_form,
                                     args.denormal, attrs=False, form=form, acc=acc))
        wrong_ir = os.path.join(work, "wrong-mode.mlir")
        mx.lower(args.mxcert_opt, plain, wrong_ir, ["--mx-scale-placement=" + ieee_trust])
        with open(wrong_ir) as f:
            text = mx.with_denormal_attrs(f.read(), args.denormal)
        with open(wrong_ir, "w") as f:
            f.write(text)
        variants.append(("wrong-mode", ["--mx-to-llvm"], "dequant", wrong_ir))
    want_memrefs = 2 * len(vectors) + (1 if args.denormal != "ieee" else 0)
    results = {}
    for name, passes, _, *source in variants:
        ll = os.path.join(work, name + ".ll.mlir")
        mx.lower(args.mxcert_opt, source[0] if source else src, ll, passes)
        results[name] = mx.jit(args.mlir_runner, runner_libs, ll, args.opt)
        if len(results[name]) != want_memrefs:
            problems.append("%s: expected %d printed memrefs, got %d" % (name, want_memrefs, len(results[name])))
            return None, problems
        if args.denormal != "ieee" and results[name][-1] != [mx.DENORMAL_MODES[args.denormal][1]]:
            problems.append("%s: the MXCSR denormal bits after the run are %s, expected 0x%X (%s)" % (
                name, results[name][-1], mx.DENORMAL_MODES[args.denormal][1], args.denormal))

    t_jit = time.time() - t0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        # Only the placements some lowering is compared with (no post without post-all).
        wanted = tuple(sorted({v[2] for v in variants}))
        # With an accumulator: the seq tree over k + 1 leaves, the accumulator first (as
        # --mx-to-llvm sums; the table covers every tree).
        models = list(ex.map(lambda v: mx.model_bits(args.mxcert, fmt, fb, k + (acc is not None),
                                                     *mx.model_leaves(fmt, fb, v[1], v[2], acc), wanted,
                                                     subnormals=sub), vectors))

    t_model = time.time() - t0 - t_jit
    counts = {v[0]: 0 for v in variants}
    static_counts = {v[0]: 0 for v in variants}
    for vi, (vname, a, b) in enumerate(vectors):
        for name, _, placement, *_ in variants:
            ref = canonical(models[vi][placement])
            got, got_s = canonical(results[name][2 * vi]), canonical(results[name][2 * vi + 1])
            if got != ref:
                for idx in range(mx.NUM_PAIRS):
                    if got[idx] != ref[idx]:
                        counts[name] += 1
                        if len(problems) < 40 and name != "wrong-mode":
                            problems.append("%s k=%d %s vector %s: xa=%d xb=%d got 0x%08X, %s gives 0x%08X" % (
                                fmt, k, name, vname, idx >> 8, idx & 255, got[idx], placement, ref[idx]))
            for j, (xa, xb) in enumerate(pairs):
                if got_s[j] != ref[xa * 256 + xb]:
                    static_counts[name] += 1
                    if len(problems) < 40 and name != "wrong-mode":
                        problems.append("%s k=%d %s constant scales vector %s: xa=%d xb=%d got 0x%08X, %s gives 0x%08X" % (
                            fmt, k, name, vname, xa, xb, got_s[j], placement, ref[xa * 256 + xb]))
    if "wrong-mode" in counts and counts["wrong-mode"] + static_counts["wrong-mode"] == 0:
        problems.append("the rewrite with the ieee table gave the %s model's bits everywhere: this run "
                        "would not catch a rewrite under the wrong denormal mode" % args.denormal)
    summary = dict(vectors=len(vectors), pairs=mx.NUM_PAIRS, static_pairs=len(pairs), static_rewritten=n_rewrote,
                   mismatches=counts, static_mismatches=static_counts,
                   agree=table["agree"], seconds=dict(lower_and_jit=round(t_jit, 1), model=round(t_model, 1),
                                                     total=round(time.time() - t0, 1)))
    return summary, problems


NVFP4_STATIC = [(0, 0), (0, 56), (56, 0), (1, 1), (56, 56), (60, 44), (126, 126), (125, 1), (1, 126), (127, 56),
                (56, 127), (127, 127), (128, 56), (56, 200), (255, 255), (200, 128)]


def nvfp4_table(args):
    """The committed NVFP4 k = 16 dequant/post table (certs/nvfp4, next to --tables)."""
    return os.path.join(os.path.dirname(os.path.abspath(args.tables)), "nvfp4",
                        "e2m1xe2m1-e4m3_f32_rne_keep_k16_seq_dequant-post_bitwise.json")


def check_nvfp4(args, k=16):
    """NVFP4 blocks (f4E2M1FN elements, f8E4M3FN scales; docs/mlir.md, "NVFP4"): SPEC §8's form
    with e4m3 scales at K = 16, every one of the 256 x 256 scale codes through @dot and the
    NVFP4_STATIC pairs as constants, lowered three ways as check_one does (original; rewritten
    with the committed certs/nvfp4 set, found by the pass's default search; post-all: a runtime
    guard with a compact table claiming all 128 x 128 pairs). Codes 0..127 are compared with
    `mxcert eval --scale e4m3` (dequant; post for post-all); codes 128..255 (negative e4m3
    scales, which no table covers) must give the original lowering's bits in every variant:
    the guard keeps the original computation there. Returns (summary, problems)."""
    t0 = time.time()
    work = mx.ensure_dir(os.path.join(args.workdir, "nvfp4-k%d" % k))
    with open(nvfp4_table(args)) as f:
        table = json.load(f)
    vectors = build_vectors("e2m1", k, table, args.all_vectors, "ieee", args.quick)
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.driver_module("e2m1", "e2m1", k, [(a, b) for _, a, b in vectors], NVFP4_STATIC, args.scale_form,
                                 scale="e4m3"))
    post_all = write_post_all(work, table, {"xa": [0, 127], "xb": [0, 127], "e": [-254, 0]})
    # No tables-dir: the default search (certs/tables, certs/grown, then certs/nvfp4).
    trust = "checker=%s check-cache=%s" % (args.mxcert, os.path.join(args.workdir, "check-cache"))
    placement = "--mx-scale-placement=" + trust
    rewritten_ir = os.path.join(work, "rewritten.mlir")
    remarks = mx.lower(args.mxcert_opt, src, rewritten_ir, [placement])
    text = open(rewritten_ir).read()
    problems = []

    def inside(xa, xb):
        return xa <= 127 and xb <= 127 and guard_contains(table["agree"], xa, xb)

    expect_static = sum(1 for p in NVFP4_STATIC if inside(*p) and 127 not in p)
    n_rewrote = remarks.count("rewrote dequant to post")
    if text.count("mxcert.guard") != 1:
        problems.append("expected one runtime guard in the rewritten module, found %d" % text.count("mxcert.guard"))
    if n_rewrote != expect_static:
        problems.append("expected %d static rewrites, the remarks report %d" % (expect_static, n_rewrote))
    if os.path.basename(nvfp4_table(args)) not in remarks or "the certified agree set" not in remarks:
        problems.append("the remarks do not name the certified agree set of the committed NVFP4 table")
    _, results = run_three(args, work, src, placement, post_all, trust, 2 * len(vectors), problems)
    if results is None:
        return None, problems
    variants = [("original", "dequant"), ("rewritten", "dequant"), ("post-all", "post")]  # the model each is compared with
    t_jit = time.time() - t0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        models = list(ex.map(lambda v: mx.model_bits(args.mxcert, "e2m1", "e2m1", k, v[1], v[2], ("dequant", "post"),
                                                     scale="e4m3"), vectors))
    counts = {v[0]: 0 for v in variants}
    outside = {v[0]: 0 for v in variants}
    for vi, (vname, _, _) in enumerate(vectors):
        orig, orig_s = canonical(results["original"][2 * vi]), canonical(results["original"][2 * vi + 1])
        for name, placement in variants:
            got, got_s = canonical(results[name][2 * vi]), canonical(results[name][2 * vi + 1])
            ref = canonical(models[vi][placement])
            # Codes 0..127: the model; the others: the original lowering's bits.
            expected = [ref[idx] if idx >> 8 <= 127 and idx & 255 <= 127 else orig[idx] for idx in range(mx.NUM_PAIRS)]
            outside[name] += mx.NUM_PAIRS - 128 * 128
            for idx in differing(got, expected):
                xa, xb = idx >> 8, idx & 255
                what = placement if xa <= 127 and xb <= 127 else "the original lowering"
                counts[name] += 1
                if len(problems) < 40:
                    problems.append("nvfp4 k=%d %s vector %s: xa=%d xb=%d got %s, %s gives 0x%08X" % (
                        k, name, vname, xa, xb, hex_or_missing(got, idx), what, expected[idx]))
            for j, (xa, xb) in enumerate(NVFP4_STATIC):
                want = ref[xa * 256 + xb] if xa <= 127 and xb <= 127 else orig_s[j]
                if got_s[j] != want:
                    counts[name] += 1
                    if len(problems) < 40:
                        problems.append("nvfp4 k=%d %s constant scales vector %s: xa=%d xb=%d got 0x%08X, want 0x%08X" % (
                            k, name, vname, xa, xb, got_s[j], want))
    summary = dict(vectors=len(vectors), pairs=mx.NUM_PAIRS, static_pairs=len(NVFP4_STATIC), static_rewritten=n_rewrote,
                   mismatches=counts, outside_table_compared=outside, agree=table["agree"],
                   seconds=dict(lower_and_jit=round(t_jit, 1), total=round(time.time() - t0, 1)))
    return summary, problems


def fewer(args, vectors):
    """With --quick, the tests of the other forms (zero accumulators, tiles, rows, linalg, wide
    K: the same arithmetic as SPEC §8's form, which mlir_exec_<fmt> runs with more vectors, and
    for tiles and wide K four rows or blocks per vector, each its own model evaluation) and of
    the ftz/daz environments keep the first witness, all-max, all-min-subnormal, negative zeros,
    all-one and the format's specials."""
    if not args.quick:
        return vectors
    return [v for v in vectors if not v[0].startswith(("witness1", "witness2", "random", "alternating"))]


def direct_pipeline(placement):
    """The placement pass (when given), then --mx-to-llvm."""
    return ([placement] if placement else []) + ["--mx-to-llvm"]


def run_three(args, work, src, placement, post_all, trust, memrefs, problems, pipeline=direct_pipeline):
    """Lowers src three ways with pipeline(placement option or None) (original; rewritten
    with the certified tables; post-all: a runtime guard with the every-pair compact table)
    and JITs each: (variants, {name: printed memrefs}), or (variants, None) with a problem
    appended when one prints other than `memrefs` memrefs."""
    variants = [("original", pipeline(None)), ("rewritten", pipeline(placement)),
                ("post-all", pipeline("--mx-scale-placement=mode=runtime guards=%s allow-uncertified=true %s" % (
                    post_all, trust)))]
    results = {}
    for name, passes in variants:
        ll = os.path.join(work, name + ".ll.mlir")
        mx.lower(args.mxcert_opt, src, ll, passes)
        results[name] = mx.jit(args.mlir_runner, args.runner_libs, ll, args.opt)
        if len(results[name]) != memrefs:
            problems.append("%s: expected %d printed memrefs, got %d" % (name, memrefs, len(results[name])))
            return variants, None
    return variants, results


TILE_ROWS = 4


def tile_rows(fmt, a):
    """The TILE_ROWS rows of the tile's a operand made from one test vector a: a, a rotated by
    one, a with every sign flipped, a reversed."""
    S = mx.sign_bit(fmt)
    return [list(a), list(a[1:] + a[:1]), [c ^ S for c in a], list(reversed(a))]


# The transform script of check_tile's "rows" variant: upstream's vector.contract lowering
# ("dot": per row, vector.extract of the scaled tile, arith.mulf, vector.reduction), run
# before the pass, which then sees one block per row.
LOWER_CONTRACTION = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "dot"
    } : !transform.any_op
    transform.yield
  }
}
"""


def check_tile(args, fmt, k, acc, view="tile"):
    """The vector.contract tile (TILE_ROWS x K times K, per-row scale codes
    mx.tile_row_code(xa, i)) through the three lowerings; returns (summary, problems). view
    "linalg" ("linalg-memref"): the same matrix-vector product written as a linalg.generic on
    tensors (on memrefs), through the linalg pipeline (mx.linalg_pipeline: vectorize, the pass,
    bufferize, lower), variable scale codes only; "rows": the tile lowered by upstream's contraction lowering first, so
    that the pass rewrites each row on its own (rows of a 2-D product)."""
    linalg, by_rows = view in ("linalg", "linalg-memref"), view == "rows"
    t0 = time.time()
    rows = TILE_ROWS
    work = mx.ensure_dir(os.path.join(args.workdir, "k%d-%s%s" % (k, view, acc)))
    with open(table_path(args.tables, fmt, k, "keep", acc)) as f:
        table = json.load(f)
    seq = table_path(args.tables, fmt, k, "keep")
    wit = json.load(open(seq)) if os.path.exists(seq) else {}
    vectors = fewer(args, build_vectors(fmt, k, wit, args.all_vectors, "ieee", args.quick))
    pairs = [] if linalg else static_pairs(table["agree"])
    tiles = [(tile_rows(fmt, a), b) for _, a, b in vectors]
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.linalg_driver_module(fmt, k, rows, tiles, acc, view == "linalg-memref") if linalg
                else mx.tile_driver_module(fmt, k, rows, tiles, pairs, acc))
    # (By rows, each row's block is the seq K one: upstream's lowering adds the accumulator
    # after the row's reduction, outside the block, or drops a -0.0 one.)
    post_all = write_post_all(work, json.load(open(table_path(args.tables, fmt, k))) if by_rows else table)
    trust = trust_options(args)
    placement = "--mx-scale-placement=" + trust
    pipeline = mx.linalg_pipeline if linalg else direct_pipeline
    if by_rows:
        script = os.path.join(work, "lower-contraction.mlir")
        with open(script, "w") as f:
            f.write(LOWER_CONTRACTION)

        def pipeline(p):
            return (["--transform-preload-library=transform-library-paths=" + script, "--transform-interpreter"] +
                    ([p] if p else []) + ["--mx-to-llvm"])
    per = 1 if linalg else 2  # printed memrefs per vector: all pairs (and the constant pairs)
    rewritten_ir = os.path.join(work, "rewritten.mlir")
    # The rewrite itself: the pipeline up to and including the pass.
    upto = pipeline(placement)
    remarks = mx.lower(args.mxcert_opt, src, rewritten_ir, upto[:upto.index(placement) + 1])
    problems = []
    n_guard = open(rewritten_ir).read().count("mxcert.guard")
    if n_guard != (rows if by_rows else 1):
        problems.append("expected %d runtime guard(s) in the rewritten tile module, found %d" % (
            rows if by_rows else 1, n_guard))

    if by_rows:  # each row on its own
        expect_static = sum(1 for xa, xb in pairs for i in range(rows)
                            if guard_contains(table["agree"], mx.tile_row_code(xa, i), xb))
    else:  # every row's codes in the agree set: the tile takes post
        expect_static = sum(1 for xa, xb in pairs
                            if all(guard_contains(table["agree"], mx.tile_row_code(xa, i), xb) for i in range(rows)))
    if remarks.count("rewrote dequant to post") != expect_static:
        problems.append("expected %d static tile rewrites, the remarks report %d" % (
            expect_static, remarks.count("rewrote dequant to post")))
    variants, results = run_three(args, work, src, placement, post_all, trust, per * len(tiles), problems, pipeline)
    if results is None:
        return None, problems
    t_jit = time.time() - t0
    jobs = [(v, i) for v in range(len(tiles)) for i in range(rows)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        if by_rows:
            # Each row's block is K leaves; the accumulator is added to its result in f32.
            acc_bits = 0x80000000 if acc == "-0" else 0
            models = list(ex.map(lambda vi: {p: [mx.f32_add_bits(x, acc_bits) for x in bits] for p, bits in mx.model_bits(
                args.mxcert, fmt, fmt, k, tiles[vi[0]][0][vi[1]], tiles[vi[0]][1], ("dequant", "post")).items()}, jobs))
        else:
            models = list(ex.map(lambda vi: mx.model_bits(
                args.mxcert, fmt, fmt, k + 1, *mx.model_leaves(fmt, fmt, tiles[vi[0]][0][vi[1]], tiles[vi[0]][1], acc,
                                                              last=True), ("dequant", "post")), jobs))
    # The model's bits, NaNs made canonical once (SPEC §3), and each row's code per driver code.
    model = {job: {p: canonical(bits) for p, bits in m.items()} for job, m in zip(jobs, models)}
    row_code = [[mx.tile_row_code(xa, i) for i in range(rows)] for xa in range(256)]
    # post-all's guard admits the tile where every row's code is finite (by rows: where this
    # row's is); xb must be finite too.
    row_finite = [[c <= 254 for c in codes] for codes in row_code]
    tile_finite = [all(f) for f in row_finite]
    counts = {name: 0 for name, _ in variants}
    for v in range(len(tiles)):
        dq = [model[(v, i)]["dequant"] for i in range(rows)]
        po = [model[(v, i)]["post"] for i in range(rows)]
        for name, _ in variants:
            got = canonical(results[name][per * v])
            got_s = canonical(results[name][per * v + 1]) if per == 2 else []
            post_all = name == "post-all"

            def want(xa, xb, i):
                # post-all: post where the guard admits the codes, else the original; the
                # others: dequant.
                use_post = post_all and xb <= 254 and (row_finite[xa][i] if by_rows else tile_finite[xa])
                return (po if use_post else dq)[i][row_code[xa][i] * 256 + xb]
            # Every pair through @tile (index (xa * 256 + xb) * rows + i), then the constant
            # pairs through @tile_s<j> (index j * rows + i).
            for lst, keys, what in ((got, [(xa, xb) for xa in range(256) for xb in range(256)], ""),
                                    (got_s, pairs, "constant scales ")):
                expected = [want(xa, xb, i) for xa, xb in keys for i in range(rows)]
                for at in differing(lst, expected):
                    (xa, xb), i = keys[at // rows], at % rows
                    counts[name] += 1
                    if len(problems) < 40:
                        problems.append("%s k=%d tile %s %svector %s row %d: xa=%d (row code %d) xb=%d got %s, "
                                        "want 0x%08X" % (fmt, k, name, what, vectors[v][0], i, xa,
                                                         row_code[xa][i], xb, hex_or_missing(lst, at), expected[at]))
    summary = dict(vectors=len(tiles), rows=rows, pairs=mx.NUM_PAIRS, static_pairs=len(pairs),
                   static_rewritten=expect_static, mismatches=counts,
                   seconds=dict(lower_and_jit=round(t_jit, 1), total=round(time.time() - t0, 1)))
    print("%s k=%d as a %dx%d %s with accumulator %s, per-row scale codes (xa + %d i) mod 256: "
          "%d tiles x %d code pairs x %d rows (+ %d constant-scale pairs, %d rewritten statically); mismatches: "
          "original %d, rewritten %d, post-all %d (%.0f s)" % (
              fmt, k, rows, k, {"linalg": "linalg.generic through the linalg pipeline",
                                "linalg-memref": "linalg.generic on memrefs through the linalg pipeline",
                                "rows": "vector.contract tile lowered to rows first"}.get(view, "vector.contract tile"),
              acc, mx.TILE_ROW_STEP, len(tiles), mx.NUM_PAIRS, rows, len(pairs), expect_static,
              counts["original"], counts["rewritten"], counts["post-all"], summary["seconds"]["total"]))
    return summary, problems


MATMUL_FORMS = {"contract-matmul": "mk", "contract-matmul-at": "km", "contract-matmul-ct": "ct", "contract-bmm": "batch"}


def check_matmul(args, fmt, k, acc, layout="mk"):
    """A 2 x K times K x 3 matmul tile (vector.contract with two parallel dimensions) with one
    code per row of A and per column of B, through the three lowerings, every (xa, xb). The
    layout (mx.matmul_driver_module): "mk"; "km", A held as its K x 2 transpose, read with
    (i, j, k) -> (k, i); "ct", the result held as its 3 x 2 transpose, (i, j, k) -> (j, i);
    "batch", a batch matmul (b, i, j, k) of 2 batches of 2 x K times K x 2 (the codes of row
    b * 2 + i and column b * 2 + j). --mx-to-llvm sums each output's products (from -0.0), then
    adds the accumulator: the model is each (row, column) dot product over k + 1 leaves, the
    accumulator last."""
    t0 = time.time()
    work = mx.ensure_dir(os.path.join(args.workdir, "k%d-matmul-%s%s" % (k, layout, acc)))
    with open(table_path(args.tables, fmt, k, "keep", acc)) as f:
        table = json.load(f)
    vectors = fewer(args, build_vectors(fmt, k, json.load(open(table_path(args.tables, fmt, k))), args.all_vectors,
                                        "ieee", args.quick))
    S = mx.sign_bit(fmt)
    # A: the first vector and its negation; B: the next vectors' b, with negative zeros.
    a_rows = [list(vectors[0][1]), [c ^ S for c in vectors[0][1]]]
    b_cols = [list(vectors[min(1, len(vectors) - 1)][2]), list(reversed(vectors[0][2])), [S] * k]
    if layout == "batch":  # 2 batches: the rows and columns above, then other ones
        b_cols = b_cols[:2]
        a_rows += [list(reversed(vectors[0][1])), list(vectors[min(2, len(vectors) - 1)][1])]
        b_cols += [[S] * k, list(vectors[min(2, len(vectors) - 1)][2])]
    outs = mx.matmul_outputs(layout, len(a_rows) // (mx.MATMUL_BATCH if layout == "batch" else 1),
                             len(b_cols) // (mx.MATMUL_BATCH if layout == "batch" else 1))
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.matmul_driver_module(fmt, k, a_rows, b_cols, acc, layout))
    post_all = write_post_all(work, table)
    trust = trust_options(args)
    placement = "--mx-scale-placement=" + trust
    problems = []
    remarks = mx.lower(args.mxcert_opt, src, os.path.join(work, "rewritten.mlir"), [placement])
    if "(for every element of the tile)" not in remarks:
        problems.append("the matmul tile got no runtime guard: %s" % remarks[:300])
    variants, results = run_three(args, work, src, placement, post_all, trust, 1, problems)
    if results is None:
        return None, problems
    # Each output over k + 1 leaves, the accumulator last (the post branch sums it with the
    # exact products, before the scaling, as the k + 1 table's post placement does).
    model = {(r, c): mx.model_bits(args.mxcert, fmt, fmt, k + 1, *mx.model_leaves(fmt, fmt, a_rows[r], b_cols[c], acc,
                                                                                 last=True), ("dequant", "post"))
             for r, c in outs}
    nq = len(outs)
    model = {rc: {p: canonical(bits) for p, bits in m.items()} for rc, m in model.items()}
    code_a = [[mx.tile_row_code(xa, r) for r in range(len(a_rows))] for xa in range(256)]
    code_b = [[mx.wide_code(xb, c, mx.WIDE_STEP_B) for c in range(len(b_cols))] for xb in range(256)]
    # post-all: post where every output's codes are finite (one guard for the tile), that is
    # where the codes of every row and every column the outputs use are.
    used_r, used_c = sorted({r for r, _ in outs}), sorted({c for _, c in outs})
    fin_a = [all(code_a[xa][r] <= 254 for r in used_r) for xa in range(256)]
    fin_b = [all(code_b[xb][c] <= 254 for c in used_c) for xb in range(256)]
    counts = {name: 0 for name, _ in variants}
    for name, _ in variants:
        got = canonical(results[name][0])
        post_all = name == "post-all"

        def want(xa, xb, q):
            r, c = outs[q]
            use_post = post_all and fin_a[xa] and fin_b[xb]
            return model[(r, c)]["post" if use_post else "dequant"][code_a[xa][r] * 256 + code_b[xb][c]]
        # Output q of pair (xa, xb) at index (xa * 256 + xb) * nq + q.
        expected = [want(xa, xb, q) for xa in range(256) for xb in range(256) for q in range(nq)]
        for at in differing(got, expected):
            xa, xb, q = at // nq >> 8, at // nq & 255, at % nq
            counts[name] += 1
            if len(problems) < 40:
                problems.append("%s k=%d matmul %s %s: xa=%d xb=%d output %d (row %d, column %d) got %s, "
                                "want 0x%08X" % (fmt, k, layout, name, xa, xb, q, outs[q][0], outs[q][1],
                                                 hex_or_missing(got, at), expected[at]))
    summary = dict(layout=layout, outputs=nq, pairs=mx.NUM_PAIRS, mismatches=counts, seconds=round(time.time() - t0, 1))
    what = {"mk": "a 2x%d times %dx3 matmul tile" % (k, k),
            "km": "a 2x%d (held transposed, (k, i)) times %dx3 matmul tile" % (k, k),
            "ct": "a 2x%d times %dx3 matmul tile into its transpose ((j, i))" % (k, k),
            "batch": "a batch of 2 2x%d times %dx2 matmuls ((b, i, j, k))" % (k, k)}[layout]
    print("%s k=%d as %s (vector.contract) from %s, row codes (xa + %d r), column codes (xb + %d c) mod 256: "
          "%d code pairs x %d outputs; mismatches: original %d, rewritten %d, post-all %d (%.0f s)" % (
              fmt, k, what, acc, mx.TILE_ROW_STEP, mx.WIDE_STEP_B, mx.NUM_PAIRS, nq, counts["original"],
              counts["rewritten"], counts["post-all"], summary["seconds"]))
    return summary, problems


def check_kblocks(args, fmt, k):
    """The MX matmul with an explicit block dimension (mx.linalg_kblocks_driver_module: a
    linalg.generic over (i, j, kb, k), 2 x 2 outputs, 2 blocks of k) through the linalg
    pipeline with --mx-split-blocks before the pass in every variant (the split fixes one of the
    orders the op allows: each block from -0.0, then the blocks from the +0.0 accumulator in
    order); every (xa, xb). The model of output (i, j): the blocks' mxcert eval bits (seq k,
    dequant or post) added to +0.0 in order of kb."""
    t0 = time.time()
    work = mx.ensure_dir(os.path.join(args.workdir, "k%d-kblocks" % k))
    with open(table_path(args.tables, fmt, k, "keep", "+0")) as f:
        table = json.load(f)
    vectors = fewer(args, build_vectors(fmt, k, json.load(open(table_path(args.tables, fmt, k))), args.all_vectors,
                                        "ieee", args.quick))
    S = mx.sign_bit(fmt)
    a0, b0 = list(vectors[0][1]), list(vectors[0][2])
    b1 = list(vectors[min(1, len(vectors) - 1)][2])
    a_blocks = [[a0, a0[1:] + a0[:1]], [[c ^ S for c in a0], list(reversed(a0))]]  # [i][kb]
    b_blocks = [[b0, [S] * k], [list(reversed(b0)), b1]]  # [kb][j]
    m, n, nb = mx.KB_M, mx.KB_N, mx.KB_BLOCKS
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.linalg_kblocks_driver_module(fmt, k, a_blocks, b_blocks))
    post_all = write_post_all(work, table)
    trust = trust_options(args)
    placement = "--mx-scale-placement=" + trust

    def pipeline(p):  # the linalg pipeline, the split before the pass in every variant
        passes = mx.linalg_pipeline(p)
        at = passes.index("--canonicalize") + 1
        return passes[:at] + ["--mx-split-blocks"] + passes[at:]
    problems = []
    upto = pipeline(placement)
    remarks = mx.lower(args.mxcert_opt, src, os.path.join(work, "rewritten.mlir"), upto[:upto.index(placement) + 1])
    if "mx-split-blocks: split" not in remarks or "(for every element of the tile)" not in remarks:
        problems.append("expected a split and a runtime guard over the tile: %s" % remarks[:400])
    variants, results = run_three(args, work, src, placement, post_all, trust, 1, problems, pipeline)
    if results is None:
        return None, problems
    blocks = [(i, j, kb) for i in range(m) for j in range(n) for kb in range(nb)]
    model = {(i, j, kb): mx.model_bits(args.mxcert, fmt, fmt, k, a_blocks[i][kb], [b_blocks[kb][j][kk] for kk in range(k)],
                                       ("dequant", "post")) for i, j, kb in blocks}
    model = {blk: {p: canonical(bits) for p, bits in mb.items()} for blk, mb in model.items()}
    code_a = [[[mx.kblock_code_a(xa, i, kb) for kb in range(nb)] for i in range(m)] for xa in range(256)]
    code_b = [[[mx.kblock_code_b(xb, kb, j) for j in range(n)] for kb in range(nb)] for xb in range(256)]
    # post-all: one guard for the whole tile (every output and block).
    fin_a = [all(c <= 254 for row in codes for c in row) for codes in code_a]
    fin_b = [all(c <= 254 for blk in codes for c in blk) for codes in code_b]

    def expected_bits(post_all):
        """Output (i, j) of pair (xa, xb) at index (xa * 256 + xb) * m * n + i * n + j: the
        blocks' bits added to +0.0 in order of kb."""
        out = []
        for xa in range(256):
            for xb in range(256):
                p = "post" if post_all and fin_a[xa] and fin_b[xb] else "dequant"
                for i in range(m):
                    for j in range(n):
                        total = 0
                        for kb in range(nb):
                            total = mx.f32_add_bits(total, model[(i, j, kb)][p][code_a[xa][i][kb] * 256 +
                                                                              code_b[xb][kb][j]])
                        out.append(total)
        return canonical(out)
    expected = {False: expected_bits(False), True: expected_bits(True)}  # original and rewritten: dequant
    counts = {name: 0 for name, _ in variants}
    for name, _ in variants:
        got = canonical(results[name][0])
        want = expected[name == "post-all"]
        for at in differing(got, want):
            xa, xb, i, j = at // (m * n) >> 8, at // (m * n) & 255, at % (m * n) // n, at % n
            counts[name] += 1
            if len(problems) < 40:
                problems.append("%s k=%d kblocks %s: xa=%d xb=%d output (%d, %d) got %s, want 0x%08X" % (
                    fmt, k, name, xa, xb, i, j, hex_or_missing(got, at), want[at]))
    summary = dict(outputs=m * n, blocks=nb, pairs=mx.NUM_PAIRS, mismatches=counts, seconds=round(time.time() - t0, 1))
    print("%s k=%d as a linalg.generic matmul over (i, j, kb, k), %dx%d outputs, %d blocks, split by --mx-split-blocks, "
          "block codes (xa + %d i + %d kb, xb + %d kb + %d j) mod 256: %d code pairs; mismatches: original %d, rewritten "
          "%d, post-all %d (%.0f s)" % (fmt, k, m, n, nb, mx.TILE_ROW_STEP, mx.WIDE_STEP_B, mx.WIDE_STEP_B,
                                        mx.TILE_ROW_STEP, mx.NUM_PAIRS, counts["original"], counts["rewritten"],
                                        counts["post-all"], summary["seconds"]))
    return summary, problems


WIDE_BLOCKS = 4


def check_wide(args, fmt, k):
    """The wide-K kernels (WIDE_BLOCKS blocks of K: @wide_slices over one vector, @wide_loop
    an scf.for over the blocks, @wide_contract one vector.contract over all of them that
    --mx-split-blocks splits, in every variant, into the blocks summed in order, @wide_tile the
    same as a 1-row tile whose K it reshapes into the blocks) through the three lowerings;
    returns (summary, problems)."""
    t0 = time.time()
    nb = WIDE_BLOCKS
    work = mx.ensure_dir(os.path.join(args.workdir, "k%d-wide" % k))
    with open(table_path(args.tables, fmt, k)) as f:
        table = json.load(f)
    vectors = fewer(args, build_vectors(fmt, k, table, args.all_vectors, "ieee", args.quick))
    # Block j of a and of b: the test vector, rotated, negated, reversed (a), and b, b
    # reversed, b rotated, b negated.
    S = mx.sign_bit(fmt)
    kernels = [([list(a), a[1:] + a[:1], [c ^ S for c in a], list(reversed(a))],
                [list(b), list(reversed(b)), b[2:] + b[:2], [c ^ S for c in b]]) for _, a, b in vectors]
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(mx.wide_driver_module(fmt, k, nb, kernels))
    post_all = write_post_all(work, table)
    trust = trust_options(args)
    placement = "--mx-scale-placement=" + trust
    problems = []
    remarks = mx.lower(args.mxcert_opt, src, os.path.join(work, "rewritten.mlir"), ["--mx-split-blocks", placement])
    if remarks.count("inserted a runtime guard") != 2 * nb + 2 or remarks.count("mx-split-blocks: split") != 2:
        problems.append("expected %d runtime guards (one per block of @wide_slices and of the split @wide_contract, one "
                        "in @wide_loop, one for the split @wide_tile) and two splits, the remarks report %d and %d" % (
                            2 * nb + 2, remarks.count("inserted a runtime guard"), remarks.count("mx-split-blocks: split")))

    def pipeline(p):  # every variant splits @wide_contract into its blocks first
        return ["--mx-split-blocks"] + ([p] if p else []) + ["--mx-to-llvm"]
    variants, results = run_three(args, work, src, placement, post_all, trust, len(kernels), problems, pipeline)
    if results is None:
        return None, problems
    t_jit = time.time() - t0
    jobs = [(v, j) for v in range(len(kernels)) for j in range(nb)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        models = list(ex.map(lambda vj: mx.model_bits(args.mxcert, fmt, fmt, k, kernels[vj[0]][0][vj[1]],
                                                      kernels[vj[0]][1][vj[1]], ("dequant", "post")), jobs))
    model = {job: {p: canonical(bits) for p, bits in m.items()} for job, m in zip(jobs, models)}
    codes = [[(mx.wide_code(xa, j, mx.WIDE_STEP_A), mx.wide_code(xb, j, mx.WIDE_STEP_B)) for j in range(nb)]
             for xa in range(256) for xb in range(256)]  # [xa * 256 + xb][block]

    def block_sums(v, post_all):
        """The blocks' sums in order, from -0.0 (the loop, the split contract's and tile's
        accumulators) or from block 0: the same; one per pair. post_all: each block's guard
        takes post where its codes are finite."""
        out = []
        for pair in codes:
            total = 0x80000000
            for j, (ca, cb) in enumerate(pair):
                post = post_all and ca <= 254 and cb <= 254
                total = mx.f32_add_bits(total, model[(v, j)]["post" if post else "dequant"][ca * 256 + cb])
            out.append(total)
        return canonical(out)
    functions = ("slices", "loop", "split contract", "split tile")
    counts = {name: 0 for name, _ in variants}
    for v in range(len(kernels)):
        dequant = block_sums(v, False)
        post_all = block_sums(v, True)
        for name, _ in variants:
            got = canonical(results[name][v])
            # The four functions of pair (xa, xb) at 4 (xa * 256 + xb) + f. The split tile's blocks
            # (k + 1 leaves, any order) do not fit post-all's every-pair k-leaf seq table, so
            # they stay dequant there (the rewritten variant guards them with the certified
            # k + 1 any table).
            sums = post_all if name == "post-all" else dequant
            expected = [dequant[p] if f == 3 else sums[p] for p in range(mx.NUM_PAIRS) for f in range(4)]
            for at in differing(got, expected):
                xa, xb, which = at // 4 >> 8, at // 4 & 255, functions[at % 4]
                counts[name] += 1
                if len(problems) < 40:
                    problems.append("%s k=%d wide (%d blocks, %s) %s vector %s: xa=%d xb=%d got %s, "
                                    "want 0x%08X" % (fmt, k, nb, which, name, vectors[v][0], xa, xb,
                                                     hex_or_missing(got, at), expected[at]))
    summary = dict(vectors=len(kernels), blocks=nb, pairs=mx.NUM_PAIRS, mismatches=counts,
                   seconds=dict(lower_and_jit=round(t_jit, 1), total=round(time.time() - t0, 1)))
    print("%s wide K = %d x %d (slices of one vector, an scf.for, one vector.contract and a 1-row tile split into its "
          "blocks), block codes (xa + %d j, xb + %d j) mod 256: %d kernels x %d code pairs x 4 functions; mismatches: original %d, rewritten %d, post-all %d (%.0f s)" % (
              fmt, nb, k, mx.WIDE_STEP_A, mx.WIDE_STEP_B, len(kernels), mx.NUM_PAIRS, counts["original"],
              counts["rewritten"], counts["post-all"], summary["seconds"]["total"]))
    return summary, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--format", required=True, choices=sorted(mx.FORMATS))
    ap.add_argument("--b-format", choices=sorted(mx.FORMATS),
                    help="b's element format (default: --format's); SPEC \u00a78's form and the 1-D "
                         "reduction forms only, with a committed table of that pair in --tables")
    ap.add_argument("--k", default="1,2,32",
                    help="the vector lengths, each K or K:FORM:ACC, FORM one of %s and ACC +0 or -0 "
                         "(the op that sums the products and its zero accumulator; default: SPEC \u00a78's "
                         "vector.reduction without one)" % ", ".join(mx.FORMS[1:]))
    ap.add_argument("--scale-form", default="scalar", choices=mx.SCALE_FORMS,
                    help="how the block scales are written: a broadcast f8E8M0FNU scalar (SPEC §8), "
                         "a broadcast vector<1xf8E8M0FNU>, or a broadcast i8 bitcast to f8E8M0FNU")
    ap.add_argument("--mxcert-opt", required=True)
    ap.add_argument("--mxcert", required=True)
    ap.add_argument("--mlir-runner", required=True)
    ap.add_argument("--runner-libs", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--opt", default="-O2", help="mlir-runner optimization level")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--all-vectors", action="store_true",
                    help="for k > 2 too, use every vector (slower; ctest uses the default set)")
    ap.add_argument("--quick", action="store_true",
                    help="fewer vectors: the first 3 witnesses, all-max, all-min-subnormal, alternating "
                         "signs, negative zeros, all-one, one random vector and the format's specials (the "
                         "other forms and --denormal: the first witness, all-max, all-min-subnormal, negative "
                         "zeros, all-one and the specials)")
    ap.add_argument("--json", help="write the summary here (default: WORKDIR/summary.json)")
    ap.add_argument("--denormal", default="ieee", choices=sorted(mx.DENORMAL_MODES),
                    help="the f32 denormal environment the code runs in (x86 MXCSR; needs --fpenv-lib)")
    ap.add_argument("--fpenv-lib", help="the shared library of exec/fpenv.cpp (for --denormal ftz|daz)")
    ap.add_argument("--nvfp4", action="store_true",
                    help="NVFP4 blocks (e2m1 elements, f8E4M3FN scales) at K = 16 with the committed certs/nvfp4 "
                         "set instead of --k (check_nvfp4; --format must be e2m1)")
    args = ap.parse_args()
    if args.nvfp4:
        if args.format != "e2m1" or args.b_format or args.denormal != "ieee":
            ap.error("--nvfp4 takes --format e2m1 only, in the ieee environment")
        mx.ensure_dir(args.workdir)
        summary, problems = check_nvfp4(args)
        for p in problems:
            print("MISMATCH " + p if "got" in p else "PROBLEM " + p)
        if summary:
            m = summary["mismatches"]
            print("nvfp4 k=16, scales as %s: %d vectors x %d code pairs (%d of them outside the tables' codes, "
                  "compared with the original lowering) + %d constant-scale pairs, %d rewritten statically; mismatches: "
                  "original %d, rewritten %d, post-all %d (%.0f s: lower+JIT %.0f)" % (
                      args.scale_form, summary["vectors"], summary["pairs"],
                      summary["outside_table_compared"]["rewritten"] // summary["vectors"], summary["static_pairs"],
                      summary["static_rewritten"], m["original"], m["rewritten"], m["post-all"],
                      summary["seconds"]["total"], summary["seconds"]["lower_and_jit"]))
            with open(args.json or os.path.join(args.workdir, "summary.json"), "w") as f:
                json.dump({"nvfp4-k16": summary}, f, indent=1)
        failed = summary is None or bool(problems)
        print("FAIL" if failed else "PASS")
        return 1 if failed else 0
    if args.denormal != "ieee":
        if platform.machine().lower() not in ("x86_64", "amd64"):
            print("SKIP: --denormal %s sets the x86 MXCSR; this host is %s" % (args.denormal, platform.machine()))
            return 77
        if not args.fpenv_lib:
            ap.error("--denormal %s needs --fpenv-lib" % args.denormal)
    mx.ensure_dir(args.workdir)
    failed = False
    all_summaries = {}
    for spec in args.k.split(","):
        ks, _, form_text = spec.partition(":")
        k = int(ks)
        try:
            form, acc = mx.parse_form(form_text or "reduction")
        except ValueError as e:
            ap.error("--k %s: %s" % (spec, e))
        if form in ("contract-tile", "contract-rows", "linalg", "linalg-memref", "linalg-kblocks", "wide") or \
                form in MATMUL_FORMS:
            if args.b_format and args.b_format != args.format:
                ap.error("--k %s: --b-format is for the 1-D forms only" % spec)
            if args.denormal != "ieee":
                ap.error("--k %s: %s runs in the ieee environment only" % (spec, form))
            summary, problems = (check_wide(args, args.format, k) if form == "wide"
                                 else check_kblocks(args, args.format, k) if form == "linalg-kblocks"
                                 else check_matmul(args, args.format, k, acc, MATMUL_FORMS[form])
                                 if form in MATMUL_FORMS
                                 else check_tile(args, args.format, k, acc,
                                                 view={"linalg": "linalg", "linalg-memref": "linalg-memref",
                                                       "contract-rows": "rows"}.get(form, "tile")))
            for p in problems:
                print("MISMATCH " + p if "got" in p else "PROBLEM " + p)
            failed = failed or summary is None or bool(problems)
            if summary:
                all_summaries["k%d-%s%s" % (k, form, acc or "")] = summary
            continue
        summary, problems = check_one(args, args.format, k, form, acc)
        for p in problems:
            print("MISMATCH " + p if "got" in p else "PROBLEM " + p)
        if summary is None or problems:
            failed = True
        if summary:
            all_summaries["k%d" % k if form == "reduction" else "k%d-%s%s" % (k, form, acc)] = summary
            m, s = summary["mismatches"], summary["static_mismatches"]
            wrong = (", the ieee table's rewrite (must differ) %d + %d constant" % (m["wrong-mode"], s["wrong-mode"])
                     if "wrong-mode" in m else "")
            print("%s k=%d%s, scales as %s, denormal mode %s: %d vectors x %d code pairs (+ %d constant-scale pairs, %d rewritten statically); "
                  "mismatches: original %d, rewritten %d, post-all %s; constant scales: original %d, rewritten %d, "
                  "post-all %s%s (%.0f s: lower+JIT %.0f, model %.0f)" % (args.format if not args.b_format else args.format + " x " + args.b_format, k, "" if form == "reduction" else " as %s with accumulator %s" % (form, acc), args.scale_form, args.denormal, summary["vectors"], summary["pairs"], summary["static_pairs"],
                                   summary["static_rewritten"], m["original"], m["rewritten"], m.get("post-all", "not run"),
                                   s["original"], s["rewritten"], s.get("post-all", "not run"), wrong,
                                   summary["seconds"]["total"], summary["seconds"]["lower_and_jit"],
                                   summary["seconds"]["model"]))
    with open(args.json or os.path.join(args.workdir, "summary.json"), "w") as f:
        json.dump(all_summaries, f, indent=1)
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
