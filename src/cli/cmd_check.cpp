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

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace mxcert::cli {

int cmdCheck(int argc, char **argv) {
  Args args(argc, argv, 2, {"quiet", "verbose", "json", "progress"}, {"solver", "timeout", "query-timeout", "max-terms"});
  if (args.positional().size() != 1)
    throw UsageError(args.positional().empty() ? "missing certificate file (mxcert check FILE)"
                                               : "check takes one certificate file");
  const std::string path = args.positional()[0];
  check::CheckOptions opt;
  const std::string solver = args.get("solver", "other");
  if (!check::parseSolverChoice(solver, opt.solver))
    throw UsageError("unknown --solver '" + solver + "' (expected z3, cvc5, both, other or none)");
  // --timeout bounds the whole check (default: none); --query-timeout each re-proof.
  const smt::Budget budget = parseBudget(args, 0);
  opt.budget = &budget;
  opt.timeout = parseSecondsOpt(args, "query-timeout", 300);
  const auto slash = path.find_last_of('/');
  opt.baseDir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  if (args.flag("verbose")) opt.log = [](const std::string &s) { std::fprintf(stderr, "mxcert: %s\n", s.c_str()); };

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

  const char *verdict = rep.firstFalse() ? "REJECTED" : rep.firstUnknown() ? "UNKNOWN" : "HOLDS";
  if (args.flag("json")) {
    // The report as one JSON object (schema mxcert-check, version 1; docs/certificates.md).
    nlohmann::json claims = nlohmann::json::array();
    for (const check::ClaimResult &c : rep.claims)
      claims.push_back({{"claim", c.claim}, {"status", check::toString(c.status)}, {"detail", c.detail},
                        {"seconds", c.seconds}});
    nlohmann::json doc = {{"schema", "mxcert-check"}, {"schema_version", 1}, {"file", path},
                          {"config", certs::configToJson(cert.config)}, {"lhs", toString(cert.lhs)},
                          {"rhs", toString(cert.rhs)}, {"relation", toString(cert.relation)},
                          {"engine", cert.engine}, {"verdict", verdict}, {"claims", claims},
                          {"evaluations", rep.evaluations}, {"reproofs", rep.reproofs}, {"seconds", rep.seconds}};
    writeStdout(doc.dump(1) + "\n");
  } else if (!args.flag("quiet")) {
    std::string out = "# mxcert check " + path + "\n# " + describe(cert.config) + ", " + toString(cert.lhs) +
                      " vs " + toString(cert.rhs) + ", " + toString(cert.relation) + ", engine " + cert.engine +
                      "\n";
    for (const check::ClaimResult &c : rep.claims) {
      char secs[32];
      std::snprintf(secs, sizeof secs, " (%.3f s)", c.seconds);
      out += std::string(check::toString(c.status)) + "  " + c.claim + ": " + c.detail + secs + "\n";
    }
    char tail[160];
    std::snprintf(tail, sizeof tail, "%s: %zu claim(s) checked in %.3f s (%ld evaluator runs, %d solver calls)\n",
                  verdict, rep.claims.size(),
                  rep.seconds, rep.evaluations, rep.reproofs);
    out += tail;
    std::cout << out;
    std::cout.flush();
  }
  if (const check::ClaimResult *f = rep.firstFalse()) {
    std::fprintf(stderr, "mxcert: check failed: %s: %s\n", f->claim.c_str(), oneLine(f->detail).c_str());
    return kRefuted;
  }
  if (const check::ClaimResult *u = rep.firstUnknown()) {
    std::fprintf(stderr, "mxcert: unknown: %s: %s\n", u->claim.c_str(), oneLine(u->detail).c_str());
    return kUnknown;
  }
  return kOk;
}

}  // namespace mxcert::cli
