// models/tree.h — reduction trees over k terms (SPEC §4).
//
// A tree's leaves are the term indices 0..k-1, each exactly once, in any order. Every inner
// node has two or more children and computes ONE rounding of the exact sum of its children.
// Named trees: seq = ((t0 + t1) + t2) + ..., pairwise = balanced (a range of n leaves splits
// into its first ceil(n/2) leaves and the rest), fused = one node over all k leaves.
// Explicit trees are S-expressions of leaf indices: "((0 1) (2 3))", "(0 1 2 3)", "0" (k=1).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace mxcert {

/// The largest block size k the tool accepts.
constexpr int kMaxK = 64;

/// A parse or validation error with the offending position (0-based character offset, or -1
/// when the problem is not at one character).
struct TreeError : std::runtime_error {
  TreeError(const std::string &msg, int pos) : std::runtime_error(msg), pos(pos) {}
  int pos;
};

/// A reduction tree. Nodes are stored children-before-parents; the root is the last node.
class Tree {
public:
  struct Node {
    int leaf = -1;              ///< term index for a leaf, -1 for an inner node
    std::vector<int> children;  ///< node indices of the children (inner nodes)
  };

  /// The tree for a name (seq, pairwise, fused) or an S-expression, checked against k.
  /// Throws TreeError naming the problem (and the character, for syntax errors).
  static Tree parse(const std::string &text, int k);
  /// seq over k leaves.
  static Tree seq(int k);
  /// pairwise over k leaves.
  static Tree pairwise(int k);
  /// fused over k leaves (k >= 2; for k = 1 the single leaf).
  static Tree fused(int k);

  /// "seq", "pairwise" or "fused" when the tree is that named tree over its k leaves (the
  /// first that matches: at k = 1 all three are the single leaf), else "".
  std::string standardName() const;

  /// Number of leaves.
  int k() const { return k_; }
  const std::vector<Node> &nodes() const { return nodes_; }
  int root() const { return int(nodes_.size()) - 1; }
  /// Whether every inner node has exactly two children.
  bool isBinary() const;
  /// The canonical S-expression ("((0 1) 2)"; "0" for a single leaf).
  std::string sexpr() const;
  /// Number of leaves under each node.
  std::vector<int> leafCounts() const;
  /// The largest number of leaves under a non-root inner node (0 if there is none).
  int maxNonRootLeaves() const;
  /// Depth of the tree (a leaf has depth 0).
  int depth() const;
  /// The tree over the leaves 0..n-1 (1 <= n <= k) that remains when the leaves n..k-1 are
  /// dropped: an inner node left with no child is dropped too, and one left with a single
  /// child is replaced by that child. With the dropped leaves +0, this tree and the whole one
  /// compute the same value up to the sign of a zero (a node's value is already rounded, so
  /// rnd(x + 0) = x); a caller that relies on it replays at k. restricted(k) is this tree,
  /// seq(k) restricts to seq(n), fused(k) to fused(n), and pairwise(k) to pairwise(n) where n
  /// is a power of two no larger than k's first half (pairwise(16) to ((0 1) (2 3)) for n = 4).
  Tree restricted(int n) const;

  bool operator==(const Tree &o) const { return sexpr() == o.sexpr(); }

  /// Every tree over k leaves (1 <= k <= kMaxAllTreesK) whose inner nodes have 2 .. maxFanIn
  /// children: all nestings, binary and fused nodes, every assignment of leaves. Children are
  /// unordered (an inner node is one rounding of an exact sum, which does not depend on the
  /// order of its terms), so each tree appears once, children ordered by their smallest
  /// leaf. Counts for k = 1..6 with no fan-in limit: 1, 1, 4, 26, 236, 2752; binary only:
  /// 1, 1, 3, 15, 105, 945. For cross-checking any-order tables at small k.
  static std::vector<Tree> all(int k, int maxFanIn);
  /// One tree per shape (unlabeled, unordered tree) over k leaves with fan-in 2 .. maxFanIn,
  /// leaves numbered 0..k-1 left to right. Relabeling the leaves of a tree only permutes
  /// its inputs, which range over every code at each leaf, so every tree of a shape has the
  /// same agree set: the shapes suffice for an intersection over all trees. Counts for
  /// k = 1..7 with no fan-in limit: 1, 1, 2, 5, 12, 33, 90; binary: 1, 1, 1, 2, 3, 6, 11.
  static std::vector<Tree> shapes(int k, int maxFanIn);

private:
  int addLeaf(int i);
  int addInner(std::vector<int> children);
  std::string sexprOf(int node) const;
  int k_ = 0;
  std::vector<Node> nodes_;
};

/// The largest k for which Tree::all enumerates (k = 7 has 39,208 trees).
constexpr int kMaxAllTreesK = 7;

/// An any-order specification: "any" (every tree over the k leaves) or "any:N" (every tree
/// whose inner nodes have at most N children; N = 2: binary trees only). Returns the fan-in
/// limit, normalized to min(N, max(k, 2)) (so "any:N" with N >= k is "any"), or 0 when `text`
/// does not start with "any". Throws TreeError for a malformed limit: not a number, below 2,
/// or above kMaxK.
int parseAnyOrder(const std::string &text, int k);
/// The canonical name of an any-order specification with fan-in limit `fanIn` over k
/// leaves: "any" when the limit does not restrict (fanIn >= k), else "any:N".
std::string anyOrderName(int fanIn, int k);

}  // namespace mxcert
