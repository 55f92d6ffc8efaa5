// src/cli/cmd_solve.cpp — `mxcert prove`, `cex`, `bound` and `emit-smt2`.
#include "certs/config_json.h"
#include "models/value_io.h"
#include "smt/encoder.h"
#include "smt/fp_encoder.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/engine/bounds.h"
#include "src/engine/solver_table.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <functional>
#include <iostream>
#include <fmt/core.h>

namespace mxcert::cli {

namespace {

/// Options shared by the solver commands.
std::set<std::string> solverOptions() {
  std::set<std::string> v = configOptions();
  v.insert({"lhs", "rhs", "relation", "solver", "timeout", "max-terms"});
  return v;
}

engine::PairQuery parseQuery(const Args &args) {
  ModelConfig cfg = parseConfig(args);
  if (cfg.nvfp4()) throw UsageError(kNvfp4OnlyTable);
  engine::PairQuery q{cfg, parsePlacementOpt(args, "lhs", Placement::Pre),
                      parsePlacementOpt(args, "rhs", Placement::Post), parseRelationOpt(args), nullptr, false, {}};
  // Every fact of the analysis is an obligation (docs/solver.md, "Obligations mode"); the
  // --obligations flag, once needed for this, is still accepted.
  q.obligations = true;
  if (cfg.anyOrder) {
    const std::string why = engine::anyOrderUnsupported(q);
    if (!why.empty()) throw NoAnyOrderProof("no order-independent proof for " + why);
  }
  return q;
}

/// The question of witness w: q itself, or, for an any-order q, q over the witness's tree.
engine::PairQuery witnessQuery(const engine::PairQuery &q, const engine::Witness &w) {
  return w.tree.empty() ? q : engine::withTree(q, Tree::parse(w.tree, q.cfg.k()));
}

std::unique_ptr<smt::Backend> backendFor(const Args &args) {
  auto b = smt::makeBackend(parseSolverOpt(args));
  if (!b) throw UsageError("solver not available in this build");
  return b;
}

std::string quoteArg(const std::string &s) {
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '/'))
      return "'" + s + "'";
  return s;
}

/// A counterexample in full: inputs, both results with bits, and the replay command.
std::string describeCex(const engine::PairQuery &q0, const engine::Witness &w) {
  const engine::PairQuery q = witnessQuery(q0, w);
  ConcreteInput in{w.a, w.b, unsigned(w.xa), unsigned(w.xb)};
  std::vector<CVal> r = evaluatePlacements(q.cfg, {q.lhs, q.rhs}, in);
  const AccFormat &af = q.cfg.acc.fmt;
  std::string av, bv, ac, bc;
  for (size_t i = 0; i < w.a.size(); ++i) {
    av += (i ? " " : "") + elementToString(q.cfg.a, w.a[i]);
    bv += (i ? " " : "") + elementToString(q.cfg.b, w.b[i]);
    ac += fmt::format("{}0x{:X}", i ? " " : "", w.a[i]);
    bc += fmt::format("{}0x{:X}", i ? " " : "", w.b[i]);
  }
  std::string t = "counterexample at xa=" + std::to_string(w.xa) + " xb=" + std::to_string(w.xb) +
                  " (e=" + std::to_string(w.xa + w.xb - 254) + "):\n";
  if (!w.tree.empty()) t += "  tree = " + w.tree + "   (one tree over the k terms on which they differ)\n";
  t += "  a = " + av + "   (codes " + ac + ")\n";
  t += "  b = " + bv + "   (codes " + bc + ")\n";
  t += std::string("  ") + toString(q.lhs) + " = " + toDecimal(r[0], af) + " (" + hexBits(encodeBits(r[0], af), af) + ")\n";
  t += std::string("  ") + toString(q.rhs) + " = " + toDecimal(r[1], af) + " (" + hexBits(encodeBits(r[1], af), af) + ")\n";
  t += "  replay: mxcert eval --a " + q.cfg.a.name + " --b " + q.cfg.b.name + " --acc " + af.name +
       " --round " + toString(q.cfg.acc.rounding) + " --subnormals " + toString(q.cfg.acc.subnormals) +
       " --k " + std::to_string(q.cfg.k()) + " --tree " + quoteArg(q.cfg.tree.sexpr()) + " --xa " +
       std::to_string(w.xa) + " --xb " + std::to_string(w.xb) + " --a-vals " + quoteArg(av) +
       " --b-vals " + quoteArg(bv) + " --placements " + toString(q.lhs) + "," + toString(q.rhs) +
       " --relation " + toString(q.rel) + "\n";
  return t;
}

/// A counterexample as JSON: codes, values, and both results (decimal and bits).
nlohmann::json cexJson(const engine::PairQuery &q0, const engine::Witness &w) {
  const engine::PairQuery q = witnessQuery(q0, w);
  ConcreteInput in{w.a, w.b, unsigned(w.xa), unsigned(w.xb)};
  std::vector<CVal> r = evaluatePlacements(q.cfg, {q.lhs, q.rhs}, in);
  const AccFormat &af = q.cfg.acc.fmt;
  nlohmann::json av = nlohmann::json::array(), bv = nlohmann::json::array();
  for (size_t i = 0; i < w.a.size(); ++i) {
    av.push_back(elementToString(q.cfg.a, w.a[i]));
    bv.push_back(elementToString(q.cfg.b, w.b[i]));
  }
  auto result = [&](const CVal &v) {
    return nlohmann::json{{"value", toDecimal(v, af)}, {"bits", hexBits(encodeBits(v, af), af)}};
  };
  nlohmann::json j = {{"xa", w.xa}, {"xb", w.xb}, {"e", w.xa + w.xb - 254}, {"a", w.a}, {"b", w.b},
                      {"a_values", av}, {"b_values", bv}, {toString(q.lhs), result(r[0])}, {toString(q.rhs), result(r[1])}};
  if (!w.tree.empty()) j["tree"] = w.tree;
  return j;
}

/// The head of every verdict document: schema, configuration, placements, relation.
nlohmann::json verdictDoc(const std::string &cmd, const engine::PairQuery &q) {
  return {{"schema", "mxcert-" + cmd}, {"schema_version", 1}, {"config", certs::configToJson(q.cfg)},
          {"lhs", toString(q.lhs)}, {"rhs", toString(q.rhs)}, {"relation", toString(q.rel)}};
}

/// The region of the single code pair (xa, xb).
Region pairRegion(int xa, int xb) {
  Region r;
  r.xa.lo = r.xa.hi = xa;
  r.xb.lo = r.xb.hi = xb;
  r.e.lo = r.e.hi = xa + xb - 254;
  return r;
}

/// Every leaf i fixed to the element codes (a[i], b[i]).
engine::LeafFix fixAll(const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  engine::LeafFix fixed;
  for (size_t i = 0; i < a.size(); ++i) fixed.emplace_back(std::make_pair(a[i], b[i]));
  return fixed;
}

/// The witness may come from the structured search (checked by the reference evaluator
/// only): also have the solver check it against the QF_LIA encoding with the inputs fixed (the
/// query `emit-smt2 --xa --xb --a-vals --b-vals` prints). An encoding that is unsat on an input
/// the evaluator confirms is a bug, reported as an internal error, never as an answer.
std::string liaCheck(const engine::PairQuery &q0, const engine::Witness &w, smt::Backend &b, double timeout) {
  const engine::PairQuery q = witnessQuery(q0, w);
  engine::RegionCheck c = engine::checkRegion(q, pairRegion(w.xa, w.xb), b, timeout, fixAll(w.a, w.b));
  if (c.verdict == smt::Verdict::Sat)
    return fmt::format("  QF_LIA check: sat with these inputs fixed ({} {}, {:.3f} s)\n", b.name(), b.version(),
                       c.seconds);
  if (c.verdict == smt::Verdict::Unsat)
    throw std::logic_error("the QF_LIA encoding is unsat on a counterexample the reference evaluator confirms");
  return "  QF_LIA check: unknown (" + c.reason + "); the reference evaluator confirms the counterexample\n";
}

/// The progress of prove and bound: code pairs decided (proven, refuted or left unknown) of
/// all the pairs the command asks about.
struct PairProgress {
  Progress &bar;
  long total = 0, done = 0;
  /// `n` more pairs decided.
  void add(long n) { bar.update(done += n, total); }
};

/// Proves a region, splitting it on timeouts. Returns kOk (proven), kRefuted (with the
/// counterexample in `cex`) or kUnknown; every decided part is added to `pp`.
int proveRegion(const engine::PairQuery &q, const Region &r, smt::Backend &b, double timeout,
                std::string &report, std::optional<engine::Witness> &cex, nlohmann::json &records,
                PairProgress &pp) {
  // A quick attempt at the whole region first (proofs are usually fast); when it does not
  // come back unsat, the structured counterexample search (candidate inputs confirmed by the
  // reference evaluator, then small queries with most leaves fixed, then the full query with
  // the full timeout) — a satisfiable query is much harder for the solver than finding a
  // witness this way.
  const double quick = std::min(timeout, 5.0);
  engine::RegionCheck rc;
  size_t steps = 0;
  if (q.cfg.anyOrder) {
    // Every tree: the induction (models/induction.h); else a witness on one tree.
    engine::InductionCheck ic = engine::proveAnyOrder(q, r, b, timeout);
    rc.verdict = ic.verdict;
    rc.reason = ic.reason.empty() ? "" : "no invariant carries over: " + ic.reason;
    rc.final = ic.final;
    for (const engine::ProofRecord &p : ic.steps) {
      rc.seconds += p.seconds;
      rc.proof.facts += p.facts;
      rc.proof.decisions += p.decisions;
      rc.proof.obligations = true;
    }
    steps = ic.steps.size();
  } else {
    rc = engine::checkRegion(q, r, b, quick);
  }
  const bool final = rc.final;  // memory exhausted or deadline passed: no split will help
  if (q.cfg.anyOrder && rc.verdict == smt::Verdict::Unknown && !final) {
    bool allUnsat = true;
    engine::CexSearch cs =
        engine::searchAnyOrderCounterexample(q, r, b, timeout, std::min(timeout, 5.0), true, allUnsat);
    if (cs.verdict == smt::Verdict::Sat) {
      cex = *cs.witness;
      records.push_back({{"region", certs::regionToJson(r)}, {"verdict", "sat"}});
      return kRefuted;
    }
    rc.reason += (rc.reason.empty() ? "" : "; ") + cs.reason;
  } else if (rc.verdict == smt::Verdict::Unknown) {
    engine::CexSearch cs = engine::searchCounterexample(q, r, b, timeout, std::min(timeout, 5.0), true);
    rc.verdict = cs.verdict;
    rc.reason = cs.reason;
    rc.seconds = cs.proof.seconds;
    rc.proof = cs.proof;
    if (cs.witness) {
      rc.cex = ConcreteInput{cs.witness->a, cs.witness->b, unsigned(cs.witness->xa), unsigned(cs.witness->xb)};
    }
  }
  if (rc.verdict == smt::Verdict::Unsat) {
    report += fmt::format("  {}: unsat ({} {}, {:.3f} s){}{}\n", r.str(), b.name(), b.version(), rc.seconds,
                          steps ? fmt::format("; for every tree: {} induction steps", steps) : "",
                          rc.proof.obligations
                              ? fmt::format("; proven by {}: the agreement and {} fact(s) of the analysis ({} "
                                            "decisions verified by arithmetic)",
                                            b.name(), rc.proof.facts, rc.proof.decisions)
                          : rc.proof.constantFalse ? "; the query is the constant false: decided by the encoder's "
                                                     "analysis, not by solver reasoning"
                                                   : "");
    records.push_back({{"region", certs::regionToJson(r)}, {"verdict", "unsat"}, {"solver", b.name()},
                       {"solver_version", b.version()}, {"seconds", rc.seconds},
                       {"constant_false", rc.proof.constantFalse}, {"obligations", rc.proof.obligations},
                       {"facts", rc.proof.facts}, {"decisions", rc.proof.decisions}});
    if (steps) records.back()["induction_steps"] = steps;
    pp.add(r.count());
    return kOk;
  }
  if (rc.verdict == smt::Verdict::Sat) {
    cex = engine::Witness{rc.cex->a, rc.cex->b, int(rc.cex->xa), int(rc.cex->xb), {}};
    records.push_back({{"region", certs::regionToJson(r)}, {"verdict", "sat"}});
    return kRefuted;
  }
  if (r.count() <= 1 || final || (q.budget && q.budget->passed())) {
    // A single pair, or splitting cannot help (deadline passed, memory exhausted).
    report += "  " + r.str() + ": unknown (" + rc.reason + ")\n";
    records.push_back({{"region", certs::regionToJson(r)}, {"verdict", "unknown"}, {"reason", rc.reason}});
    pp.add(r.count());
    return kUnknown;
  }
  Region lo = r, hi = r;
  if (r.e.hi > r.e.lo) {
    lo.e.hi = r.e.lo + (r.e.hi - r.e.lo) / 2;
    hi.e.lo = lo.e.hi + 1;
  } else if (r.xa.hi > r.xa.lo) {
    lo.xa.hi = r.xa.lo + (r.xa.hi - r.xa.lo) / 2;
    hi.xa.lo = lo.xa.hi + 1;
  } else {
    lo.xb.hi = r.xb.lo + (r.xb.hi - r.xb.lo) / 2;
    hi.xb.lo = lo.xb.hi + 1;
  }
  report += "  " + r.str() + ": unknown (" + rc.reason + "), split\n";
  const Region loT = lo.tightened(), hiT = hi.tightened();
  pp.add(r.count() - loT.count() - hiT.count());  // pairs the tightening dropped (none in practice)
  int a = proveRegion(q, loT, b, timeout, report, cex, records, pp);
  if (a == kRefuted) return a;
  int c = proveRegion(q, hiT, b, timeout, report, cex, records, pp);
  if (c == kRefuted) return c;
  return a == kOk && c == kOk ? kOk : kUnknown;
}

Guard parseGuardOpt(const Args &args) {
  try {
    return Guard::parse(args.require("guard"));
  } catch (const GuardError &e) {
    throw UsageError(std::string("--guard: ") + e.what());
  }
}

int codeOpt(const Args &args, const std::string &name) {
  try {
    return int(parseIntIn(args.require(name), 0, 254, "--" + name));
  } catch (const ValueError &e) {
    throw UsageError(std::string(e.what()) + " (code 255 is NaN on both sides)");
  }
}

}  // namespace

int cmdProve(int argc, char **argv) {
  std::set<std::string> valued = solverOptions();
  valued.insert("guard");
  Args args(argc, argv, 2, {"json", "progress", "quiet", "obligations"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q = parseQuery(args);
  Guard g = parseGuardOpt(args);
  Progress bar(args, "prove", "code pairs decided");
  PairProgress pp{bar};
  for (const Region &r : g.regions) pp.total += r.count();
  auto b = backendFor(args);
  const smt::Budget budget = parseBudget(args, 300);
  q.budget = &budget;
  const double timeout = budget.totalSeconds();
  std::string report = "# prove " + std::string(toString(q.lhs)) + " ~ " + toString(q.rhs) + " (" +
                       toString(q.rel) + ") on " + g.str() + "\n# " + describe(q.cfg) + "\n";
  nlohmann::json doc = verdictDoc("prove", q), records = nlohmann::json::array();
  doc["guard"] = certs::guardToJson(g);
  int worst = kOk;
  for (const Region &r : g.regions) {
    std::optional<engine::Witness> cex;
    int rc = proveRegion(q, r, *b, timeout, report, cex, records, pp);
    if (rc == kRefuted) {
      const std::string lia = liaCheck(q, *cex, *b, timeout);
      if (args.flag("json")) {
        doc["verdict"] = "refuted";
        doc["regions"] = records;
        doc["counterexample"] = cexJson(q, *cex);
        writeStdout(doc.dump(1) + "\n");
      } else {
        writeStdout(report + "refuted: " + r.str() + "\n" + describeCex(q, *cex) + lia);
      }
      return kRefuted;
    }
    if (rc == kUnknown) worst = kUnknown;
  }
  if (args.flag("json")) {
    doc["verdict"] = worst == kOk ? "proven" : "unknown";
    doc["regions"] = records;
    writeStdout(doc.dump(1) + "\n");
  } else {
    writeStdout(report + (worst == kOk ? "proven\n"
                                       : "unknown: some part is undecided (a timeout or a resource limit; never "
                                         "reported as proven)\n"));
  }
  return worst;
}

int cmdCex(int argc, char **argv) {
  std::set<std::string> valued = solverOptions();
  valued.insert({"xa", "xb"});
  Args args(argc, argv, 2, {"json"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q = parseQuery(args);
  const int xa = codeOpt(args, "xa"), xb = codeOpt(args, "xb");  // in this order (errors name xa first)
  const Region r = pairRegion(xa, xb);
  auto b = backendFor(args);
  const smt::Budget budget = parseBudget(args, 300);
  q.budget = &budget;
  const double timeout = budget.totalSeconds();
  engine::CexSearch cs;
  std::optional<engine::InductionCheck> induction;
  if (q.cfg.anyOrder) {
    // A witness on one tree refutes; agreement needs the induction (every tree).
    bool allUnsat = true;
    cs = engine::searchAnyOrderCounterexample(q, r, *b, timeout, std::min(timeout, 10.0), true, allUnsat);
    if (cs.verdict != smt::Verdict::Sat && !(q.budget && q.budget->passed())) {
      induction = engine::proveAnyOrder(q, r, *b, timeout);
      if (induction->verdict == smt::Verdict::Unsat) {
        cs.verdict = smt::Verdict::Unsat;
        for (const engine::ProofRecord &p : induction->steps) cs.proof.seconds += p.seconds;
      } else {
        cs.reason = "no witness on the trees tried (" + cs.reason + ") and no invariant carries over (" +
                    induction->reason + ")";
      }
    }
  } else {
    cs = engine::searchCounterexample(q, r, *b, timeout, std::min(timeout, 10.0), true);
  }
  nlohmann::json doc = verdictDoc("cex", q);
  doc["xa"] = xa;
  doc["xb"] = xb;
  const bool json = args.flag("json");
  if (cs.verdict == smt::Verdict::Sat) {
    const std::string lia = liaCheck(q, *cs.witness, *b, timeout);
    doc["verdict"] = "refuted";
    doc["counterexample"] = cexJson(q, *cs.witness);
    writeStdout(json ? doc.dump(1) + "\n" : describeCex(q, *cs.witness) + lia);
    return kRefuted;
  }
  if (cs.verdict == smt::Verdict::Unsat) {
    const std::string text =
        fmt::format("agree: {} ~ {} ({}) for every input{} at xa={} xb={} (proven: unsat, {} {}, {:.3f} s{})\n",
                    toString(q.lhs), toString(q.rhs), toString(q.rel), induction ? " and every tree" : "", r.xa.lo,
                    r.xb.lo, b->name(), b->version(), cs.proof.seconds,
                    induction ? fmt::format("; {} induction steps", induction->steps.size()) : "");
    doc["verdict"] = "agree";
    doc["proof"] = {{"solver", b->name()}, {"solver_version", b->version()}, {"seconds", cs.proof.seconds},
                    {"constant_false", cs.proof.constantFalse}};
    writeStdout(json ? doc.dump(1) + "\n" : text);
    return kOk;
  }
  doc["verdict"] = "unknown";
  doc["reason"] = cs.reason;
  writeStdout(json ? doc.dump(1) + "\n" : "unknown: " + cs.reason + "\n");
  return kUnknown;
}

int cmdBound(int argc, char **argv) {
  Args args(argc, argv, 2, {"json", "progress", "quiet"}, solverOptions());
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q = parseQuery(args);
  const bool json = args.flag("json");
  nlohmann::json doc = verdictDoc("bound", q);
  engine::ClosedForm cf = engine::closedForm(q);
  if (!cf.applies) {
    doc["verdict"] = "no closed form";
    doc["reason"] = cf.whyNot;
    writeStdout(json ? doc.dump(1) + "\n" : "no closed form covers this configuration: " + cf.whyNot + "\n");
    return kUnknown;
  }
  auto b = backendFor(args);
  const smt::Budget budget = parseBudget(args, 300);
  q.budget = &budget;
  const double timeout = budget.totalSeconds();
  std::string out = "# bound " + std::string(toString(q.lhs)) + " ~ " + toString(q.rhs) + " (" +
                    toString(q.rel) + ")\n# " + describe(q.cfg) + "\nformula: " + cf.formula + "\npredicted: " +
                    cf.guard.str() + "\nsoundness:\n";
  doc["formula"] = cf.formula;
  doc["predicted"] = certs::guardToJson(cf.guard);
  nlohmann::json soundness = nlohmann::json::array(), tightness = nlohmann::json::array();
  auto finish = [&](const char *verdict, const std::string &text) {
    doc["verdict"] = verdict;
    doc["soundness"] = soundness;
    doc["tightness"] = tightness;
    writeStdout(json ? doc.dump(1) + "\n" : text);
  };
  bool unknown = false;
  const std::vector<engine::TightnessPoint> points = engine::tightnessPoints(cf.guard);
  Progress bar(args, "bound", "code pairs decided");
  PairProgress pp{bar};
  for (const Region &r : cf.guard.regions) pp.total += r.count();
  for (const engine::TightnessPoint &tp : points) pp.total += tp.face.count();
  for (const Region &r : cf.guard.regions) {
    std::optional<engine::Witness> cex;
    int rc = proveRegion(q, r, *b, timeout, out, cex, soundness, pp);
    if (rc == kRefuted) {
      doc["counterexample"] = cexJson(q, *cex);
      finish("refuted", out + "refuted: the closed form is not sound on " + r.str() + "\n" + describeCex(q, *cex));
      return kRefuted;
    }
    if (rc == kUnknown) unknown = true;
  }
  out += "tightness (one step past each end):\n";
  for (const engine::TightnessPoint &tp : points) {
    engine::CexSearch cs;
    if (q.cfg.anyOrder) {
      bool allUnsat = true;
      cs = engine::searchAnyOrderCounterexample(q, tp.face, *b, timeout, std::min(timeout, 10.0), true, allUnsat);
      if (cs.verdict != smt::Verdict::Sat && allUnsat &&
          engine::proveAnyOrder(q, tp.face, *b, timeout).verdict == smt::Verdict::Unsat)
        cs.verdict = smt::Verdict::Unsat;  // the face agrees for every tree: not tight
    } else {
      cs = engine::searchCounterexample(q, tp.face, *b, timeout, std::min(timeout, 10.0));
    }
    pp.add(tp.face.count());
    if (cs.verdict == smt::Verdict::Sat) {
      const engine::Witness &w = *cs.witness;
      out += "  " + tp.name + ": refuted at xa=" + std::to_string(w.xa) + " xb=" + std::to_string(w.xb) + "\n";
      tightness.push_back({{"point", tp.name}, {"region", certs::regionToJson(tp.face)}, {"verdict", "refuted"},
                           {"counterexample", cexJson(q, w)}});
    } else if (cs.verdict == smt::Verdict::Unsat) {
      tightness.push_back({{"point", tp.name}, {"region", certs::regionToJson(tp.face)}, {"verdict", "agrees"}});
      finish("refuted", out + "refuted: not tight at " + tp.name + " (" + tp.face.str() +
                            " agrees for every input: proven unsat)\n");
      return kRefuted;
    } else {
      out += "  " + tp.name + ": unknown (" + cs.reason + ")\n";
      tightness.push_back({{"point", tp.name}, {"region", certs::regionToJson(tp.face)}, {"verdict", "unknown"},
                           {"reason", cs.reason}});
      unknown = true;
    }
  }
  finish(unknown ? "unknown" : "certified",
         out + (unknown ? "unknown: part of the certification is undecided (a timeout or a resource limit)\n"
                        : "certified: sound and tight\n"));
  return unknown ? kUnknown : kOk;
}

int cmdEmitSmt2(int argc, char **argv) {
  std::set<std::string> valued = solverOptions();
  valued.insert({"encoding", "xa", "xb", "e", "guard", "a-vals", "b-vals", "step", "invariant"});
  Args args(argc, argv, 2, {"obligations"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q = parseQuery(args);
  Region r;
  const bool pair = args.get("xa") || args.get("xb");
  const int chosen = int(pair) + int(bool(args.get("e"))) + int(bool(args.get("guard")));
  if (chosen > 1) throw UsageError("choose one of --xa/--xb, --e or --guard");
  if (pair) {
    const int xa = codeOpt(args, "xa"), xb = codeOpt(args, "xb");
    r = pairRegion(xa, xb);
  } else if (auto ev = args.get("e")) {
    if (!dependsOnEOnly(q.lhs) || !dependsOnEOnly(q.rhs))
      throw UsageError(std::string("--e needs placements that depend on e alone (pre, post); ") + toString(q.lhs) +
                       "/" + toString(q.rhs) + " depend on xa and xb: use --xa/--xb or --guard");
    try {
      r.e.lo = r.e.hi = int(parseIntIn(*ev, -254, 254, "--e"));
    } catch (const ValueError &e) {
      throw UsageError(e.what());
    }
  } else if (args.get("guard")) {
    Guard g = parseGuardOpt(args);
    if (g.regions.size() != 1) throw UsageError("--guard: emit-smt2 takes one region (one query)");
    r = g.regions[0];
  } else {
    throw UsageError("emit-smt2 needs a region: --xa/--xb, --e or --guard");
  }
  const std::string enc = args.get("encoding", "lia");
  const smt::Budget budget = parseBudget(args, 0);  // construction only (no solver runs)
  smt::Query sq{q.cfg, q.lhs, q.rhs, q.rel, r, {}, &budget, q.obligations, {}, {}, {}, {}};
  if (q.cfg.anyOrder) {
    // One step of the induction (models/induction.h) with one of the candidate invariants.
    const std::string st = args.require("step");
    auto step = parseInductionStep(st);
    const std::vector<InductionStep> need = inductionSteps(q.cfg);
    if (!step || std::find(need.begin(), need.end(), *step) == need.end()) {
      std::string names;
      for (InductionStep x : need) names += std::string(names.empty() ? "" : ", ") + toString(x);
      throw UsageError("--step: expected one of " + names + " for k = " + std::to_string(q.cfg.k()) + ", got '" + st + "'");
    }
    sq.step = step;
    const std::vector<Invariant> cands = engine::candidateInvariants(q);
    const std::string mode = args.get("invariant", toString(cands.front().mode));
    std::string names;
    bool found = false;
    for (const Invariant &inv : cands) {
      // An invariant without infinities (Invariant::noInf) is "scaled-noinf" or "zero-noinf";
      // mode zero with infinities as NaN (Invariant::infAsNaN) "zero-infnan".
      const std::string name =
          std::string(toString(inv.mode)) + (inv.noInf ? "-noinf" : "") + (inv.infAsNaN ? "-infnan" : "");
      names += std::string(names.empty() ? "" : " or ") + name;
      if (mode == name) {
        sq.inv = inv;
        found = true;
      }
    }
    if (!found)
      throw UsageError("--invariant: expected " + names + " for " + toString(q.lhs) + "/" + toString(q.rhs) + ", got '" +
                       mode + "'");
    if (args.get("a-vals") || args.get("b-vals")) throw UsageError("--a-vals/--b-vals: not with --tree any (a step's inputs are abstract)");
    if (args.get("encoding", "lia") != "lia") throw UsageError("--encoding fp: not with --tree any (the induction steps are QF_LIA)");
  } else if (args.get("step") || args.get("invariant")) {
    throw UsageError("--step and --invariant are for --tree any (one step of the induction)");
  }
  // --a-vals/--b-vals (as in `mxcert eval`): every leaf's elements fixed, e.g. to have a
  // solver check a counterexample against the encoding.
  if (args.get("a-vals") || args.get("b-vals")) {
    std::vector<unsigned> av, bv;
    try {
      av = parseElementList(q.cfg.a, args.require("a-vals"));
      bv = parseElementList(q.cfg.b, args.require("b-vals"));
    } catch (const ValueError &e) {
      throw UsageError(e.what());
    }
    if (av.size() != size_t(q.cfg.k()) || bv.size() != size_t(q.cfg.k()))
      throw UsageError("--a-vals and --b-vals need k = " + std::to_string(q.cfg.k()) + " values each (got " +
                       std::to_string(av.size()) + " and " + std::to_string(bv.size()) + ")");
    sq.fixed = fixAll(av, bv);
  }
  if (enc == "lia") {
    std::cout << smt::LiaEncoding(sq).smtlib2();
  } else if (enc == "fp") {
    const std::string why = smt::fpUnsupported(sq);
    if (!why.empty()) throw UsageError("--encoding fp cannot express this query: " + why);
    std::cout << smt::fpQuery(sq);
  } else {
    throw UsageError("unknown --encoding '" + enc + "' (expected lia or fp)");
  }
  return kOk;
}

}  // namespace mxcert::cli
