// tests/solver/test_obligations.cpp — obligations mode (smt/term.h, docs/solver.md
// "Obligations mode"): tables equal the exhaustive engine's and are accepted by the checker, and
// test-only faults in the analysis never become a certified proof.
#include "certs/certificate.h"
#include "certs/sha256.h"
#include "smt/abstract_check.h"
#include "smt/encoder.h"
#include "src/check/checker.h"
#include "src/engine/exhaustive.h"
#include "src/engine/solver_table.h"
#include "src/engine/to_certificate.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace mxcert;
using engine::PairQuery;

namespace {

PairQuery query(const std::string &fmt, int k, const std::string &tree, Placement l, Placement r, Relation rel) {
  PairQuery q{ModelConfig{*findElementFormat(fmt), *findElementFormat(fmt), AccSpec{*findAccFormat("f32")},
                          Tree::parse(tree, k)},
              l, r, rel};
  q.obligations = true;
  return q;
}

std::string name(const PairQuery &q) {
  std::ostringstream o;
  o << q.cfg.a.name << " k=" << q.cfg.k() << " " << q.cfg.tree.sexpr() << " " << toString(q.lhs) << "/"
    << toString(q.rhs) << " " << toString(q.rel);
  return o.str();
}

engine::SolverTableResult table(const PairQuery &q) {
  engine::SolverTableOptions opt;
  opt.timeout = 300;
  return engine::runSolverTable(q, opt);
}

}  // namespace

TEST_CASE("obligations: solver tables = exhaustive tables, every proof checked", "[solver][obligations]") {
  const Placement pairs[][2] = {{Placement::Pre, Placement::Post}, {Placement::Dequant, Placement::Post}};
  for (const char *fmt : {"e2m1", "e3m2"})
    for (int k : {1, 2, 3}) {
      if (std::string(fmt) == "e3m2" && k != 2) continue;  // test time: e3m2 at k = 2 only
      for (auto &pl : pairs)
        for (Relation rel : {Relation::Bitwise, Relation::Value}) {
          PairQuery q = query(fmt, k, "seq", pl[0], pl[1], rel);
          INFO(name(q));
          engine::SolverTableResult r = table(q);
          REQUIRE(r.complete());
          REQUIRE(r.agree == engine::runExhaustive(q).agree);
          for (const engine::ProofRecord &p : r.proofs) REQUIRE(p.obligations);
          // The checker regenerates every query in obligations mode, re-checks the
          // decisions by arithmetic and re-proves every phase with the other solver.
          check::CheckOptions co;
          // Through the JSON text, as `mxcert check` reads it.
          const certs::Certificate cert =
              certs::certificateFromJson(certs::toJson(engine::certificateOf(q, r)));
          check::CheckReport rep = check::checkCertificate(cert, co);
          INFO((rep.firstFalse() ? rep.firstFalse()->detail : rep.firstUnknown() ? rep.firstUnknown()->detail : ""));
          REQUIRE(rep.holds());
        }
    }
}

TEST_CASE("obligations: faults in the analysis never become a certified proof", "[solver][obligations][faults]") {
  using K = smt::FaultInjection::Kind;
  struct Config {
    PairQuery q;
    Region region;  // an agree region of the unperturbed table
  };
  std::vector<Config> configs;
  for (PairQuery q : {query("e2m1", 32, "pairwise", Placement::Pre, Placement::Post, Relation::Bitwise),
                      query("e2m1", 32, "seq", Placement::Dequant, Placement::Post, Relation::Bitwise),
                      query("e2m1", 4, "seq", Placement::Dequant, Placement::Post, Relation::Value),
                      query("e3m2", 3, "pairwise", Placement::Pre, Placement::Post, Relation::Value),
                      query("e4m3", 2, "seq", Placement::Dequant, Placement::Post, Relation::Bitwise)}) {
    engine::SolverTableResult r = table(q);
    REQUIRE(r.complete());
    REQUIRE(!r.proofs.empty());
    configs.push_back({q, r.proofs[0].region});
  }
  size_t caught = 0, harmless = 0, rejectedByCheck = 0;
  for (const Config &c : configs)
    for (K kind : {K::IntervalTooTight, K::GranularityTooCoarse, K::DecidedWrong, K::PrecisionTooSmall,
                   K::RuleWithoutSideCondition})
      for (unsigned site : {0u, 3u, 17u, 100u}) {
        PairQuery q = c.q;
        q.fault = smt::FaultInjection{kind, site};
        INFO(name(q) << " region " << c.region.str() << " fault '" << smt::toString(kind) << "' at site " << site);
        smt::Query clean{q.cfg, q.lhs, q.rhs, q.rel, c.region, {}, nullptr, true, {}};
        const std::string cleanSha = certs::sha256Hex(smt::LiaEncoding(clean).smtlib2());
        std::unique_ptr<smt::Backend> be = smt::makeBackend("cvc5");
        // A short limit: unknown is an accepted outcome (a fault can make a query hard).
        engine::RegionCheck rc = engine::checkRegion(q, c.region, *be, 20);
        // Never a counterexample in an agree region (a model is replayed by the evaluator).
        REQUIRE(rc.verdict != smt::Verdict::Sat);
        if (rc.verdict == smt::Verdict::Unknown) {
          ++caught;
          continue;
        }
        if (rc.proof.sha256 == cleanSha) {
          ++harmless;  // the fault did not change the query (no such site, or no effect)
          continue;
        }
        // A proof of a perturbed query: only a rewrite rule is not checked by the obligations;
        // the unperturbed checker rejects it (the query does not match the configuration).
        REQUIRE(kind == K::RuleWithoutSideCondition);
        ++rejectedByCheck;
      }
  INFO("caught " << caught << ", harmless " << harmless << ", rejected by the checker " << rejectedByCheck);
  CHECK(caught > 0);
}
