// models/tree.cpp — reduction trees: named trees, S-expression parsing and printing.
#include "models/tree.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

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

Tree Tree::restricted(int n) const {
  if (n < 1 || n > k_)
    throw TreeError("a restriction to " + std::to_string(n) + " leaves of a tree over " + std::to_string(k_), -1);
  Tree t;
  t.k_ = n;
  // kept[i]: node i's index in t, or -1 where nothing of it remains. Children come first.
  std::vector<int> kept(nodes_.size(), -1);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node &nd = nodes_[i];
    if (nd.leaf >= 0) {
      if (nd.leaf < n) kept[i] = t.addLeaf(nd.leaf);
      continue;
    }
    std::vector<int> children;
    for (int ch : nd.children)
      if (kept[size_t(ch)] >= 0) children.push_back(kept[size_t(ch)]);
    if (children.size() == 1)
      kept[i] = children[0];
    else if (children.size() > 1)
      kept[i] = t.addInner(std::move(children));
  }
  return t;
}

std::vector<Tree> Tree::all(int k, int maxFanIn) {
  checkK(k);
  if (k > kMaxAllTreesK)
    throw TreeError("Tree::all enumerates at most " + std::to_string(kMaxAllTreesK) + " leaves, got " + std::to_string(k), -1);
  if (maxFanIn < 2) throw TreeError("fan-in limit must be at least 2", -1);
  // S-expressions of every tree over a set of leaves (bit mask), children ordered by their
  // smallest leaf: the first child is a subtree containing the smallest leaf, the rest is a
  // forest of one or more trees over the remaining leaves (each forest ordered the same way).
  std::map<std::pair<unsigned, int>, std::vector<std::string>> forestMemo;  // (mask, max trees) -> forests
  std::map<unsigned, std::vector<std::string>> treeMemo;
  std::function<const std::vector<std::string> &(unsigned)> trees;
  std::function<const std::vector<std::string> &(unsigned, int)> forests;
  auto lowest = [](unsigned m) { return unsigned(__builtin_ctz(m)); };
  // Forests of 1 .. maxTrees trees covering `mask`, each tree's text separated by spaces.
  forests = [&](unsigned mask, int maxTrees) -> const std::vector<std::string> & {
    auto key = std::make_pair(mask, maxTrees);
    auto it = forestMemo.find(key);
    if (it != forestMemo.end()) return it->second;
    std::vector<std::string> out;
    const unsigned low = 1u << lowest(mask), rest = mask & ~low;
    // The first tree holds the lowest leaf and a subset of the rest.
    for (unsigned sub = rest;; sub = (sub - 1) & rest) {
      const unsigned first = low | sub, remain = mask & ~first;
      const std::vector<std::string> &ft = trees(first);
      if (remain == 0) {
        out.insert(out.end(), ft.begin(), ft.end());
      } else if (maxTrees > 1) {
        const std::vector<std::string> &fr = forests(remain, maxTrees - 1);
        for (const std::string &a : ft)
          for (const std::string &b : fr) out.push_back(a + " " + b);
      }
      if (sub == 0) break;
    }
    return forestMemo[key] = std::move(out);
  };
  trees = [&](unsigned mask) -> const std::vector<std::string> & {
    auto it = treeMemo.find(mask);
    if (it != treeMemo.end()) return it->second;
    std::vector<std::string> out;
    if ((mask & (mask - 1)) == 0) {
      out.push_back(std::to_string(lowest(mask)));
    } else {
      // An inner node: 2 .. maxFanIn children = the first child and a forest of 1 .. maxFanIn - 1.
      const unsigned low = 1u << lowest(mask), rest = mask & ~low;
      for (unsigned sub = rest;; sub = (sub - 1) & rest) {
        const unsigned first = low | sub, remain = mask & ~first;
        if (remain != 0) {
          const std::vector<std::string> &ft = trees(first);
          const std::vector<std::string> &fr = forests(remain, maxFanIn - 1);
          for (const std::string &a : ft)
            for (const std::string &b : fr) out.push_back("(" + a + " " + b + ")");
        }
        if (sub == 0) break;
      }
    }
    return treeMemo[mask] = std::move(out);
  };
  std::vector<Tree> result;
  for (const std::string &s : trees((1u << k) - 1)) result.push_back(parse(s, k));
  return result;
}

std::vector<Tree> Tree::shapes(int k, int maxFanIn) {
  checkK(k);
  if (maxFanIn < 2) throw TreeError("fan-in limit must be at least 2", -1);
  // Shapes as strings over the placeholder 'x', children in canonical (sorted) order: a
  // shape over n leaves is a leaf or a multiset of 2 .. maxFanIn child shapes whose sizes
  // sum to n, listed as a nondecreasing sequence (by size, then by index) so that each
  // multiset appears once.
  std::vector<std::vector<std::string>> byN(size_t(k) + 1);
  byN[1] = {"x"};
  for (int n = 2; n <= k; ++n) {
    std::vector<std::string> out;
    // Children in nondecreasing (size, index) order.
    std::function<void(int, int, int, int, std::string)> rec = [&](int left, int minSize, int minIdx, int count,
                                                                    std::string acc) {
      if (left == 0) {
        if (count >= 2) out.push_back("(" + acc + ")");
        return;
      }
      if (count == maxFanIn) return;
      for (int size = minSize; size <= left; ++size) {
        if (size == n) continue;  // a single child is no inner node
        const std::vector<std::string> &cs = byN[size_t(size)];
        for (int i = size == minSize ? minIdx : 0; i < int(cs.size()); ++i)
          rec(left - size, size, i, count + 1, acc + (acc.empty() ? "" : " ") + cs[size_t(i)]);
      }
    };
    rec(n, 1, 0, 0, "");
    byN[size_t(n)] = std::move(out);
  }
  std::vector<Tree> result;
  for (const std::string &shape : byN[size_t(k)]) {
    std::string text;
    int leaf = 0;
    for (char ch : shape) text += ch == 'x' ? std::to_string(leaf++) : std::string(1, ch);
    result.push_back(parse(text, k));
  }
  return result;
}

int parseAnyOrder(const std::string &text, int k) {
  if (text.rfind("any", 0) != 0) return 0;
  const int cap = std::max(k, 2);
  if (text == "any") return cap;
  if (text.size() < 5 || text[3] != ':')
    throw TreeError("expected 'any' or 'any:N' (N = the largest number of children of a node), got '" + text + "'", 3);
  const std::string n = text.substr(4);
  if (n.size() > 3 || !std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit((unsigned char)c); }))
    throw TreeError("any:N: N must be a number of children (2.." + std::to_string(kMaxK) + "), got '" + n + "'", 4);
  const int v = std::stoi(n);
  if (v < 2)
    throw TreeError("any:N: N must be at least 2 (an inner node sums two or more children), got " + n, 4);
  if (v > kMaxK) throw TreeError("any:N: N must be at most " + std::to_string(kMaxK) + ", got " + n, 4);
  return std::min(v, cap);
}

std::string anyOrderName(int fanIn, int k) {
  return fanIn >= k ? std::string("any") : "any:" + std::to_string(fanIn);
}

}  // namespace mxcert
