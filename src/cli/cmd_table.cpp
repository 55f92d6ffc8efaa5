// src/cli/cmd_table.cpp — `mxcert table`: the exact agree set of two placements, certified.
#include "certs/certificate.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/reports.h"
#include "src/engine/exhaustive.h"
#include "src/engine/solver_table.h"
#include "src/engine/to_certificate.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <fmt/core.h>

namespace mxcert::cli {

namespace {

/// table's text: the agree set, how each region was decided, the witnesses, the closed form;
/// `undecided` code pairs (an incomplete table's) are neither agreeing nor excluded.
std::string summary(const certs::Certificate &c, bool complete, long undecided) {
  const long agree = c.agree.toSet().count();
  // NVFP4 tables cover the e4m3 codes 0..127 on each side, MX tables the e8m0 codes 0..254.
  const long side = c.config.maxTableCode() + 1;
  const long excluded = side * side - agree - undecided;
  std::string t = "# mxcert table: " + describe(c.config) + "\n# " + toString(c.lhs) + " vs " +
                  toString(c.rhs) + ", relation " + toString(c.relation) + ", engine " + c.engine + "\n";
  t += "agree: " + std::to_string(agree) + " of " + std::to_string(side * side) +
       " code pairs, " + std::to_string(c.agree.regions.size()) + " region(s)\n";
  for (size_t i = 0; i < c.agree.regions.size(); ++i) {
    t += "  " + c.agree.regions[i].str();
    if (c.engine == "solver") {
      double secs = 0;
      std::string solvers;
      size_t constant = 0;
      long facts = 0, decisions = 0;
      size_t steps = 0;
      for (int p : c.regionProofs[i]) {
        const certs::Proof &pr = c.proofs[size_t(p)];
        secs += pr.seconds;
        if (pr.step) ++steps;
        if (pr.constantFalse.value_or(false)) ++constant;
        if (solvers.find(pr.solver) == std::string::npos) solvers += (solvers.empty() ? "" : "+") + pr.solver;
        // Every solver proof the table engine writes carries its obligations (format version 2).
        if (pr.obligations) facts += pr.obligations->facts, decisions += pr.obligations->decisions;
      }
      const size_t n = c.regionProofs[i].size();
      t += fmt::format("   proven by {}: the agreement and {} fact{} of the analysis ({} quer{}, {:.3f} s; {} "
                       "decisions verified by arithmetic{}{})",
                       solvers, facts, facts == 1 ? "" : "s", n, n == 1 ? "y" : "ies", secs, decisions,
                       constant ? "; " + std::to_string(constant) + " with the goal folded to false and no fact" : "",
                       steps && !c.config.anyOrder
                           ? fmt::format("; {} of them induction steps: proven for a class of trees holding this one", steps)
                           : "");
    }
    t += "\n";
  }
  t += "excluded: " + std::to_string(excluded) + " code pairs, each refuted by one of " +
       std::to_string(c.witnesses.size()) + " witness(es)\n";
  if (c.bound) t += "closed form: " + c.bound->formula + "\n";
  if (!complete)
    t += "INCOMPLETE: " + std::to_string(undecided) +
         " code pairs are unknown (a solver timeout, the --timeout deadline or a resource limit); see stderr\n";
  t += "stats: " + c.stats.dump() + "\n";
  return t;
}

}  // namespace

const OptionSet &tableOptions() {
  static const OptionSet kOpts = [] {
    OptionSet s{{"no-collapse", "verbose", "embed-queries", "obligations"}, configOptions()};
    s.valued.insert({"lhs", "rhs", "relation", "engine", "solver", "timeout", "query-timeout", "max-terms", "proof"});
    return s;
  }();
  return kOpts;
}

TableOutcome runTable(const Args &args, const ProgressFn &progress) {
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q{parseConfig(args), parsePlacementOpt(args, "lhs", Placement::Pre),
                      parsePlacementOpt(args, "rhs", Placement::Post), parseRelationOpt(args), nullptr, false, {}};
  const std::string eng = args.get("engine", "solver");
  // The solver engine proves every fact of the analysis (docs/solver.md, "Obligations mode");
  // --obligations, once needed for this, is still accepted.
  q.obligations = eng == "solver";
  if (args.flag("obligations") && eng != "solver") throw UsageError("--obligations: only with --engine solver");
  const std::string proof = args.get("proof", "auto");
  if (proof != "auto" && proof != "unrolled")
    throw UsageError("--proof: expected auto or unrolled, got '" + proof + "'");
  if (args.get("proof") && eng != "solver") throw UsageError("--proof: only with --engine solver");
  if (proof == "unrolled" && q.cfg.anyOrder)
    throw UsageError("--proof unrolled: an any-order table is proven by the induction only (there is no one tree to unroll)");
  if (q.cfg.anyOrder && eng == "solver" && !engine::anyOrderUnsupported(q).empty())
    throw NoAnyOrderProof("no order-independent proof for " + engine::anyOrderUnsupported(q));
  // One budget for the whole command: --timeout (default: none) bounds everything, each
  // solver call is further limited by --query-timeout.
  const smt::Budget budget = parseBudget(args, 0);
  q.budget = &budget;
  TableOutcome out;
  if (eng == "exhaustive") {
    engine::ExhaustiveOptions opt;
    opt.collapse = !args.flag("no-collapse");
    opt.progress = progress;
    out.cert = engine::certificateOf(q, engine::runExhaustive(q, opt));
  } else if (eng == "solver") {
    engine::SolverTableOptions opt;
    opt.solver = parseSolverOpt(args);
    opt.timeout = parseSecondsOpt(args, "query-timeout", 120);
    opt.keepQueries = args.flag("embed-queries");
    opt.inductionFirst = proof == "auto";
    // --jobs: threads for trying candidate witnesses on the code groups, and solver processes
    // for fact phases and induction steps side by side (default: one per processor, at most
    // 8); the table is the same for every value.
    opt.threads = parseJobsOpt(args, defaultJobs(), "threads");
    opt.progress = progress;
    if (args.flag("verbose")) opt.log = [](const std::string &s) { fmt::print(stderr, "mxcert: {}\n", s); };
    engine::SolverTableResult r = engine::runSolverTable(q, opt);
    out.complete = r.complete();
    out.cert = engine::certificateOf(q, r);
    if (!out.complete) {
      // The undecided pairs as a canonical guard (a few lines, not one per pair).
      Guard unknownRegions;
      unknownRegions.regions = r.unknown;
      const CodeSet undecided = unknownRegions.toSet();
      const Guard ug = Guard::fromSet(undecided);
      out.undecided = undecided.count();
      out.unknown.push_back(std::to_string(undecided.count()) + " code pair(s) undecided in " +
                            std::to_string(ug.regions.size()) + " region(s)" +
                            (budget.passed() ? " (" + budget.stopReason() + ")" : ""));
      const size_t shown = std::min<size_t>(ug.regions.size(), 8);
      for (size_t i = 0; i < shown; ++i) out.unknown.push_back(ug.regions[i].str());
      if (shown < ug.regions.size())
        out.unknown.push_back("... and " + std::to_string(ug.regions.size() - shown) +
                              " more region(s) (--verbose logs each query)");
    }
  } else {
    throw UsageError("unknown --engine '" + eng + "' (expected solver or exhaustive)");
  }
  return out;
}

int cmdTable(int argc, char **argv) {
  std::set<std::string> flags = tableOptions().flags, valued = tableOptions().valued;
  flags.insert({"json", "progress", "quiet"});
  valued.insert({"o", "jobs"});
  Args args(argc, argv, 2, flags, valued);
  const bool exhaustive = args.get("engine") == "exhaustive";
  TableOutcome out;
  {
    Progress progress(args, exhaustive ? "table (exhaustive)" : "table",
                      exhaustive ? "evaluation groups" : "code pairs decided");
    ProgressFn show;
    if (progress.enabled()) show = [&](long done, long total) { progress.update(done, total); };
    out = runTable(args, show);
  }
  for (const std::string &line : out.unknown) fmt::print(stderr, "mxcert: unknown: {}\n", line);
  const std::string json = certs::toJson(out.cert).dump(1) + "\n";
  if (auto file = args.get("o")) {
    // Only a complete table replaces the file (atomically); an incomplete one never
    // overwrites a good certificate.
    if (out.complete)
      writeFileAtomic(*file, json);
    else
      fmt::print(stderr, "mxcert: unknown: the table is incomplete: '{}' was not written (an existing file is kept)\n",
                 commentSafe(*file));
  }
  writeStdout(args.flag("json") ? json : summary(out.cert, out.complete, out.undecided));
  return out.complete ? kOk : kUnknown;
}

}  // namespace mxcert::cli
