// tests/solver/test_checker_bound.cpp — the checker's own closed-form recomputation
// (src/check/closed_form_check.h) against the synthesizer's (src/engine/bounds.h): two
// independent implementations of docs/bounds.md must give the same parameters and the same
// predicted set on every configuration a closed form covers, and the checker must refuse
// the configurations it does not cover.
#include "models/tree.h"
#include "src/check/closed_form_check.h"
#include "src/engine/bounds.h"

#include <catch2/catch.hpp>

#include <map>

using namespace mxcert;

namespace {
ModelConfig config(const char *a, const char *b, int k, const char *tree) {
  return ModelConfig{*findElementFormat(a), *findElementFormat(b), AccSpec{*findAccFormat("f32")}, Tree::parse(tree, k)};
}
}  // namespace

TEST_CASE("checker's closed form equals the engine's on every covered configuration") {
  int compared = 0;
  for (const char *f : {"e2m1", "e2m3", "e3m2", "e4m3", "e5m2"})
    for (const char *g : {"e2m1", "e4m3"})
      for (int k : {1, 2, 3, 8, 32})
        for (const char *tree : {"seq", "pairwise", "fused"})
          for (auto [lhs, rhs] : {std::pair{Placement::Pre, Placement::Post}, std::pair{Placement::Dequant, Placement::Post},
                                  std::pair{Placement::Dequant, Placement::Pre}})
            for (Relation rel : {Relation::Bitwise, Relation::Value})
            for (Rounding rounding : {Rounding::RNE, Rounding::RTZ}) {
              ModelConfig c = config(f, g, k, tree);
              c.acc.rounding = rounding;
              const engine::ClosedForm cf = engine::closedForm(engine::PairQuery{c, lhs, rhs, rel});
              if (!cf.applies) continue;
              const check::RecomputedBound rb = check::recomputeBoundParams(c, lhs, rhs, rel);
              INFO(f << " x " << g << " k=" << k << " " << tree << " " << toString(lhs) << "/" << toString(rhs) << " "
                     << toString(rel) << " " << toString(rounding));
              REQUIRE(rb.whyNot.empty());
              const std::map<std::string, long> want(cf.params.begin(), cf.params.end());
              REQUIRE(rb.params == want);
              const auto set = check::predictedSet(rb.params, k, lhs, rhs, rel);
              REQUIRE(set.has_value());
              REQUIRE(*set == cf.guard.toSet());
              ++compared;
            }
  CHECK(compared > 300);
}

TEST_CASE("checker's closed form covers only rne (rtz: pre/post) with subnormals kept and the derived pairs") {
  ModelConfig c = config("e2m1", "e2m1", 2, "seq");
  c.acc.rounding = Rounding::RTZ;
  CHECK(check::recomputeBoundParams(c, Placement::Pre, Placement::Post, Relation::Bitwise).whyNot.empty());
  CHECK(check::recomputeBoundParams(c, Placement::Pre, Placement::Post, Relation::Value).params.count("log2_Dmax"));
  CHECK_FALSE(check::recomputeBoundParams(c, Placement::Dequant, Placement::Post, Relation::Bitwise).whyNot.empty());
  c = config("e2m1", "e2m1", 2, "seq");
  c.acc.subnormals = Subnormals::FTZ;
  CHECK_FALSE(check::recomputeBoundParams(c, Placement::Pre, Placement::Post, Relation::Bitwise).whyNot.empty());
  c = config("e2m1", "e2m1", 2, "seq");
  CHECK_FALSE(check::recomputeBoundParams(c, Placement::Post2, Placement::Post, Relation::Bitwise).whyNot.empty());
  CHECK_FALSE(check::predictedSet({{"L", 1}}, 2, Placement::Pre, Placement::Post, Relation::Bitwise).has_value());
}
