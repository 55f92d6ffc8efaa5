#!/usr/bin/env bash
# tests/cli/test_any.sh — `--tree any` end to end (issue 12, docs/bounds.md "Every reduction
# order"), on MXFP4 (e2m1, f32 rne keep):
#  * table: k = 2 gives SPEC §7's set (every tree over two leaves is (0 1)); k = 32 bitwise
#    gives e in [-147, 117] (seq's U, one below pairwise's 118) with every proof an induction
#    step, every witness naming its tree; the exhaustive engine's any-order table (k = 4) equals
#    the solver's; any:2 at k = 4;
#  * prove, cex, bound and emit-smt2 with --tree any; the counterexample's replay line (with
#    the witness's tree) really gives two different bit patterns;
#  * check: the certificate holds; tampering with a witness's tree, a step or an invariant is
#    caught (exit 1), schema violations are exit 2;
#  * export names the table "any" and the MLIR attribute says tree "any";
#  * a fixed tree (k = 8 seq) proven by the every-tree induction (the default --proof auto)
#    has --proof unrolled's agree set; check accepts it and rejects it without its root step;
#  * a fused tree (k = 8) proven by its own class's four steps (no node step), with
#    --proof unrolled's agree set; check accepts it and rejects an added node step;
#  * post2/post any at k = 4 (f32, bf16): solver = exhaustive, the certificate checks;
#  * bad input: any:0, any:1, any:x, any:65 exit 2; nvfp4 refused; eval refuses;
#    --proof x, --proof unrolled with --tree any or with --engine exhaustive exit 2.
# Usage: test_any.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

CFG=(--format mxfp4 --lhs pre --rhs post)

contains() {
  if grep -qF -- "$1" "$OUT"; then ok; else fail "$2: output lacks '$1': $(head -c 600 "$OUT")"; fi
}
err_contains() {
  if grep -qF -- "$1" "$ERR"; then ok; else fail "$2: stderr lacks '$1': $(head -c 600 "$ERR")"; fi
}

# --- table -----------------------------------------------------------------------------------
run table "${CFG[@]}" --k 2 --tree any --json
expect_rc 0 "table k=2 any"
py "k=2 any: SPEC §7's set, proofs are steps, witnesses name trees" '
import json, sys
c = json.load(open(sys.argv[1]))
assert c["config"]["tree"] == "any", c["config"]
assert [(r["e"]) for r in c["agree"]] == [[-147, 122]], c["agree"]
steps = sorted(p["step"] for p in c["proofs"])
assert steps == ["add", "leaf", "root", "start"], steps
assert all(p["invariant"]["mode"] == "scaled" and p["invariant"]["base"] == "rhs" for p in c["proofs"])
assert all(w["tree"] == "(0 1)" for w in c["witnesses"]), [w.get("tree") for w in c["witnesses"]]
'

run table "${CFG[@]}" --k 32 --tree any -o "$TMP/k32.json"
expect_rc 0 "table k=32 any"
contains "agree: 49794 of 65025 code pairs, 1 region(s)" "k=32 any bitwise"
contains "xa:0..254,xb:0..254,e:-147..117" "k=32 any region"
contains "tree=any" "k=32 header"
py "k=32 any: five steps, witness trees of 32 leaves" '
import json, sys, re
c = json.load(open(sys.argv[1].replace("out", "k32.json")))
assert sorted(p["step"] for p in c["proofs"]) == ["add", "leaf", "node", "root", "start"]
for w in c["witnesses"]:
    leaves = sorted(int(x) for x in re.findall(r"\d+", w["tree"]))
    assert leaves == list(range(32)), w["tree"]
'
cp "$OUT" "$TMP/k32.txt"

# The fixed trees: pairwise agrees one step further up, seq exactly as any.
run table "${CFG[@]}" --k 32 --tree pairwise
contains "e:-147..118" "pairwise k=32 reaches 118"

run table "${CFG[@]}" --k 4 --tree any --relation value --engine exhaustive --json -o "$TMP/ex4.json"
expect_rc 0 "exhaustive any k=4"
run table "${CFG[@]}" --k 4 --tree any --relation value --json -o "$TMP/so4.json"
expect_rc 0 "solver any k=4"
python3 - "$TMP/ex4.json" "$TMP/so4.json" <<'EOF' && ok || fail "exhaustive and solver any-order tables differ at k = 4"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["agree"] == b["agree"], (a["agree"], b["agree"])
assert a["stats"]["trees"] == 5, a["stats"]
EOF

run table "${CFG[@]}" --k 4 --tree any:2 --json
expect_rc 0 "any:2"
py "any:2: config and binary witness trees" '
import json, sys, re
c = json.load(open(sys.argv[1]))
assert c["config"]["tree"] == "any:2", c["config"]
for w in c["witnesses"]:
    stack = []
    for tok in re.findall(r"\(|\)|\d+", w["tree"]):
        if tok == "(":
            stack.append(0)
        elif tok == ")":
            assert stack.pop() == 2, w["tree"]
            if stack: stack[-1] += 1
        elif stack:
            stack[-1] += 1
'
run table "${CFG[@]}" --k 4 --tree any:9 --json
py "any:9 at k = 4 is any" 'import json,sys; assert json.load(open(sys.argv[1]))["config"]["tree"] == "any"'

# --- prove, cex, bound, emit-smt2 ------------------------------------------------------------
run prove "${CFG[@]}" --k 32 --tree any --guard "e:-147..117"
expect_rc 0 "prove any inside"
contains "for every tree: 5 induction steps" "prove any: steps"
run prove "${CFG[@]}" --k 32 --tree any --guard "e:-147..118"
expect_rc 1 "prove any one step too far"
contains "tree = " "prove any refuted: names the tree"
line=$(grep -m1 '  replay: mxcert eval' "$OUT" | sed 's/^  replay: mxcert //')
eval "\"\$MX\" $line --json" >"$TMP/replay" 2>"$TMP/replay.err"
python3 - "$TMP/replay" <<'EOF' && ok || fail "the any-order counterexample does not replay"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["related"] == {"pre~post": False}, r
EOF
run cex "${CFG[@]}" --k 32 --tree any --xa 127 --xb 245
expect_rc 1 "cex any at e = 118"
contains "tree = " "cex any names its tree"
run cex "${CFG[@]}" --k 32 --tree any --xa 127 --xb 244 --json
expect_rc 0 "cex any at e = 117 agrees"
py "cex any agree json" 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "agree", d'
run bound "${CFG[@]}" --k 32 --tree any
expect_rc 0 "bound any"
contains "U = 117" "bound any: U"
contains "certified: sound and tight" "bound any certified"
run bound "${CFG[@]}" --k 32 --tree any --acc bf16
expect_rc 3 "bound any bf16: no closed form for every tree"
run emit-smt2 "${CFG[@]}" --k 32 --tree any --guard "e:-147..117" --step root
expect_rc 0 "emit-smt2 any root"
contains "induction step 'root'" "emit-smt2 step header"
contains "tree=any" "emit-smt2 config line"
run emit-smt2 "${CFG[@]}" --k 32 --tree any --guard "e:-147..117"
expect_rc 2 "emit-smt2 any without --step"
run emit-smt2 "${CFG[@]}" --k 2 --tree any --guard "e:-147..117" --step node
expect_rc 2 "emit-smt2 node step at k = 2"
err_contains "expected one of leaf, root, start, add for k = 2" "emit-smt2 node k=2 message"
run emit-smt2 "${CFG[@]}" --k 4 --tree seq --guard "e:-147..117" --step node
expect_rc 2 "--step without --tree any"

# --- check and tampering -----------------------------------------------------------------------
run check "$TMP/k32.json"
expect_rc 0 "check any k=32"
contains "induction step proof(s)" "check: proof coverage wording"
contains "(root step, invariant scaled" "check: per-step claim"

tamper() {  # NAME EXPECTED-RC PYTHON-MUTATION (on c)
  python3 - "$TMP/k32.json" "$TMP/t.json" "$3" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(c, open(sys.argv[2], "w"))
EOF
  run check "$TMP/t.json"
  expect_rc "$2" "tamper: $1"
}
tamper "a witness on a tree where its inputs agree" 1 'w = c["witnesses"]; i = [j for j in range(len(w)) if any(r["e"][0] <= 118 <= r["e"][1] for r in w[j]["refutes"])][0]; w[i]["tree"] = "(" + " ".join(str(j) for j in range(32)) + ")"'
tamper "a witness without its tree" 2 'del c["witnesses"][0]["tree"]'
tamper "a witness tree with 31 leaves" 2 'c["witnesses"][0]["tree"] = "(" + " ".join(str(j) for j in range(31)) + ")"'
tamper "a proof without its step" 2 'del c["proofs"][0]["step"]'
tamper "a node step missing" 1 'c["proofs"] = [p for p in c["proofs"] if p["step"] != "node"]; c["region_proofs"] = [[0, 1, 2, 3]]'
tamper "a wider unit" 1 'c["proofs"][0]["invariant"]["unit"] = "145"'
tamper "a step renamed" 1 'c["proofs"][1]["step"], c["proofs"][2]["step"] = c["proofs"][2]["step"], c["proofs"][1]["step"]'
tamper "a root1 step at k = 32" 2 'c["proofs"][1]["step"] = "root1"'
tamper "the tree spelled any:32" 2 'c["config"]["tree"] = "any:32"'
# The invariant without infinities (docs/bounds.md): recorded as "no_inf": true; a claim that
# the steps were of that invariant does not match the queries proven; a non-boolean is a
# schema error naming the field.
tamper "no_inf claimed for every step" 1 'for p in c["proofs"]: p["invariant"]["no_inf"] = True'
tamper "no_inf not a boolean" 2 'c["proofs"][0]["invariant"]["no_inf"] = "yes"'
err_contains "invariant.no_inf: expected true or false" "no_inf schema message"

# emit-smt2 names the invariant: scaled-noinf where no element is an infinity.
run emit-smt2 --format mxfp4 --lhs post2 --rhs post --acc f16 --k 1 --tree any --guard "xa:105..132,xb:0..102" \
  --step root1 --invariant scaled-noinf --encoding lia
expect_rc 0 "emit-smt2 scaled-noinf"
contains "invariant scaled, base post, grid 2^-2, unit 144, no infinities" "emit-smt2 scaled-noinf header"
run emit-smt2 --format mxfp4 --lhs post2 --rhs post --acc f16 --k 1 --tree any --guard "xa:105..132,xb:0..102" \
  --step root1 --invariant zero --encoding lia
expect_rc 2 "emit-smt2 no zero invariant for post2"
err_contains "expected scaled or scaled-noinf for post2/post" "emit-smt2 invariant names"
# zero-noinf: mode zero without infinities, where post2 is the base beside dequant.
run emit-smt2 --format mxfp4 --lhs post2 --rhs dequant --relation value --acc f16 --subnormals ftz --k 2 --tree any \
  --guard "xa:0..112,xb:0..112" --step root --invariant zero-noinf --encoding lia
expect_rc 0 "emit-smt2 zero-noinf"
contains "invariant zero, base post2, grid 2^-2, unit 144, no infinities" "emit-smt2 zero-noinf header"

# --- export and consumers ----------------------------------------------------------------------
run export "$TMP/k32.json" --as json
expect_rc 0 "export any json"
py "export any json" 'import json,sys; d=json.load(open(sys.argv[1])); assert d["config"]["tree"] == "any" and d["format"] == "mxcert-guard-table", d'
run export "$TMP/k32.json" --as cpp
contains "mx_e2m1xe2m1_f32_rne_keep_k32_any_pre_post_bitwise" "export cpp name"
run export "$TMP/k32.json" --as mlir
contains 'mxcert.tree = "any"' "export mlir tree attribute"

# --- fixed trees proven for every tree (docs/solver.md) -------------------------------------------
# k = 8 seq: the default (--proof auto) proves the region with the every-tree induction; the
# same table by the unrolled query only; the check accepts the steps for the one tree and
# rejects the certificate without its root step.
run table "${CFG[@]}" --k 8 --tree seq -o "$TMP/fx.json"
expect_rc 0 "fixed tree, --proof auto"
contains "induction steps: proven for a class of trees holding this one" "fixed tree summary"
run table "${CFG[@]}" --k 8 --tree seq --proof unrolled -o "$TMP/fxu.json"
expect_rc 0 "fixed tree, --proof unrolled"
py "auto and unrolled: one agree set; steps only in auto" '
import json, sys
a = json.load(open("'"$TMP"'/fx.json")); u = json.load(open("'"$TMP"'/fxu.json"))
assert a["agree"] == u["agree"], (a["agree"], u["agree"])
assert a["config"]["tree"] == u["config"]["tree"] != "any"
assert a["proofs"] and all("step" in p and "invariant" in p for p in a["proofs"]), a["proofs"]
assert sorted(p["step"] for p in a["proofs"]) == ["add", "leaf", "node", "root", "start"]
assert a["stats"]["induction_regions"] == 1, a["stats"]
assert not any("step" in p for p in u["proofs"]) and u["stats"]["induction_regions"] == 0
'
run check "$TMP/fx.json"
expect_rc 0 "check fixed tree proven by steps"
contains "it agrees for every tree of the induction's class, which holds this one" "check report names the steps"
python3 - "$TMP/fx.json" "$TMP/fx-noroot.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
i = next(i for i, p in enumerate(c["proofs"]) if p["step"] == "root")
del c["proofs"][i]
c["region_proofs"] = [[j - (j > i) for j in l if j != i] for l in c["region_proofs"]]
json.dump(c, open(sys.argv[2], "w"))
EOF
run check "$TMP/fx-noroot.json"
expect_rc 1 "fixed tree without its root step"
contains "without a proof" "missing root step named"
# k = 8 fused: the class is the tree itself (every child of the root is a leaf): four steps, no
# node step; the same agree set as the unrolled query; a node step added to the certificate is
# a false claim (no tree of the class has a non-root inner node).
run table "${CFG[@]}" --k 8 --tree fused -o "$TMP/fu.json"
expect_rc 0 "fused tree, --proof auto"
contains "4 of them induction steps: proven for a class of trees holding this one" "fused tree summary"
run table "${CFG[@]}" --k 8 --tree fused --proof unrolled -o "$TMP/fuu.json"
expect_rc 0 "fused tree, --proof unrolled"
py "fused: auto and unrolled: one agree set; four steps per region, none a node step" '
import json, sys
a = json.load(open("'"$TMP"'/fu.json")); u = json.load(open("'"$TMP"'/fuu.json"))
assert a["agree"] == u["agree"], (a["agree"], u["agree"])
steps = [p["step"] for p in a["proofs"] if "step" in p]
assert steps and "node" not in steps, steps
assert len(steps) == 4 * a["stats"]["induction_regions"] and a["stats"]["induction_regions"] >= 1, a["stats"]
'
run check "$TMP/fu.json"
expect_rc 0 "check fused tree proven by its four steps"
python3 - "$TMP/fu.json" "$TMP/fu-node.json" <<'EOF'
import copy, json, sys
c = json.load(open(sys.argv[1]))
i = next(i for i, p in enumerate(c["proofs"]) if p.get("step") == "start")
extra = copy.deepcopy(c["proofs"][i])
extra["step"] = "node"
c["proofs"].append(extra)
j = next(j for j, l in enumerate(c["region_proofs"]) if i in l)
c["region_proofs"][j].append(len(c["proofs"]) - 1)
json.dump(c, open(sys.argv[2], "w"))
EOF
run check "$TMP/fu-node.json"
expect_rc 1 "fused tree with a node step"
contains "a proof of step node, which the induction over k = 8 leaves with every child of the root a leaf does not have" "node step refused"
for bad in "--proof x|--proof: expected auto or unrolled" "--proof unrolled --tree any|an any-order table is proven by the induction only" \
           "--proof auto --engine exhaustive|--proof: only with --engine solver"; do
  # shellcheck disable=SC2086
  run table "${CFG[@]}" --k 8 ${bad%%|*}
  expect_rc 2 "${bad%%|*}"
  err_contains "${bad#*|}" "${bad%%|*} message"
done

# --- check --jobs: the same report whatever the number of parts side by side ------------------------
COMMITTED="$(dirname "$0")/../../certs/tables/e5m2xe5m2_f32_rne_keep_k32_any_dequant-post_value.json"
run check "$COMMITTED" --json --jobs 1
expect_rc 0 "check --jobs 1"
cp "$OUT" "$TMP/jobs1.json"
run check "$COMMITTED" --json --jobs 3
expect_rc 0 "check --jobs 3"
py "check --jobs 1 and --jobs 3 report the same claims" "
import json, re, sys
a = json.load(open('$TMP/jobs1.json')); b = json.load(open(sys.argv[1]))
# The details name the solvers' times (N.NNN s): those differ from run to run.
key = lambda r: [(c['claim'], c['status'], re.sub(r'[0-9.]+ s\\b', 'T s', c['detail'])) for c in r['claims']]
assert key(a) == key(b), 'claims differ'
assert len(a['claims']) == 15 and a['verdict'] == 'HOLDS', a['verdict']
assert (a['evaluations'], a['reproofs']) == (b['evaluations'], b['reproofs'])
"
for bad in 0 x -1 1000; do
  run check "$COMMITTED" --jobs "$bad"
  expect_rc 2 "check --jobs $bad"
  err_contains "--jobs" "check --jobs $bad message"
done

# --- bad input ----------------------------------------------------------------------------------
for t in any:0 any:1 any:x any:65 any: anyx; do
  run table "${CFG[@]}" --k 8 --tree "$t"
  expect_rc 2 "--tree $t"
  if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q -- "--tree" "$ERR"; then ok; else fail "--tree $t: not one line naming --tree: $(cat "$ERR")"; fi
done
# post2 (once refused here): its any-order table equals the exhaustive engine's over every
# tree at k = 4, in bf16 too, and its certificate checks.
for acc in f32 bf16; do
  run table --format mxfp4 --k 4 --tree any --lhs post2 --rhs post --acc $acc --engine exhaustive --json -o "$TMP/p2ex.json"
  expect_rc 0 "post2 any exhaustive $acc"
  run table --format mxfp4 --k 4 --tree any --lhs post2 --rhs post --acc $acc --json -o "$TMP/p2so.json"
  expect_rc 0 "post2 any solver $acc"
  python3 - "$TMP/p2ex.json" "$TMP/p2so.json" <<'EOF' && ok || fail "post2 any ($acc): exhaustive and solver tables differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["agree"] == b["agree"], (a["agree"], b["agree"])
assert b["agree_pairs"] < 65025, b["agree_pairs"]
EOF
  run check "$TMP/p2so.json"
  expect_rc 0 "check post2 any $acc"
done
# prove: e = 0..1 includes xa = 248, xb = 6, where rnd(T 2^121) overflows (refuted, exit 1);
# xa, xb in 100..150 stay clear of overflow and of the subnormal range (proven, exit 0).
run prove --format mxfp4 --k 8 --tree any --lhs post2 --rhs post --guard "e:0..1"
expect_rc 1 "prove post2 any, refuted"
contains "--placements post2,post" "prove post2 any: a replayable counterexample"
run prove --format mxfp4 --k 8 --tree any --lhs post2 --rhs post --guard "xa:100..150,xb:100..150"
expect_rc 0 "prove post2 any, proven"
contains "for every tree: 5 induction steps" "prove post2 any: the induction"
# A tree exponent of two values only (-10 and 5) in post2's mode-zero root step: comparisons
# the analysis decides from that value set are facts whose local copies need it (the
# abstraction's restriction, docs/solver.md). Unknown before ("a fact of the analysis fails").
run prove --a e2m1 --b e4m3 --acc f16 --round rtz --k 32 --lhs post2 --rhs dequant --relation value --tree any \
    --guard "xa:103..111,xb:103..111,e:-48..-40"
expect_rc 0 "prove post2/dequant any f16 rtz, a value-set abstraction"
contains "for every tree: 5 induction steps" "prove post2/dequant any f16 rtz: the induction"
# Mode zero with infinities as NaN (docs/bounds.md): e3m2 x e5m2 f16 rtz ftz post2/dequant
# value, xa <= 108 (dequant's a side flushes; an infinite b is NaN there, post2's infinity
# becomes NaN at the root). Unknown before: the plain invariants fail, the unrolled query is
# too large.
run emit-smt2 --a e3m2 --b e5m2 --acc f16 --round rtz --subnormals ftz --k 32 --tree any --lhs post2 --rhs dequant \
    --relation value --guard "xa:0..8,xb:113..121" --step leaf --invariant zero-infnan
expect_rc 0 "emit-smt2 zero-infnan"
contains "invariant zero, base post2, grid 2^-20, unit 68685922304, infinities as NaN" "emit-smt2 zero-infnan header"
run emit-smt2 --format mxfp4 --lhs post2 --rhs dequant --acc f16 --k 1 --tree any --guard "xa:105..132,xb:0..102" \
    --step root1 --invariant zero-infnan
expect_rc 2 "emit-smt2 zero-infnan where no element is an infinity"
err_contains "expected scaled or zero or scaled-noinf or zero-noinf" "emit-smt2 zero-infnan not offered"
run prove --a e3m2 --b e5m2 --acc f16 --round rtz --subnormals ftz --k 32 --tree any --lhs post2 --rhs dequant \
    --relation value --guard "xa:0..108,xb:0..112"
expect_rc 0 "prove post2/dequant any f16 ftz, infinities as NaN"
run table --format nvfp4 --tree any
expect_rc 2 "nvfp4 any"
run eval --format mxfp4 --k 2 --tree any --xa 1 --xb 2 --a-vals "1 1" --b-vals "1 1"
expect_rc 2 "eval any"
err_contains "eval evaluates one tree" "eval any message"

finish
