// tests/unit/test_tree.cpp — reduction trees (SPEC §4): the shapes of the named trees
// (seq, pairwise splitting off the first ceil(n/2) leaves, fused) for every k in 1..64,
// S-expressions (butterflies, fused nodes, k = 1), and rejection of bad trees with a
// TreeError whose `pos` points at the offending character where there is one.
#include "helpers.h"

#include <catch2/catch.hpp>

#include <functional>

using namespace mxcert;

namespace {

/// The expected S-expression of `seq` over k leaves: ((0 1) 2) ... built independently.
std::string seqText(int k) {
  std::string s = "0";
  for (int i = 1; i < k; ++i) s = "(" + s + " " + std::to_string(i) + ")";
  return s;
}

/// The expected S-expression of `pairwise` over leaves lo..lo+n-1: the first ceil(n/2)
/// leaves, then the rest.
std::string pairwiseText(int lo, int n) {
  if (n == 1) return std::to_string(lo);
  const int left = n - n / 2;
  return "(" + pairwiseText(lo, left) + " " + pairwiseText(lo + left, n - left) + ")";
}

/// The expected S-expression of `fused` over k leaves.
std::string fusedText(int k) {
  if (k == 1) return "0";
  std::string s = "(";
  for (int i = 0; i < k; ++i) s += (i ? " " : "") + std::to_string(i);
  return s + ")";
}

/// Structural checks every tree must pass: leaves 0..k-1 each once, children before parents,
/// inner nodes with two or more children, root last.
void checkWellFormed(const Tree &t) {
  std::vector<int> seen(size_t(t.k()), 0);
  const auto &ns = t.nodes();
  REQUIRE(!ns.empty());
  for (size_t i = 0; i < ns.size(); ++i) {
    if (ns[i].leaf >= 0) {
      REQUIRE(ns[i].leaf < t.k());
      ++seen[size_t(ns[i].leaf)];
      CHECK(ns[i].children.empty());
    } else {
      CHECK(ns[i].children.size() >= 2);
      for (int c : ns[i].children) CHECK(size_t(c) < i);
    }
  }
  for (int c : seen) CHECK(c == 1);
  CHECK(t.root() == int(ns.size()) - 1);
  CHECK(t.leafCounts().back() == t.k());
}

/// Parses `text` for k and returns the TreeError's position; fails when no error is thrown.
int errorPos(const std::string &text, int k) {
  try {
    Tree::parse(text, k);
  } catch (const TreeError &e) {
    INFO("tree '" << text << "' k " << k << ": " << e.what());
    CHECK(std::string(e.what()).size() > 0);
    return e.pos;
  }
  FAIL("tree '" << text << "' for k = " << k << " was accepted");
  return -2;
}

}  // namespace

TEST_CASE("trees: named shapes for every k", "[tree]") {
  for (int k = 1; k <= kMaxK; ++k) {
    INFO("k = " << k);
    const Tree s = Tree::seq(k), p = Tree::pairwise(k), f = Tree::fused(k);
    CHECK(s.sexpr() == seqText(k));
    CHECK(p.sexpr() == pairwiseText(0, k));
    CHECK(f.sexpr() == fusedText(k));
    for (const Tree *t : {&s, &p, &f}) {
      CHECK(t->k() == k);
      checkWellFormed(*t);
    }
    CHECK(s.isBinary());
    CHECK(p.isBinary());
    CHECK(f.isBinary() == (k <= 2));
    CHECK(s.depth() == k - 1);
    int lg = 0;
    while ((1 << lg) < k) ++lg;
    CHECK(p.depth() == lg);
    CHECK(f.depth() == (k == 1 ? 0 : 1));
    CHECK(f.maxNonRootLeaves() == 0);
    CHECK(s.maxNonRootLeaves() == (k >= 3 ? k - 1 : 0));
    // Named trees through the parser, and the printed form parses back to the same tree.
    CHECK(Tree::parse("seq", k) == s);
    CHECK(Tree::parse("pairwise", k) == p);
    CHECK(Tree::parse("fused", k) == f);
    CHECK(Tree::parse(s.sexpr(), k).sexpr() == s.sexpr());
    CHECK(Tree::parse(p.sexpr(), k).sexpr() == p.sexpr());
    CHECK(Tree::parse(f.sexpr(), k).sexpr() == f.sexpr());
  }
  // A few shapes written out by hand.
  CHECK(Tree::pairwise(3).sexpr() == "((0 1) 2)");
  CHECK(Tree::pairwise(5).sexpr() == "(((0 1) 2) (3 4))");
  CHECK(Tree::pairwise(6).sexpr() == "(((0 1) 2) ((3 4) 5))");
  CHECK(Tree::pairwise(7).sexpr() == "(((0 1) (2 3)) ((4 5) 6))");
  CHECK(Tree::seq(4).sexpr() == "(((0 1) 2) 3)");
  CHECK(Tree::fused(4).sexpr() == "(0 1 2 3)");
  CHECK(Tree::seq(1).sexpr() == "0");
}

TEST_CASE("trees: S-expressions", "[tree]") {
  SECTION("butterfly") {
    Tree t = Tree::parse("((0 2) (1 3))", 4);
    checkWellFormed(t);
    CHECK(t.sexpr() == "((0 2) (1 3))");
    CHECK(t.isBinary());
    CHECK(t.depth() == 2);
    // The root's children are the nodes over {0, 2} and {1, 3}, in that order.
    const auto &ns = t.nodes();
    const auto &root = ns.back();
    REQUIRE(root.children.size() == 2);
    const auto &l = ns[size_t(root.children[0])], &r = ns[size_t(root.children[1])];
    REQUIRE(l.children.size() == 2);
    REQUIRE(r.children.size() == 2);
    CHECK(ns[size_t(l.children[0])].leaf == 0);
    CHECK(ns[size_t(l.children[1])].leaf == 2);
    CHECK(ns[size_t(r.children[0])].leaf == 1);
    CHECK(ns[size_t(r.children[1])].leaf == 3);
  }
  SECTION("fused node of four") {
    Tree t = Tree::parse("(0 1 2 3)", 4);
    checkWellFormed(t);
    CHECK(t.nodes().size() == 5);
    CHECK(t.nodes().back().children.size() == 4);
    CHECK_FALSE(t.isBinary());
    CHECK(t == Tree::fused(4));
  }
  SECTION("k = 1 is the single leaf") {
    Tree t = Tree::parse("0", 1);
    CHECK(t.nodes().size() == 1);
    CHECK(t.nodes()[0].leaf == 0);
    CHECK(t.sexpr() == "0");
    CHECK(t.depth() == 0);
  }
  SECTION("nested and mixed, whitespace") {
    CHECK(Tree::parse("(((0 1) 2) 3)", 4) == Tree::seq(4));
    CHECK(Tree::parse("  ( ( 0   1 )\t2 )  ", 3).sexpr() == "((0 1) 2)");
    CHECK(Tree::parse("(3 (2 1 0))", 4).sexpr() == "(3 (2 1 0))");
    CHECK(Tree::parse("((0 1) (2 3))", 4) == Tree::pairwise(4));
    Tree t = Tree::parse("((1 0) (2 (4 3)))", 5);
    checkWellFormed(t);
    CHECK(t.sexpr() == "((1 0) (2 (4 3)))");
    CHECK(t.maxNonRootLeaves() == 3);
  }
}

TEST_CASE("trees: bad trees name the offending character", "[tree]") {
  // Leaf out of range: the '4' at index 10.
  CHECK(errorPos("((0 1) (2 4))", 4) == 10);
  CHECK(errorPos("(0 12)", 2) == 3);
  // Duplicate leaf: the second '1' at index 8.
  CHECK(errorPos("((0 1) (1 3))", 4) == 8);
  // Missing leaf: not at one character.
  CHECK(errorPos("((0 1) 2)", 4) == -1);
  CHECK(errorPos("(0 1)", 3) == -1);
  // Single-child nodes: at their '('.
  CHECK(errorPos("(0)", 1) == 0);
  CHECK(errorPos("((0) 1)", 2) == 1);
  CHECK(errorPos("()", 1) == 0);
  // Unbalanced parentheses.
  CHECK(errorPos("((0 1) 2", 3) == 0);  // the unclosed '('
  CHECK(errorPos("(0 1))", 2) == 5);    // the extra ')'
  CHECK(errorPos(")", 1) == 0);
  CHECK(errorPos("(0 1) (2 3)", 4) == 6);  // trailing input
  // Garbage characters.
  CHECK(errorPos("(0 1 x)", 3) == 5);
  CHECK(errorPos("(0 1; 2)", 3) == 4);
  CHECK(errorPos("(0 -1)", 2) == 3);
  // Empty.
  CHECK(errorPos("", 1) == 0);
  CHECK(errorPos("   ", 1) == 0);
  // Unknown names.
  CHECK(errorPos("tree", 2) == 0);
  CHECK(errorPos("Seq", 2) == 0);
  // Where the position is a character, it is the offending one.
  const std::pair<std::string, char> at[] = {{"((0 1) (2 4))", '4'}, {"((0 1) (1 3))", '1'},
                                             {"(0 1 x)", 'x'},       {"(0 1))", ')'},
                                             {"((0) 1)", '('}};
  for (const auto &[text, c] : at) {
    const int k = text == "((0) 1)" ? 2 : (text == "(0 1))" ? 2 : (text == "(0 1 x)" ? 3 : 4));
    const int pos = errorPos(text, k);
    REQUIRE(pos >= 0);
    REQUIRE(size_t(pos) < text.size());
    CHECK(text[size_t(pos)] == c);
  }
}

TEST_CASE("trees: k must be in 1..64", "[tree]") {
  for (int k : {0, -1, 65, 1000}) {
    INFO("k = " << k);
    CHECK_THROWS_AS(Tree::seq(k), TreeError);
    CHECK_THROWS_AS(Tree::pairwise(k), TreeError);
    CHECK_THROWS_AS(Tree::fused(k), TreeError);
    CHECK_THROWS_AS(Tree::parse("seq", k), TreeError);
    CHECK_THROWS_AS(Tree::parse("(0 1)", k), TreeError);
  }
  CHECK_NOTHROW(Tree::seq(64));
  CHECK_NOTHROW(Tree::parse(Tree::pairwise(64).sexpr(), 64));
  CHECK(Tree::fused(64).nodes().back().children.size() == 64);
}

TEST_CASE("trees: restricted to the first n leaves", "[tree]") {
  // Structure: the named trees restrict to the named trees over n leaves; explicit trees drop
  // the other leaves and collapse the nodes left with one child.
  for (int n = 1; n <= 16; ++n) {
    INFO("n = " << n);
    CHECK(Tree::seq(16).restricted(n).sexpr() == seqText(n));
    CHECK(Tree::fused(16).restricted(n).sexpr() == Tree::fused(n).sexpr());
  }
  CHECK(Tree::pairwise(16).restricted(4).sexpr() == "((0 1) (2 3))");
  CHECK(Tree::pairwise(16).restricted(3).sexpr() == "((0 1) 2)");
  CHECK(Tree::pairwise(16).restricted(8) == Tree::pairwise(8));
  CHECK(Tree::parse("((0 5) (1 2) 3 4)", 6).restricted(3).sexpr() == "(0 (1 2))");
  CHECK(Tree::parse("((3 0) (1 2))", 4).restricted(1).sexpr() == "0");
  CHECK(Tree::pairwise(16).restricted(16) == Tree::pairwise(16));
  CHECK_THROWS_AS(Tree::seq(4).restricted(0), TreeError);
  CHECK_THROWS_AS(Tree::seq(4).restricted(5), TreeError);

  // Value: with the dropped leaves +0 (element code 0), the whole tree and the restricted one
  // give the same value (Relation::Value: up to the sign of a zero), e2m1 into bf16.
  uint32_t state = 12345;
  auto next = [&] { return (state = state * 1664525u + 1013904223u) >> 28; };  // 0..15
  for (const char *tree : {"seq", "pairwise", "((0 5) (1 2) 3 (4 6 7))"}) {
    const mxcert::ModelConfig whole = mxtest::config("e2m1", "e2m1", mxtest::accSpec("bf16"), tree, 8);
    for (int n : {2, 3, 5}) {
      mxcert::ModelConfig part = whole;
      part.tree = whole.tree.restricted(n);
      for (int trial = 0; trial < 200; ++trial) {
        mxcert::ConcreteInput in{std::vector<unsigned>(8, 0u), std::vector<unsigned>(8, 0u), 127, 127};
        mxcert::ConcreteInput inPart{std::vector<unsigned>(size_t(n)), std::vector<unsigned>(size_t(n)), 127, 127};
        for (int i = 0; i < n; ++i) {
          in.a[size_t(i)] = inPart.a[size_t(i)] = next();
          in.b[size_t(i)] = inPart.b[size_t(i)] = next();
        }
        INFO(tree << " n = " << n << " trial " << trial);
        CHECK(mxcert::isRelated(mxcert::evaluatePlacement(whole, mxcert::Placement::Post, in),
                                mxcert::evaluatePlacement(part, mxcert::Placement::Post, inPart),
                                mxcert::Relation::Value));
      }
    }
  }
}
