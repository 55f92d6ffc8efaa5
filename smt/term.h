// smt/term.h — a solver-independent QF_LIA formula as a hash-consed DAG, with the abstract
// analysis that prunes the encoding.
//
// Integer terms are kept in a canonical form: a constant, an atom (a variable or an
// if-then-else), or a linear combination  sum c_i * atom_i + k  (sorted by atom id). Equal
// linear combinations are therefore the same term, which is how two placements that perform
// the same computation end up sharing it, and how X1 - X2 = constant is detected.
//
// Every integer term carries an abstract value: a sound interval, the number of trailing
// zero bits every value is known to have ("granularity"), and, when small, the exact set of
// values it can take. Boolean terms carry a known value when the analysis decides them. The
// generic models code (models/arith.h) asks for these through smt::TermDomain and skips the
// case splits they rule out.
//
// Nothing here depends on a solver: backends (cvc5, Z3, SMT-LIB2 text) translate the DAG.
#pragma once

#include "models/domain.h"
#include "smt/budget.h"
#include "models/integer.h"

#include <cstdint>
#include <map>
#include <optional>
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
};

/// Largest value set tracked exactly.
constexpr size_t kMaxValues = 64;

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

  /// Narrows the analysis interval of t to r WITHOUT asserting anything: for bounds that
  /// follow from the semantics (e.g. rounding is monotone), so that later case splits are
  /// pruned. The concrete domain checks the same bounds at run time.
  void narrow(TermRef t, const Interval &r);
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
  Live live() const;
  /// Whether some assertion is the constant false (the query is trivially unsat).
  bool trivallyFalse() const { return falseAsserted_; }

  /// The value of a term under an assignment of its variables (by name); used to evaluate
  /// a solver model and in tests. Throws std::out_of_range for an unassigned variable.
  Integer evalInt(TermRef t, const std::map<std::string, Integer> &m) const;
  bool evalBool(TermRef t, const std::map<std::string, Integer> &m) const;

private:
  TermRef make(Node n);
  TermRef linear(std::vector<std::pair<uint32_t, Integer>> terms, const Integer &k);
  /// The linear view of an Int term: (atom, coef) pairs and constant.
  void linearView(TermRef t, std::vector<std::pair<uint32_t, Integer>> &out, Integer &k,
                  const Integer &scale) const;
  TermRef cmp0(Op op, TermRef lin);
  /// Records the last assertion (a division side constraint) and the bounds of q and r as
  /// definitional (see live()).
  void markDefinitional(TermRef q, TermRef r);
  void analyzeInt(Node &n) const;
  static std::string key(const Node &n);

  std::vector<Node> nodes_;
  const Budget *budget_ = nullptr;  ///< see setBudget
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
};

}  // namespace mxcert::smt
