// src/engine/groups.h — grouping scale-code pairs whose evaluations coincide.
//
// Two code pairs are in one group when the reference evaluator's computation at one is the
// exact scaling (by a power of two) of the computation at the other, so that a witness for
// one is a witness for the other and they agree or differ together. The grouping uses only
// the semantics (docs/exhaustive.md):
//  * pre and post depend on the codes only through e = xa + xb - 254;
//  * dequant's leaves rnd(rnd(2^sa a) rnd(2^sb b)) equal pre's rnd(2^e a b) when both
//    scalings are exact for every element value (the code's "exact class");
//  * post2's root rnd(rnd(T rnd(2^sa)) rnd(2^sb)) equals post's rnd(2^e T) when rnd(2^sa),
//    rnd(2^sb) and T 2^sa are exact for every reachable tree result T (bounded by the tree
//    on all-maximal leaves, since rounding is monotone).
// Pairs outside the exact classes form groups of their own.
#pragma once

#include "src/engine/pair_query.h"

#include <array>
#include <functional>
#include <vector>

namespace mxcert::engine {

/// Whether the placement's tree sums depend on the codes (pre and dequant scale before the
/// tree: its leaves carry 2^e, or 2^sa and 2^sb).
inline bool treeDependsOnE(Placement p) { return p == Placement::Pre || p == Placement::Dequant; }
/// Whether the placement scales the tree's result at the root (post: 2^e; post2: rnd(2^sa),
/// then rnd(2^sb)).
inline bool rootDependsOnE(Placement p) { return p == Placement::Post || p == Placement::Post2; }

/// Marker for "exact class" in a group key.
constexpr int kExactClass = -1000000;
/// Marker for an unused key component.
constexpr int kNoKey = -1000001;

/// The groups of one placement pair.
struct CodeGroups {
  struct Group {
    /// dequant classes (a, b), post2 classes (a, b), e if the leaves depend on it, e if the
    /// root depends on it.
    std::array<int, 6> key;
    std::vector<std::pair<int, int>> pairs;  ///< (xa, xb), the first is the representative
    bool family = false;  ///< all classes exact: depends on e alone (up to scaling)
    int e = 0;            ///< e of the representative
  };
  std::vector<Group> groups;  ///< family groups first, by |e|, then the rest by key
  std::vector<int> groupOf;   ///< per pair (xa * 255 + xb): its group, or -1 if excluded
};

/// Runs `work` on n threads at once (this one among them; fewer where a thread cannot be
/// made: a small address space, ulimit -v), joins them all, then rethrows the first exception
/// a worker threw. `onError` (may be empty) runs in a worker that threw, before the others are
/// joined: the place to tell them to stop.
void runWorkers(size_t n, const std::function<void()> &work, const std::function<void()> &onError = {});

/// Calls fn(i) once for each i in 0 .. n - 1, on up to `threads` threads that claim the
/// indices one at a time (fn must be safe to call from several threads at once). After an
/// exception the indices not yet claimed are left out, and it is rethrown here.
void forEachIndex(size_t n, int threads, const std::function<void(size_t)> &fn);

/// The groups among `candidates` (indices into cg.groups) at whose representative pair input
/// w disagrees (witnessDisagrees(q, w, xa, xb)), in the order of `candidates`. Up to `threads`
/// threads share the groups, each with its own decoded block (DecodedBlock: w's tree and
/// elements decoded once per thread; it is not thread-safe), taking 32 groups at a time; the
/// answer does not depend on `threads`. `stop` (may be empty; called from every thread, so it
/// must be thread-safe) is polled before each 32 groups: once it returns true, the groups not
/// yet evaluated are left out, a partial answer and never a wrong one.
std::vector<size_t> disagreeingGroups(const PairQuery &q, const Witness &w, const CodeGroups &cg,
                                      const std::vector<size_t> &candidates, int threads,
                                      const std::function<bool()> &stop = {});

/// Groups the code pairs of `q`. With `collapse` false, only the grouping by e of placements
/// that depend on e alone is used. `only` restricts the pairs considered.
CodeGroups groupCodePairs(const PairQuery &q, bool collapse,
                          const std::function<bool(int, int)> &only = {});

}  // namespace mxcert::engine
