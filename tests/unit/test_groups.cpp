// tests/unit/test_groups.cpp — disagreeingGroups (src/engine/groups.h): the table engine's
// way of trying one candidate input on every code group, shared by several threads. Its
// answer must be exactly the groups where witnessDisagrees holds, one by one, in the order
// of the candidates, whatever the number of threads; a stop request may leave groups out,
// never add one.
#include "helpers.h"

#include "src/engine/groups.h"

#include <catch2/catch.hpp>

#include <atomic>

using namespace mxcert;
using namespace mxtest;

TEST_CASE("disagreeingGroups: the groups witnessDisagrees finds one by one, on 1, 2 and 5 threads", "[engine]") {
  struct Case {
    const char *a, *b;
    AccSpec acc;
    const char *tree;
    Placement lhs, rhs;
    Relation rel;
    std::string anyTree;  // a witness with a tree of its own (any-order questions)
    unsigned topA, topB;  // the largest finite codes
  };
  const Case cases[] = {
      {"e2m1", "e2m1", accSpec("f16", Rounding::RTZ, Subnormals::FTZ), "seq", Placement::Pre, Placement::Post,
       Relation::Bitwise, "", 7, 7},
      {"e4m3", "e2m1", accSpec("bf16"), "fused", Placement::Post2, Placement::Dequant, Relation::Value, "", 0x7E, 7},
      {"e5m2", "e5m2", accSpec("f32", Rounding::RTZ, Subnormals::FTZ), "pairwise", Placement::Dequant,
       Placement::Post, Relation::Bitwise, "((0 3) (1 2))", 0x7B, 0x7B},
  };
  for (const Case &c : cases) {
    engine::PairQuery q;
    q.cfg = config(c.a, c.b, c.acc, c.tree, 4);
    q.lhs = c.lhs;
    q.rhs = c.rhs;
    q.rel = c.rel;
    const engine::CodeGroups cg = engine::groupCodePairs(q, true);
    // Every group, and every third one in reverse order.
    std::vector<size_t> all, some;
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) all.push_back(gi);
    for (size_t gi = cg.groups.size(); gi-- > 0;)
      if (gi % 3 == 0) some.push_back(gi);
    // Large elements and a small one: overflow at large scales, flushing at small ones.
    engine::Witness w{{c.topA, c.topA, 1, 0}, {c.topB, c.topB, 1, 0}, 0, 0, c.anyTree};
    for (const std::vector<size_t> *cands : {&all, &some}) {
      std::vector<size_t> want;
      for (size_t gi : *cands) {
        auto [xa, xb] = cg.groups[gi].pairs.front();
        if (engine::witnessDisagrees(q, w, xa, xb)) want.push_back(gi);
      }
      INFO(c.a << " x " << c.b << " " << c.tree << " candidates " << cands->size());
      CHECK(!want.empty());
      CHECK(want.size() < cands->size());
      for (int threads : {1, 2, 5}) CHECK(engine::disagreeingGroups(q, w, cg, *cands, threads) == want);
    }
    // A stop after the first poll: some groups (a whole share) evaluated at most, every one
    // returned still a real one.
    std::atomic<int> polls{0};
    const std::vector<size_t> part =
        engine::disagreeingGroups(q, w, cg, all, 2, [&polls]() { return polls++ > 0; });
    CHECK(part.size() < all.size());
    for (size_t gi : part) {
      auto [xa, xb] = cg.groups[gi].pairs.front();
      CHECK(engine::witnessDisagrees(q, w, xa, xb));
    }
  }
}
