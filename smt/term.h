// smt/term.h — a solver-independent QF_LIA formula as a hash-consed DAG, with the abstract
// analysis that prunes the encoding.
//
// Integer terms are kept in a canonical form: a constant, an atom (a variable or an
// if-then-else), or a linear combination  sum c_i * atom_i + k  (sorted by atom id). Equal
// linear combinations are therefore the same term, which is how two placements that perform
// the same computation end up sharing it, and how X1 - X2 = constant is detected.
//
// Every integer term carries an abstract value: an interval, the number of trailing zero
// bits every value has ("granularity"), and, when small, the set of values it can take. The
// generic models code (models/arith.h) asks for these through smt::TermDomain and skips the
// case splits they rule out; the store folds comparisons and divisions with them.
//
// None of that analysis is trusted (docs/solver.md, "Obligations"). Every decision is either
//   * recorded for the arithmetic checker (smt/abstract_check.h): each node's abstract value
//     must follow from its children's by one step of interval, granularity and value-set
//     arithmetic, and each folded comparison, fixed quotient and enumerated case split from
//     those values; by induction over the DAG this holds on every input; or
//   * a fact for the solver (Fact): a Boolean term that must hold on every input. The query
//     is  A and INV and (placements differ, or some fact fails),  where A are the
//     definitional constraints (satisfiable on every input) and INV asserts the intervals the
//     arithmetic checker verified. Unsat proves the agreement and every fact at once: on an
//     input where some fact fails, the first one that fails (in creation order) is stated
//     over terms that are still faithful there, so that input would be a model.
//
// Nothing here depends on a solver: backends (cvc5, Z3, SMT-LIB2 text) translate the DAG.
#pragma once

#include "models/domain.h"
#include "smt/budget.h"
#include "models/integer.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace mxcert::smt {

/// Term operators.
enum class Op : uint8_t {
  IntConst,  ///< c
  IntVar,    ///< a declared integer variable (name)
  Lin,       ///< sum coef[i] * args[i] + c   (args are atoms: IntVar or Ite)
  Ite,       ///< ite(args[0], args[1], args[2]) over Int
  BoolConst, ///< b
  Le0,       ///< args[0] <= 0   (args[0] an Int term)
  Eq0,       ///< args[0] == 0
  Not,       ///< not args[0]
  And,       ///< and of args (2 or more)
  Or,        ///< or of args (2 or more)
  IteB,      ///< ite(args[0], args[1], args[2]) over Bool
};

/// What a solver-checked fact states.
enum class FactKind : uint8_t {
  Coverage,   ///< some arm of a case split holds (the arms the analysis pruned were impossible)
  Precision,  ///< a finite value has at most p significant bits (Val::prec, models/arith.h)
  Quotient,   ///< where a division matters, its dividend lies in the range its quotient was given
  Decided,    ///< a comparison the analysis folded to a constant has that value on every input
};
constexpr int kNumFactKinds = 4;
const char *toString(FactKind k);

/// Test-only perturbations of the analysis (tests/solver/test_faults.cpp; docs/certificates.md,
/// "Fault injection"). Nothing on the command line sets one; Kind::None changes nothing.
struct FaultInjection {
  enum class Kind : uint8_t {
    None,
    IntervalTooTight,          ///< the site-th Lin or Ite node: the upper bound one too small
    GranularityTooCoarse,      ///< the site-th node with a nonzero range: one trailing zero too many
    DecidedWrong,              ///< the site-th comparison the analysis folds: the wrong way
    RuleWithoutSideCondition,  ///< ite(x == k, k, x) = x at the site-th ite over x == k,
                               ///< without checking that the other branch is x
    PrecisionTooSmall,         ///< the site-th static precision bound above the format's p
                               ///< claimed to be p (the rounding then taken as exact)
    PrecisionShownWrong,       ///< the same, and recorded as a precision decision that the
                               ///< analysis did not show (for the arithmetic checker to catch)
    AbstractionValueDropped,   ///< the site-th abstraction restricted to a value set: its
                               ///< largest value left out of the restriction
  };
  Kind kind = Kind::None;
  unsigned site = 0;  ///< 0-based index among the sites of that kind
};
const char *toString(FaultInjection::Kind k);

/// A handle to a term in a TermStore.
struct TermRef {
  uint32_t id = 0;
  bool operator==(const TermRef &o) const { return id == o.id; }
  bool operator!=(const TermRef &o) const { return id != o.id; }
};

/// One node of the DAG with its abstract value.
struct Node {
  Op op;
  std::vector<uint32_t> args;
  std::vector<Integer> coefs;  ///< Lin: one per arg
  Integer c;                   ///< IntConst value, Lin constant
  bool b = false;              ///< BoolConst value
  std::string name;            ///< IntVar name
  // Abstract value of Int terms.
  Interval range;
  unsigned tz = 0;
  std::optional<std::vector<Integer>> values;  ///< sorted, when at most kMaxValues
  // Abstract value of Bool terms.
  std::optional<bool> known;
  /// IntVar: the bounds asserted for it when it was declared.
  Interval declared;
};

/// A fact for the solver (see file comment).
struct Fact {
  TermRef holds;
  FactKind kind;
};

/// A decision of the analysis that the arithmetic checker verifies (smt/abstract_check.h).
struct Decision {
  enum class Kind : uint8_t {
    Compare,        ///< op(x) (x <= 0 or x == 0) folded to `value`
    QuotientKnown,  ///< floor(x / 2^j) is the constant k
    Division,       ///< fresh q (and r, unless r is the constant 0) for floor(x / 2^j)
    CondDivision,   ///< fresh q, r for floor(x / 2^j) where a condition holds
    Values,         ///< a case split over x == v for v in vals: x takes no other value
    Refine,         ///< the bounds [lo, hi] asserted for x (a relational fact)
    Abstraction,    ///< fresh k with 2^j k standing for node x in a local fact (and, where
                    ///< vals is not empty, the assertion r: k is one of vals)
    LocalCopy,      ///< fresh q copying division variable x in a local fact
    Precision,      ///< every value of x has at most j significant bits (the significant-bits
                    ///< rules of smt/abstract_check.h; a rounding then taken as exact)
  };
  Kind kind;
  uint32_t x = 0;
  Op op = Op::Le0;
  bool value = false;
  unsigned j = 0;
  uint32_t q = 0, r = 0;
  Integer k;
  Interval iv;                ///< Refine: the asserted bounds
  std::vector<Integer> vals;  ///< Values; Abstraction: the values k may take (x's value set / 2^j)
};

/// Largest value set tracked exactly.
constexpr size_t kMaxValues = 64;
/// Largest value set tracked exactly with wide value sets (TermStore::setWideValueSets).
constexpr size_t kMaxWideValues = 512;

/// Most Decided facts proven by one phase (one disjunction of their local statements): a few
/// are cheaper as one solver call than as one call each, but past a few dozen the
/// disjunction can cost far more than its parts (TermStore::assertGoal).
constexpr size_t kDecidedPerPhase = 64;

/// The DAG plus the side constraints that divisions introduce and the asserted formulas.
class TermStore {
public:
  TermStore();

  const Node &node(TermRef t) const { return nodes_[t.id]; }
  size_t size() const { return nodes_.size(); }

  /// The command's budget (not owned; may be null): construction throws BudgetExceeded once
  /// its deadline has passed or when the store would hold more than its term cap.
  void setBudget(const Budget *b) { budget_ = b; }

  // Construction (all fold constants and simplify with the analysis).
  TermRef intConst(const Integer &v);
  TermRef boolConst(bool b);
  /// A fresh integer variable with the given bounds (asserted as constraints).
  TermRef intVar(const std::string &name, const Integer &lo, const Integer &hi);
  TermRef add(TermRef a, TermRef b);
  TermRef sub(TermRef a, TermRef b);
  TermRef mulc(TermRef a, const Integer &c);
  TermRef ite(TermRef c, TermRef a, TermRef b);
  TermRef le(TermRef a, TermRef b);
  TermRef lt(TermRef a, TermRef b);
  TermRef eq(TermRef a, TermRef b);
  TermRef lnot(TermRef a);
  TermRef land(TermRef a, TermRef b);
  TermRef lor(TermRef a, TermRef b);
  TermRef lxor(TermRef a, TermRef b);
  TermRef iteB(TermRef c, TermRef a, TermRef b);
  /// floor division by 2^j: fresh q, r with x = 2^j q + r, 0 <= r < 2^j (side constraints),
  /// unless the analysis makes it trivial. Memoized per (x, j).
  std::pair<TermRef, TermRef> divPow2(TermRef x, unsigned j);
  /// The same division where it matters only when `c` holds, and then qlo <= q <= qhi: q and
  /// r get exactly those declared ranges, and x = 2^j q + r is asserted under c (c -> ...).
  /// These case-local bounds are what lets a solver see that a rounded significand lies in
  /// its binade. Memoized per (x, j, c).
  std::pair<TermRef, TermRef> divPow2Within(TermRef x, unsigned j, TermRef c, const Integer &qlo,
                                            const Integer &qhi);
  /// x where it matters only when `c` holds, and then lo <= x <= hi: a fresh q with exactly
  /// that declared range and c -> x = q (divPow2Within's construction with j = 0: with
  /// obligations, that c implies the range is a fact the solver proves). Lets the code of an
  /// arm whose condition bounds x compute from the narrower q. Memoized per (x, c).
  TermRef within(TermRef x, TermRef c, const Integer &lo, const Integer &hi);

  /// Applies a test-only fault (see FaultInjection) to the decisions made from now on.
  void setFault(const FaultInjection &f) { fault_ = f; }
  /// Obligations mode (see file comment; set before building anything): facts are recorded
  /// and checked, derived bounds (narrow) are not used, assertGoal builds the phases. Off:
  /// the analysis is trusted (its decisions are still recorded for the arithmetic checker)
  /// and the query is the goal alone.
  void setObligations(bool on) { obligations_ = on; }
  bool obligations() const { return obligations_; }
  /// Factoring constants (set before building anything; the NVFP4 encoding): an if-then-else
  /// whose branches are multiples of one constant g > 1 becomes g times the if-then-else of
  /// the quotients, and a comparison of a linear term whose coefficients share g is divided by
  /// g. Terms that differ only by a constant factor, such as m * 2^j * t summed leaf by leaf
  /// and m * 2^j times the sum of the t, then share their atoms. Off (the default), the store
  /// builds exactly the terms it always has.
  void setFactorConstants(bool on) { factorConstants_ = on; }
  /// Wide value sets (set before building anything; the NVFP4 encoding): value sets of up to
  /// kMaxWideValues values (not kMaxValues), and sigBits bounded by them too: every value of
  /// the node's (checked) set has at most that many significant bits. The sum of two leaves
  /// m_a m_b t_1 + m_a m_b t_2 of NVFP4 at k = 2 takes 253 values, each exact in bf16, which
  /// its interval [-288, 288] cannot show; a rounding shown exact that way (roundAcc,
  /// TermDomain::valuesShowPrecision) makes no case split, so that pre and post share their
  /// terms. Off (the default), the store builds exactly the terms it always has.
  void setWideValueSets(bool on) { wideValueSets_ = on; }
  bool wideValueSets() const { return wideValueSets_; }
  /// The largest value set tracked: kMaxWideValues with wide value sets, else kMaxValues.
  size_t maxValues() const { return wideValueSets_ ? kMaxWideValues : kMaxValues; }
  /// A counterexample search (with obligations; set before assertGoal): the facts are
  /// recorded but get no phase, so the query is the goal's phase alone. Its unsat is never
  /// a proof; a model is still a candidate that the reference evaluator must confirm.
  void setGoalOnly(bool on) { goalOnly_ = on; }
  /// Decided facts each in a phase of their own (set before assertGoal). Off (the default):
  /// they share the last phases, at most kDecidedPerPhase each, whose queries are the
  /// disjunctions of their local statements, one solver call for each group. On: one phase
  /// each, as every other fact. For queries
  /// where that disjunction is hard although each statement alone is easy (post2's root step
  /// over a wide tree value, docs/solver.md).
  void setSplitDecided(bool on) { splitDecided_ = on; }
  /// Narrows the analysis interval of t to r without asserting anything (a bound the
  /// semantics implies, e.g. rounding is monotone; the concrete domain checks it). Only
  /// without obligations: nothing would check it.
  void narrow(TermRef t, const Interval &r);

  /// Records a fact for the solver (a term known true records nothing; one known false is
  /// kept, and makes the query satisfiable).
  void require(TermRef b, FactKind kind);
  /// Records that a case split enumerates every value x can take (checked by arithmetic).
  void assumeValues(TermRef x, const std::vector<Integer> &vals);
  /// The solver facts so far, in creation order (no duplicates).
  const std::vector<Fact> &facts() const { return facts_; }
  /// The decisions for the arithmetic checker, in creation order.
  const std::vector<Decision> &decisions() const { return decisions_; }
  /// Asserts the query's goal: INV (the checked intervals of the if-then-else atoms and of
  /// the linear terms tighter than their parts) and (goal or some fact fails). Call once,
  /// after the whole encoding is built.
  void assertGoal(TermRef goal);
  /// The goal given to assertGoal (the constant false before).
  TermRef goal() const { return goal_; }
  /// The facts that a model violates (indices into facts()).
  std::vector<size_t> failedFacts(const std::map<std::string, Integer> &m) const;
  /// A static precision bound as the analysis uses it, for a format of p bits: `prec` itself
  /// (a test-only fault may claim p for a bound above p).
  unsigned perturbPrecision(unsigned prec, unsigned p) {
    precisionShownWrong_ = false;
    if (prec <= p) return prec;
    if (faultHere(FaultInjection::Kind::PrecisionTooSmall)) return p;
    if (faultHere(FaultInjection::Kind::PrecisionShownWrong)) {
      precisionShownWrong_ = true;  // the next showPrecision records its decision regardless
      return p;
    }
    return prec;
  }
  /// Whether the analysis shows that every value of x has at most p significant bits (N is
  /// 0 or odd * 2^j with odd < 2^p); if so, records it as a decision (Decision::Kind::
  /// Precision) for the arithmetic checker, which re-derives it with its own rules. The
  /// rules: a node's checked interval and granularity bound its significant bits; an
  /// if-then-else has at most the bits of its branches, its then-branch read under the
  /// comparisons its condition conjoins (x <= c, x == c on the branch itself: a rounding's
  /// exact arm N < 2^(p + tz)); a single multiple c * y adds the bits of c; with wide value
  /// sets, a node's checked value set bounds them too (the most bits of its values in the
  /// node's interval there). A rounding's
  /// result is an if-then-else of such arms, so a value rounded once needs no per-binade
  /// precision fact when it is rounded again (post's final scaling; docs/solver.md).
  bool showPrecision(TermRef x, unsigned p);
  /// The number of interval assertions INV added.
  size_t invariantAssertions() const { return invCount_; }
  /// Asserts a Boolean term (a top-level conjunct of the query).
  void assertTrue(TermRef b);
  /// Asserts lo <= t <= hi and narrows t's interval. For a linear t this is a relational
  /// fact: every linear term created afterwards that contains a multiple of t is analysed
  /// through it (so sb = e - xa + 127 bounds sb + c, not just sb).
  void refine(TermRef t, const Interval &r);

  /// Asserted formulas (including side constraints), in creation order.
  const std::vector<TermRef> &assertions() const { return assertions_; }
  /// Declared variables (IntVar nodes), in creation order.
  const std::vector<TermRef> &variables() const { return vars_; }

  /// The query as handed to a solver: the assertions and variables in the cone of influence
  /// of the query's own facts. A division's side constraint x = 2^j q + r (and the bounds of
  /// its fresh q, r) is kept only if q or r is reachable from a kept assertion: for every x
  /// some q, r in their declared bounds satisfy it (the bounds are sound ranges of x's
  /// semantic value), so dropping it neither adds nor removes models of the rest. Input
  /// variables and every non-definitional assertion are always kept.
  struct Live {
    std::vector<TermRef> assertions;  ///< in creation order
    std::vector<TermRef> variables;   ///< in creation order
  };
  Live live() const { return live(-1); }
  /// The query of one phase (after assertGoal: phase 0 is the goal and phases 1 .. F prove
  /// the F facts, one each; every one must be unsat): the common assertions (input bounds,
  /// refinements), the phase's own, and the definitional ones they reach. -1: all of them.
  Live live(int phase) const;
  /// The ids of every term the assertions reach (themselves and their arguments, transitively),
  /// in increasing order: children before parents, the order a backend translates them in.
  std::vector<uint32_t> reached(const std::vector<TermRef> &assertions) const;
  /// The facts a phase proves (indices into facts()): one for phases 1 .. F', and the
  /// Decided facts, in groups of at most kDecidedPerPhase, for the last phases when there are
  /// any (their local statements are independent, so one disjunction proves a group with one
  /// solver call), unless setSplitDecided gave each its own phase.
  std::vector<size_t> factsOfPhase(int phase) const;
  /// The number of phases (1 before assertGoal).
  int phaseCount() const { return phases_ == 0 ? 1 : phases_; }
  /// The phase of the goal (0), or -1 before assertGoal.
  int goalPhase() const { return phases_ > 0 ? 0 : -1; }
  /// Whether the goal folded to false (its phase is the constant false).
  bool goalFalse() const { return phases_ > 0 && goal_ == false_; }
  /// Whether some assertion is the constant false (the query is trivially unsat).
  bool trivallyFalse() const { return falseAsserted_; }

  /// The value of a term under an assignment of its variables (by name); used to evaluate
  /// a solver model and in tests. Throws std::out_of_range for an unassigned variable.
  Integer evalInt(TermRef t, const std::map<std::string, Integer> &m) const;
  bool evalBool(TermRef t, const std::map<std::string, Integer> &m) const;

private:
  TermRef make(Node n);
  /// divPow2Within's fresh quotient and remainder (also j = 0, for within).
  std::pair<TermRef, TermRef> condDiv(TermRef x, unsigned j, TermRef c, const Integer &qlo, const Integer &qhi);
  TermRef linear(std::vector<std::pair<uint32_t, Integer>> terms, const Integer &k);
  /// The linear view of an Int term: (atom, coef) pairs and constant.
  void linearView(TermRef t, std::vector<std::pair<uint32_t, Integer>> &out, Integer &k,
                  const Integer &scale) const;
  TermRef cmp0(Op op, TermRef lin);
  /// The common factor g > 1 of the terms' coefficients (and constants, withConstant) with
  /// the quotients (int64 only); nullopt when there is none.
  struct Factored {
    int64_t g;
    std::vector<std::vector<std::pair<uint32_t, Integer>>> parts;  ///< coefficients / g
    std::vector<Integer> constants;                                ///< constants, undivided
  };
  std::optional<Factored> commonFactor(std::initializer_list<TermRef> ts, bool withConstant) const;
  /// op(lin) as a node, never folded by the analysis (INV's assertions).
  TermRef rawCmp0(Op op, TermRef lin);
  /// Whether the site-th decision of fault kind k is now (counts every call).
  bool faultHere(FaultInjection::Kind k);
  /// "The fact fails", stated locally: the negation of a copy of the fact's DAG near the fact
  /// (with copies of the division side constraints it needs), the nodes beyond the frontier
  /// replaced by abstraction(): their checked interval, granularity and value set, no more. Where the
  /// fact fails, this holds too (with the copies and abstraction variables at the values of
  /// the nodes they stand for); so unsat of the query proves the fact. The query stays
  /// small: no computation behind the frontier enters it.
  TermRef localFact(TermRef fact);
  /// The abstraction of node id: for an Int node 2^t k with k a fresh variable ranging over
  /// the node's interval at granularity t (a constant for a point interval), and restricted
  /// to the node's value set where that set leaves out values of the grid; for a Bool node, a
  /// fresh truth value.
  TermRef abstraction(uint32_t id);
  /// A variable that is not an input: a division's q or r, an abstraction.
  TermRef freshVar(const std::string &name, const Integer &lo, const Integer &hi);
  /// Whether an IntVar is an input of the query (declared with intVar, not freshVar).
  bool isInput(uint32_t id) const { return inputs_.count(id) > 0; }
  static bool isBool(Op op) {
    return op == Op::BoolConst || op == Op::Le0 || op == Op::Eq0 || op == Op::Not || op == Op::And ||
           op == Op::Or || op == Op::IteB;
  }
  /// Records the last assertion (a division side constraint) and the bounds of q and r as
  /// definitional (see live()).
  void markDefinitional(TermRef q, TermRef r);
  /// After a division's side constraint (the last assertion): marks it definitional, links q
  /// and r (a variable) to it for local facts, and records the decision for the checker.
  void recordDivision(Decision::Kind kind, TermRef x, unsigned j, TermRef q, TermRef r);
  void analyzeInt(Node &n) const;
  static std::string key(const Node &n);
  /// The significant-bits bound of node id where the path's atoms hold (an atom and whether
  /// it is negated: the conditions of the if-then-else branches that select the node) and
  /// its value lies in `within` (null: anywhere); see showPrecision. Memoized without path.
  unsigned sigBits(uint32_t id, const std::vector<std::pair<uint32_t, bool>> &path, const Interval *within,
                   int depth);

  std::vector<Node> nodes_;
  const Budget *budget_ = nullptr;  ///< see setBudget
  /// Calls of make() and steps of localFact's walk, for checking the budget's deadline every
  /// 1024 of them: a construction that mostly finds existing nodes (hash-consing) or walks a
  /// large DAG creates few new ones, and the deadline was found passed seconds late there.
  uint64_t steps_ = 0;
  /// Counts one step; every 1024th checks the deadline (throws BudgetExceeded).
  void step() {
    if (budget_ && (++steps_ & 1023u) == 0) budget_->checkDeadline("building a query");
  }
  std::unordered_map<std::string, uint32_t> cons_;
  std::map<std::pair<uint32_t, unsigned>, std::pair<TermRef, TermRef>> divs_;
  std::map<std::tuple<uint32_t, unsigned, uint32_t>, std::pair<TermRef, TermRef>> condDivs_;
  std::vector<TermRef> assertions_;
  /// Definitional assertions (division side constraints and bounds of their fresh
  /// variables): assertion index -> the fresh variables it defines.
  std::map<size_t, std::vector<uint32_t>> defines_;
  /// The indices in assertions_ of each variable's two bound assertions (pushed by intVar),
  /// so that markDefinitional finds them without scanning every assertion.
  std::unordered_map<uint32_t, std::vector<size_t>> varBounds_;
  std::vector<TermRef> vars_;
  std::vector<uint32_t> refined_;  ///< Lin terms with asserted ranges (relational facts)
  std::map<std::string, uint32_t> varNames_;
  bool falseAsserted_ = false;
  TermRef true_, false_;
  std::vector<Fact> facts_;
  std::unordered_map<uint32_t, size_t> factIndex_;
  std::vector<Decision> decisions_;
  TermRef goal_;
  size_t invCount_ = 0;
  FaultInjection fault_;
  bool precisionShownWrong_ = false;  ///< see FaultInjection::Kind::PrecisionShownWrong
  std::unordered_map<uint32_t, unsigned> sigBits_;  ///< see sigBits
  unsigned faultCount_ = 0;
  bool obligations_ = false;
  bool factorConstants_ = false;
  bool wideValueSets_ = false;  ///< see setWideValueSets
  bool goalOnly_ = false;  ///< see setGoalOnly
  bool splitDecided_ = false;  ///< see setSplitDecided
  std::unordered_map<uint32_t, TermRef> abstractions_;
  std::set<uint32_t> inputs_;
  /// A division's fresh variable -> its side constraint (an assertion).
  std::unordered_map<uint32_t, uint32_t> divConstraint_;
  /// Assertion index -> its phase (assertions without one are common).
  std::unordered_map<size_t, int> phaseOf_;
  int phases_ = 0;
  std::vector<std::vector<size_t>> phaseFacts_;  ///< see factsOfPhase (index = phase)
  /// live()'s index, built for the first liveIndexSize_ assertions: non-definitional
  /// assertions per phase (-1: common), definitional ones per fresh variable they define.
  mutable size_t liveIndexSize_ = size_t(-1), liveIndexDefs_ = 0;
  mutable std::map<int, std::vector<size_t>> livePhase_;
  mutable std::unordered_map<uint32_t, std::vector<size_t>> liveDefs_;
  /// Appends an assertion of phase p, even a constant.
  void pushPhase(TermRef t, int p);
  /// Marks the bound assertions of a fresh variable definitional (kept where it is used).
  void boundsDefinitional(TermRef v);
};

}  // namespace mxcert::smt
