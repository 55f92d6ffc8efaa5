// models/tree.cpp — reduction trees: named trees, S-expression parsing and printing.
#include "models/tree.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace mxcert {

int Tree::addLeaf(int i) {
  Node n;
  n.leaf = i;
  nodes_.push_back(n);
  return int(nodes_.size()) - 1;
}

int Tree::addInner(std::vector<int> children) {
  Node n;
  n.children = std::move(children);
  nodes_.push_back(std::move(n));
  return int(nodes_.size()) - 1;
}

static void checkK(int k) {
  if (k < 1 || k > kMaxK)
    throw TreeError("k must be in 1.." + std::to_string(kMaxK) + ", got " + std::to_string(k), -1);
}

Tree Tree::seq(int k) {
  checkK(k);
  Tree t;
  t.k_ = k;
  int acc = t.addLeaf(0);
  for (int i = 1; i < k; ++i) {
    int leaf = t.addLeaf(i);
    acc = t.addInner({acc, leaf});
  }
  return t;
}

Tree Tree::pairwise(int k) {
  checkK(k);
  Tree t;
  t.k_ = k;
  std::function<int(int, int)> build = [&](int lo, int n) -> int {
    if (n == 1) return t.addLeaf(lo);
    int left = (n + 1) / 2;
    int l = build(lo, left);
    int r = build(lo + left, n - left);
    return t.addInner({l, r});
  };
  build(0, k);
  return t;
}

std::string Tree::standardName() const {
  if (*this == seq(k_)) return "seq";
  if (*this == pairwise(k_)) return "pairwise";
  if (*this == fused(k_)) return "fused";
  return "";
}

Tree Tree::fused(int k) {
  checkK(k);
  Tree t;
  t.k_ = k;
  if (k == 1) {
    t.addLeaf(0);
    return t;
  }
  std::vector<int> ch;
  for (int i = 0; i < k; ++i) ch.push_back(t.addLeaf(i));
  t.addInner(ch);
  return t;
}

namespace {
/// Recursive-descent parser for tree S-expressions.
class Parser {
public:
  explicit Parser(const std::string &s) : s_(s) {}

  /// Parses one expression; appends nodes via the callbacks. Returns the node index.
  template <class Leaf, class Inner> int expr(Leaf &&leaf, Inner &&inner) {
    skip();
    if (i_ >= s_.size()) fail("unexpected end of tree, expected a leaf index or '('");
    char c = s_[i_];
    if (c == '(') {
      int open = int(i_);
      // A valid tree over at most 64 leaves nests at most 63 levels; stop far deeper input
      // here, before the recursion could exhaust the stack.
      if (++depth_ > 64) fail("tree nested deeper than 64 levels");
      ++i_;
      std::vector<int> ch;
      for (;;) {
        skip();
        if (i_ >= s_.size())
          throw TreeError("unclosed '(' opened at character " + std::to_string(open + 1), open);
        if (s_[i_] == ')') break;
        ch.push_back(expr(leaf, inner));
      }
      if (ch.size() < 2)
        throw TreeError("a node needs two or more children (at character " +
                            std::to_string(open + 1) + ")",
                        open);
      ++i_;
      --depth_;
      return inner(std::move(ch));
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int start = int(i_);
      long v = 0;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
        v = v * 10 + (s_[i_] - '0');
        if (v > 1000000) fail("leaf index too large");
        ++i_;
      }
      return leaf(int(v), start);
    }
    if (c == ')') fail("unexpected ')'");
    fail(std::string("unexpected character '") + c + "'");
    return -1;
  }

  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool atEnd() {
    skip();
    return i_ >= s_.size();
  }
  [[noreturn]] void fail(const std::string &msg) {
    throw TreeError(msg + " at character " + std::to_string(i_ + 1), int(i_));
  }
  size_t pos() const { return i_; }

private:
  const std::string &s_;
  size_t i_ = 0;
  int depth_ = 0;  ///< open parentheses on the current path
};
}  // namespace

Tree Tree::parse(const std::string &text, int k) {
  checkK(k);
  if (text == "seq") return seq(k);
  if (text == "pairwise") return pairwise(k);
  if (text == "fused") return fused(k);
  Tree t;
  t.k_ = k;
  std::vector<int> seen(size_t(k), -1);
  Parser p(text);
  auto leaf = [&](int v, int pos) {
    if (v >= k)
      throw TreeError("leaf " + std::to_string(v) + " out of range for k = " + std::to_string(k) +
                          " at character " + std::to_string(pos + 1),
                      pos);
    if (seen[size_t(v)] >= 0)
      throw TreeError("leaf " + std::to_string(v) + " appears twice (at characters " +
                          std::to_string(seen[size_t(v)] + 1) + " and " + std::to_string(pos + 1) +
                          ")",
                      pos);
    seen[size_t(v)] = pos;
    return t.addLeaf(v);
  };
  auto inner = [&](std::vector<int> ch) { return t.addInner(std::move(ch)); };
  if (p.atEnd()) throw TreeError("empty tree (expected seq, pairwise, fused or an S-expression)", 0);
  bool named = !text.empty() && std::isalpha(static_cast<unsigned char>(text[0]));
  if (named)
    throw TreeError("unknown tree '" + text + "' (expected seq, pairwise, fused or an S-expression)", 0);
  p.expr(leaf, inner);
  if (!p.atEnd()) p.fail("trailing input after the tree");
  std::string missing;
  for (int i = 0; i < k; ++i)
    if (seen[size_t(i)] < 0) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  if (!missing.empty())
    throw TreeError("tree does not use leaf " + missing + " (k = " + std::to_string(k) +
                        ": every index 0.." + std::to_string(k - 1) + " must appear once)",
                    -1);
  return t;
}

bool Tree::isBinary() const {
  return std::all_of(nodes_.begin(), nodes_.end(),
                     [](const Node &n) { return n.leaf >= 0 || n.children.size() == 2; });
}

std::string Tree::sexprOf(int node) const {
  const Node &n = nodes_[size_t(node)];
  if (n.leaf >= 0) return std::to_string(n.leaf);
  std::string s = "(";
  for (size_t i = 0; i < n.children.size(); ++i) {
    if (i) s += ' ';
    s += sexprOf(n.children[i]);
  }
  return s + ")";
}

std::string Tree::sexpr() const { return sexprOf(root()); }

std::vector<int> Tree::leafCounts() const {
  std::vector<int> c(nodes_.size(), 0);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].leaf >= 0)
      c[i] = 1;
    else
      for (int ch : nodes_[i].children) c[i] += c[size_t(ch)];
  }
  return c;
}

int Tree::maxNonRootLeaves() const {
  std::vector<int> c = leafCounts();
  int best = 0;
  for (size_t i = 0; i + 1 < nodes_.size(); ++i)
    if (nodes_[i].leaf < 0) best = std::max(best, c[i]);
  return best;
}

int Tree::depth() const {
  std::vector<int> dep(nodes_.size(), 0);
  for (size_t i = 0; i < nodes_.size(); ++i)
    for (int ch : nodes_[i].children) dep[i] = std::max(dep[i], dep[size_t(ch)] + 1);
  return dep.empty() ? 0 : dep.back();
}

}  // namespace mxcert
