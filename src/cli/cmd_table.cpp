// src/cli/cmd_table.cpp — `mxcert table`: the exact agree set of two placements, certified.
#include "certs/certificate.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/engine/exhaustive.h"
#include "src/engine/solver_table.h"
#include "src/engine/to_certificate.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace mxcert::cli {

namespace {

std::string summary(const engine::PairQuery &q, const certs::Certificate &c, bool complete) {
  const long agree = c.agree.toSet().count();
  const long excluded = long(kNumCodes) * kNumCodes - agree;
  std::string t = "# mxcert table: " + describe(q.cfg) + "\n# " + toString(q.lhs) + " vs " +
                  toString(q.rhs) + ", relation " + toString(q.rel) + ", engine " + c.engine + "\n";
  t += "agree: " + std::to_string(agree) + " of " + std::to_string(long(kNumCodes) * kNumCodes) +
       " code pairs, " + std::to_string(c.agree.regions.size()) + " region(s)\n";
  for (size_t i = 0; i < c.agree.regions.size(); ++i) {
    t += "  " + c.agree.regions[i].str();
    if (c.engine == "solver") {
      double secs = 0;
      std::string solvers;
      size_t constant = 0;
      for (int p : c.regionProofs[i]) {
        secs += c.proofs[size_t(p)].seconds;
        if (c.proofs[size_t(p)].constantFalse.value_or(false)) ++constant;
        if (solvers.find(c.proofs[size_t(p)].solver) == std::string::npos)
          solvers += (solvers.empty() ? "" : "+") + c.proofs[size_t(p)].solver;
      }
      char buf[256];
      const size_t n = c.regionProofs[i].size();
      if (constant == n) {
        // Honest wording: the encoder's analysis folded the question to false; the solver's
        // unsat involved no reasoning (docs/solver.md, "Constant-false queries").
        std::snprintf(buf, sizeof buf, "   decided by the encoder's analysis: %zu quer%s the constant false (%s, %.3f s)",
                      n, n == 1 ? "y is" : "ies are", solvers.c_str(), secs);
      } else {
        std::snprintf(buf, sizeof buf, "   proven: %zu unsat quer%s (%s, %.3f s)", n, n == 1 ? "y" : "ies",
                      solvers.c_str(), secs);
      }
      t += buf;
      if (constant > 0 && constant < n) t += ", " + std::to_string(constant) + " of them the constant false";
    }
    t += "\n";
  }
  t += "excluded: " + std::to_string(excluded) + " code pairs, each refuted by one of " +
       std::to_string(c.witnesses.size()) + " witness(es)\n";
  if (c.bound) t += "closed form: " + c.bound->formula + "\n";
  if (!complete) t += "INCOMPLETE: some code pairs are unknown (a solver timeout, the --timeout deadline or a resource limit); see stderr\n";
  t += "stats: " + c.stats.dump() + "\n";
  return t;
}

}  // namespace

int cmdTable(int argc, char **argv) {
  std::set<std::string> valued = configOptions();
  valued.insert({"lhs", "rhs", "relation", "engine", "solver", "timeout", "query-timeout", "max-terms", "o"});
  Args args(argc, argv, 2, {"json", "no-collapse", "verbose", "embed-queries", "progress", "quiet"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q{parseConfig(args), parsePlacementOpt(args, "lhs", Placement::Pre),
                      parsePlacementOpt(args, "rhs", Placement::Post), parseRelationOpt(args)};
  const std::string eng = args.get("engine", "solver");
  // One budget for the whole command: --timeout (default: none) bounds everything, each
  // solver call is further limited by --query-timeout.
  const smt::Budget budget = parseBudget(args, 0);
  q.budget = &budget;
  certs::Certificate cert;
  bool complete = true;
  if (eng == "exhaustive") {
    engine::ExhaustiveOptions opt;
    opt.collapse = !args.flag("no-collapse");
    Progress progress(args, "table (exhaustive)", "evaluation groups");
    if (progress.enabled()) opt.progress = [&](long done, long total) { progress.update(done, total); };
    try {
      cert = engine::certificateOf(q, engine::runExhaustive(q, opt));
    } catch (const engine::ResourceLimit &e) {
      std::fprintf(stderr, "mxcert: unknown: %s\n", e.what());
      return kUnknown;
    }
  } else if (eng == "solver") {
    engine::SolverTableOptions opt;
    opt.solver = parseSolverOpt(args);
    opt.timeout = parseSecondsOpt(args, "query-timeout", 120);
    opt.keepQueries = args.flag("embed-queries");
    Progress progress(args, "table", "code pairs decided");
    if (progress.enabled()) opt.progress = [&](long done, long total) { progress.update(done, total); };
    if (args.flag("verbose")) opt.log = [](const std::string &s) { std::fprintf(stderr, "mxcert: %s\n", s.c_str()); };
    engine::SolverTableResult r = engine::runSolverTable(q, opt);
    complete = r.complete();
    cert = engine::certificateOf(q, r);
    if (!complete) {
      // The undecided pairs as a canonical guard (a few lines, not one per pair).
      Guard unknownRegions;
      unknownRegions.regions = r.unknown;
      const CodeSet undecided = unknownRegions.toSet();
      const Guard ug = Guard::fromSet(undecided);
      std::fprintf(stderr, "mxcert: unknown: %ld code pair(s) undecided in %zu region(s)%s\n", undecided.count(),
                   ug.regions.size(), budget.passed() ? (" (" + budget.stopReason() + ")").c_str() : "");
      const size_t shown = std::min<size_t>(ug.regions.size(), 8);
      for (size_t i = 0; i < shown; ++i) std::fprintf(stderr, "mxcert: unknown: %s\n", ug.regions[i].str().c_str());
      if (shown < ug.regions.size())
        std::fprintf(stderr, "mxcert: unknown: ... and %zu more region(s) (--verbose logs each query)\n",
                     ug.regions.size() - shown);
    }
  } else {
    throw UsageError("unknown --engine '" + eng + "' (expected solver or exhaustive)");
  }
  const std::string json = certs::toJson(cert).dump(1) + "\n";
  if (auto out = args.get("o")) {
    // Only a complete table replaces the file (atomically); an incomplete one never
    // overwrites a good certificate.
    if (complete)
      writeFileAtomic(*out, json);
    else
      std::fprintf(stderr, "mxcert: unknown: the table is incomplete: '%s' was not written (an existing file is kept)\n",
                   commentSafe(*out).c_str());
  }
  writeStdout(args.flag("json") ? json : summary(q, cert, complete));
  return complete ? kOk : kUnknown;
}

}  // namespace mxcert::cli
