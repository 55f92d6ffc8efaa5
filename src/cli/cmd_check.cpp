// src/cli/cmd_check.cpp — `mxcert check FILE`: confirms or rejects every claim of a
// certificate with the independent checker (src/check/checker.h).
//
// Exit codes (SPEC §8): 0 every claim holds; 1 a claim is false (the first is named on
// stderr, all of them on stdout); 2 the file is unreadable or schema-invalid (one line on
// stderr); 3 a re-proof came back unknown (and no claim is false).
#include "certs/certificate.h"
#include "certs/config_json.h"
#include "src/check/checker.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/reports.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <fmt/core.h>

namespace mxcert::cli {

const OptionSet &checkOptions() {
  static const OptionSet kOpts{{"verbose"}, {"solver", "timeout", "query-timeout", "max-terms", "jobs"}};
  return kOpts;
}

check::CheckOptions checkOptionsOf(const Args &args, const std::string &path, smt::Budget &budget) {
  check::CheckOptions opt;
  const std::string solver = args.get("solver", "other");
  if (!check::parseSolverChoice(solver, opt.solver))
    throw UsageError("unknown --solver '" + solver + "' (expected z3, cvc5, both, other or none)");
  // --timeout bounds the whole check (default: none); --query-timeout each re-proof.
  budget = parseBudget(args, 0);
  opt.budget = &budget;
  opt.timeout = parseSecondsOpt(args, "query-timeout", 300);
  const auto slash = path.find_last_of('/');
  opt.baseDir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  if (args.flag("verbose")) opt.log = [](const std::string &s) { fmt::print(stderr, "mxcert: {}\n", s); };
  // --jobs: parts of the check side by side (default: one per processor, at most 8).
  opt.jobs = parseJobsOpt(args, defaultJobs(), "processes");
  return opt;
}

const char *verdictOf(const check::CheckReport &rep) {
  return rep.firstFalse() ? "REJECTED" : rep.firstUnknown() ? "UNKNOWN" : "HOLDS";
}

nlohmann::json checkReport(const nlohmann::json &file, const certs::Certificate &cert, const check::CheckReport &rep) {
  nlohmann::json claims = nlohmann::json::array();
  for (const check::ClaimResult &c : rep.claims)
    claims.push_back({{"claim", c.claim}, {"status", check::toString(c.status)}, {"detail", c.detail},
                      {"seconds", c.seconds}});
  return {{"schema", "mxcert-check"}, {"schema_version", 1}, {"file", file},
          {"config", certs::configToJson(cert.config)}, {"lhs", toString(cert.lhs)},
          {"rhs", toString(cert.rhs)}, {"relation", toString(cert.relation)},
          {"engine", cert.engine}, {"verdict", verdictOf(rep)}, {"claims", claims},
          {"evaluations", rep.evaluations}, {"reproofs", rep.reproofs}, {"seconds", rep.seconds}};
}

int cmdCheck(int argc, char **argv) {
  std::set<std::string> flags = checkOptions().flags;
  flags.insert({"quiet", "json", "progress"});
  Args args(argc, argv, 2, flags, checkOptions().valued);
  if (args.positional().size() != 1)
    throw UsageError(args.positional().empty() ? "missing certificate file (mxcert check FILE)"
                                               : "check takes one certificate file");
  const std::string path = args.positional()[0];
  smt::Budget budget;
  check::CheckOptions opt = checkOptionsOf(args, path, budget);

  certs::Certificate cert;
  try {
    cert = certs::readCertificate(path);
  } catch (const certs::SchemaError &e) {
    throw UsageError(e.what());
  }
  check::CheckReport rep;
  {
    Progress progress(args, "check", "proofs re-proven");
    if (progress.enabled()) opt.progress = [&](long done, long total) { progress.update(done, total); };
    rep = check::checkCertificate(cert, opt);
  }

  const char *verdict = verdictOf(rep);
  if (args.flag("json")) {
    // The report as one JSON object (schema mxcert-check, version 1; docs/certificates.md).
    writeStdout(checkReport(path, cert, rep).dump(1) + "\n");
  } else if (!args.flag("quiet")) {
    std::string out = "# mxcert check " + path + "\n# " + describe(cert.config) + ", " + toString(cert.lhs) +
                      " vs " + toString(cert.rhs) + ", " + toString(cert.relation) + ", engine " + cert.engine +
                      "\n";
    for (const check::ClaimResult &c : rep.claims)
      out += fmt::format("{}  {}: {} ({:.3f} s)\n", check::toString(c.status), c.claim, c.detail, c.seconds);
    out += fmt::format("{}: {} claim(s) checked in {:.3f} s ({} evaluator runs, {} solver calls)\n", verdict,
                       rep.claims.size(), rep.seconds, rep.evaluations, rep.reproofs);
    std::cout << out;
    std::cout.flush();
  }
  if (const check::ClaimResult *f = rep.firstFalse()) {
    fmt::print(stderr, "mxcert: check failed: {}: {}\n", f->claim, oneLine(f->detail));
    return kRefuted;
  }
  if (const check::ClaimResult *u = rep.firstUnknown()) {
    fmt::print(stderr, "mxcert: unknown: {}: {}\n", u->claim, oneLine(u->detail));
    return kUnknown;
  }
  return kOk;
}

}  // namespace mxcert::cli
