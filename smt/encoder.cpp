// smt/encoder.cpp — the QF_LIA encoding of a placement query (see encoder.h).
#include "smt/encoder.h"

#include "models/placement.h"
#include "smt/induction_encoder.h"
#include "smt/smtlib.h"
#include "smt/term_domain.h"

#include <algorithm>
#include <memory>
#include <system_error>
#include <thread>

namespace mxcert::smt {

namespace {
/// The smallest e = xa + xb - 254 of region r's pairs that its e range allows (the value of
/// the constant e of a one-e region).
int lowestE(const Region &r) { return std::max(r.e.lo, r.xa.lo + r.xb.lo - 254); }
}  // namespace

std::string describeQuery(const Query &q) {
  const ModelConfig &c = q.cfg;
  std::string fixed;
  for (size_t i = 0; i < q.fixed.size(); ++i)
    if (q.fixed[i])
      fixed += (fixed.empty() ? "" : ",") + std::to_string(i) + "=(" + std::to_string(q.fixed[i]->first) + "," +
               std::to_string(q.fixed[i]->second) + ")";
  const std::string what =
      q.step ? "mxcert induction step '" + std::string(toString(*q.step)) + "' fails for " + toString(q.lhs) + " ~ " +
                   toString(q.rhs) + " (" + toString(q.rel) + "), invariant " + q.inv.str(q.lhs, q.rhs)
             : "mxcert query: exists an input with " + std::string(toString(q.lhs)) + " !~ " + toString(q.rhs) + " (" +
                   toString(q.rel) + ")";
  return what + "\nconfig: a=" + c.a.name + " b=" + c.b.name +
         " acc=" + c.acc.fmt.name + " round=" + toString(c.acc.rounding) +
         " subnormals=" + toString(c.acc.subnormals) + " k=" + std::to_string(c.k()) +
         " tree=" + treeText(c) +
         (c.anyOrder && c.maxSubtree == 1 ? "\ntrees: every child of the root is a leaf"
          : c.anyOrder && c.maxSubtree ? "\ntrees: every non-root node has at most " + std::to_string(c.maxSubtree) + " leaves"
                                       : "") +
         (c.nvfp4() ? " scale=e4m3" : "") +
         "\nregion: " + (c.nvfp4() && q.nv ? q.nv->str() : q.region.str()) +
         (fixed.empty() ? "" : "\nfixed leaves (a code, b code): " + fixed);
}

namespace {

/// Frees `store` on a detached thread, so that the caller, past its deadline, reports and
/// exits without waiting (the process's end ends the thread too). Where no thread can be
/// made, it is freed here.
void releaseStore(TermStore &&store) {
  auto held = std::make_unique<TermStore>(std::move(store));
  try {
    std::thread([s = std::move(held)]() mutable { s.reset(); }).detach();
  } catch (const std::system_error &) {
    // The lambda, and the store with it, is destroyed here.
  }
}

}  // namespace

LiaEncoding::LiaEncoding(const Query &q) : q_(q) {
  try {
    build(q);
  } catch (const BudgetExceeded &) {
    if (q.budget && q.budget->passed()) releaseStore(std::move(store_));
    throw;
  }
}

LiaEncoding::~LiaEncoding() {
  // A large store near the deadline too: freeing it here could take the command past it.
  constexpr size_t kLargeStore = 1'000'000;      // terms
  constexpr double kNearDeadlineSec = 30;
  const Budget *b = q_.budget;
  if (b && (b->passed() || (store_.size() >= kLargeStore && b->remaining() < kNearDeadlineSec)))
    releaseStore(std::move(store_));
}

void LiaEncoding::build(const Query &q) {
  // The budget bounds construction only (the store is not extended afterwards).
  struct BudgetScope {
    TermStore &s;
    ~BudgetScope() { s.setBudget(nullptr); }
  } scope{store_};
  store_.setBudget(q.budget);
  store_.setFault(q.fault);
  store_.setObligations(q.obligations);
  // A query with fixed leaves is a counterexample search: its unsat proves no region, so
  // its facts need no phase (a model is still replayed by the reference evaluator).
  bool someFixed = false;
  for (const auto &f : q.fixed) someFixed = someFixed || f.has_value();
  store_.setGoalOnly(someFixed);
  TermDomain d(store_);
  if (q.cfg.nvfp4()) {
    encodeNvfp4(d);
    return;
  }
  const Region &r = q.region;
  const int eLo = lowestE(r);
  const int eHi = std::min(r.e.hi, r.xa.hi + r.xb.hi - 254);
  if (eLo > eHi || r.xa.empty() || r.xb.empty()) {
    empty_ = true;
    store_.assertTrue(store_.boolConst(false));
    return;
  }
  SInt xa{store_.intVar("xa", r.xa.lo, r.xa.hi)};
  // A region of one e value states e as that constant: pre's exact scaling by 2^e and post's
  // final one then fold where e = 0 (X + 0 is X), so that the two placements build the same
  // terms wherever they compute the same thing.
  SInt e{eLo == eHi ? store_.intConst(int64_t(eLo)) : store_.intVar("e", eLo, eHi)};
  // Likewise a region of one xa states sa as that constant (xa stays a variable of the query,
  // fixed by the region's bounds): post2's first scaling by 2^sa is then the same term as
  // post's scaling by 2^e where the two exponents are equal (sb = 0).
  // And a region of one xb (and more than one xa) states sb as that constant and sa = e - sb,
  // tied to xa by the assertion xa = sa + 127: post2's second scaling by 2^sb is then a
  // scaling by a constant, and at sb = 0 by 2^0, which keeps the first rounding's result
  // (rounding is idempotent), so post2's root rnd(rnd(T 2^sa) 2^0) is rnd(T 2^e), the same
  // terms as post's (sa = e - 0 = e).
  const bool oneXb = r.xa.lo != r.xa.hi && r.xb.lo == r.xb.hi;
  SInt sa = r.xa.lo == r.xa.hi ? d.lit(Integer(r.xa.lo - 127))
            : oneXb            ? d.sub(e, d.lit(Integer(r.xb.lo - 127)))
                               : d.sub(xa, d.lit(127));
  SInt sb = oneXb ? d.lit(Integer(r.xb.lo - 127)) : d.sub(e, sa);
  if (oneXb) {
    store_.assertTrue(d.eq(xa, d.add(sa, d.lit(127))).t);
    store_.refine(sa.t, Interval{Integer(r.xa.lo - 127), Integer(r.xa.hi - 127)});
  }
  // xb = e - xa + 254 must lie in the region's xb range.
  store_.refine(sb.t, Interval{Integer(r.xb.lo - 127), Integer(r.xb.hi - 127)});
  const Interval sbr = store_.node(sb.t).range;
  const Interval sar = store_.node(sa.t).range;
  if (sbr.lo > sbr.hi || sar.lo > sar.hi) {
    empty_ = true;
    store_.assertTrue(store_.boolConst(false));
    return;
  }
  Scales<TermDomain> scales{sa, sb, e, d.litB(false)};
  if (q.step) {
    encodeInductionStep(d, q, scales);
    return;
  }
  if (q.cfg.anyOrder) throw std::logic_error("an any-order query is built one induction step at a time");
  std::vector<Val<TermDomain>> A, B;
  decodeInputs(d, A, B);
  const Scales<TermDomain> &s = scales;
  // (Each placement's leaves, then its tree: the order in which terms are made names them.)
  auto eval = [&](Placement p, Placement partner, std::vector<Val<TermDomain>> &leaves) {
    for (int i = 0; i < q.cfg.k(); ++i)
      leaves.push_back(placementLeafBeside(d, p, partner, q.cfg, A[size_t(i)], B[size_t(i)], s));
    return placementRootBeside(d, p, partner, q.cfg, evalTree(d, q.cfg.tree, leaves, q.cfg.acc), s);
  };
  std::vector<Val<TermDomain>> L1, L2;
  Val<TermDomain> R1 = eval(q.lhs, q.rhs, L1);
  Val<TermDomain> R2 = eval(q.rhs, q.lhs, L2);
  assertDiffer(d, R1, R2, L1, L2);
}

void LiaEncoding::assertDiffer(TermDomain &d, const Val<TermDomain> &R1, const Val<TermDomain> &R2,
                               const std::vector<Val<TermDomain>> &L1, const std::vector<Val<TermDomain>> &L2) {
  SBool goal = d.lnot(related(d, R1, R2, q_.rel));
  // The shared-root rule (models/placement.h): pre and dequant differ only where a leaf does.
  // Only for that pair, so that every other query's text is unchanged.
  if (q_.lhs != q_.rhs && sameRootStep(q_.lhs, q_.rhs)) goal = d.land(goal, someLeafDiffers(d, L1, L2));
  store_.assertGoal(goal.t);
}

void LiaEncoding::decodeInputs(TermDomain &d, std::vector<Val<TermDomain>> &A, std::vector<Val<TermDomain>> &B) {
  const Query &q = q_;
  for (int i = 0; i < q.cfg.k(); ++i) {
    const bool free = q.fixed.empty() || !q.fixed[size_t(i)];
    SInt ai{free ? store_.intVar("a" + std::to_string(i), 0, int(q.cfg.a.numCodes()) - 1)
                 : store_.intConst(int64_t(q.fixed[size_t(i)]->first))};
    SInt bi{free ? store_.intVar("b" + std::to_string(i), 0, int(q.cfg.b.numCodes()) - 1)
                 : store_.intConst(int64_t(q.fixed[size_t(i)]->second))};
    A.push_back(decodeElement(d, q.cfg.a, ai));
    B.push_back(decodeElement(d, q.cfg.b, bi));
  }
}

void LiaEncoding::encodeNvfp4(TermDomain &d) {
  const Query &q = q_;
  if (!q.nv) throw std::logic_error("an nvfp4 query needs a region in scale coordinates");
  if (q.step || q.cfg.anyOrder) throw std::logic_error("no any-order induction for nvfp4");
  // The odd parts are constant factors of every scaled significand: factoring them out lets
  // pre's leaf-by-leaf m 2^j t_i and post's m 2^j (sum of t_i) share their atoms.
  store_.setFactorConstants(true);
  // A sum of a few leaves takes a few hundred values, each with few significant bits: wide
  // value sets show a rounding of it exact where its interval cannot (k = 2, bf16: post's
  // rnd(t_1 + t_2)), so post's m 2^j rnd(T) and pre's sum of m 2^j t_i share their atoms.
  store_.setWideValueSets(true);
  const Nvfp4Region r = q.nv->tightened();
  if (r.count() == 0) {
    empty_ = true;
    store_.assertTrue(store_.boolConst(false));
    return;
  }
  // As for MX: the binade ja and the sum j = ja + jb are the variables (j a constant when the
  // region has one j, so that pre and post fold where they compute the same thing); jb = j - ja
  // is constrained to its range.
  SInt ja{r.ja.lo == r.ja.hi ? store_.intConst(int64_t(r.ja.lo)) : store_.intVar("ja", r.ja.lo, r.ja.hi)};
  SInt j{r.j.lo == r.j.hi ? store_.intConst(int64_t(r.j.lo)) : store_.intVar("j", r.j.lo, r.j.hi)};
  SInt jb = d.sub(j, ja);
  store_.refine(jb.t, Interval{Integer(r.jb.lo), Integer(r.jb.hi)});
  const Nvfp4Scales<TermDomain> s = makeNvfp4ScalesAt(d, r.ma, ja, r.mb, jb);
  std::vector<Val<TermDomain>> A, B;
  decodeInputs(d, A, B);
  auto eval = [&](Placement p, std::vector<Val<TermDomain>> &leaves) {
    for (int i = 0; i < q.cfg.k(); ++i) leaves.push_back(nvfp4Leaf(d, p, q.cfg, A[size_t(i)], B[size_t(i)], s));
    return nvfp4Root(d, p, q.cfg, evalTree(d, q.cfg.tree, leaves, q.cfg.acc), s);
  };
  std::vector<Val<TermDomain>> L1, L2;
  Val<TermDomain> R1 = eval(q.lhs, L1);
  Val<TermDomain> R2 = eval(q.rhs, L2);
  assertDiffer(d, R1, R2, L1, L2);
}

std::string LiaEncoding::phaseDescription(int p) const {
  if (p <= 0) return "the goal";
  const std::vector<size_t> fs = store_.factsOfPhase(p);
  if (fs.empty()) return "phase " + std::to_string(p);
  if (fs.size() > 1)
    return "the " + std::to_string(fs.size()) + " " + toString(store_.facts()[fs[0]].kind) + " facts";
  const size_t i = fs[0];
  return std::string(toString(store_.facts()[i].kind)) + " fact " + std::to_string(i) + " (term t" +
         std::to_string(store_.facts()[i].holds.id) + ")";
}

std::string LiaEncoding::factSummary() const {
  size_t n[kNumFactKinds] = {};
  for (const Fact &f : store_.facts()) ++n[int(f.kind)];
  std::string out = std::to_string(store_.facts().size()) + " fact" + (store_.facts().size() == 1 ? "" : "s");
  std::string parts;
  for (int k = 0; k < kNumFactKinds; ++k)
    if (n[k]) parts += (parts.empty() ? "" : ", ") + std::to_string(n[k]) + " " + toString(FactKind(k));
  return parts.empty() ? out : out + " (" + parts + ")";
}

bool LiaEncoding::modelDiffers(const std::map<std::string, Integer> &model) const {
  return store_.evalBool(store_.goal(), model);
}

std::vector<std::string> LiaEncoding::failedFacts(const std::map<std::string, Integer> &model) const {
  std::vector<std::string> out;
  for (size_t i : store_.failedFacts(model))
    out.push_back(std::string(toString(store_.facts()[i].kind)) + " fact " + std::to_string(i) + " (term t" +
                  std::to_string(store_.facts()[i].holds.id) + ")");
  return out;
}

ConcreteInput LiaEncoding::inputFromModel(const std::map<std::string, Integer> &m) const {
  ConcreteInput in;
  for (int i = 0; i < q_.cfg.k(); ++i) {
    const bool free = q_.fixed.empty() || !q_.fixed[size_t(i)];
    in.a.push_back(free ? unsigned(m.at("a" + std::to_string(i)).toInt64()) : q_.fixed[size_t(i)]->first);
    in.b.push_back(free ? unsigned(m.at("b" + std::to_string(i)).toInt64()) : q_.fixed[size_t(i)]->second);
  }
  if (q_.cfg.nvfp4()) {
    const Nvfp4Region r = q_.nv->tightened();
    auto var = [&](const char *n, int constant) {
      const auto it = m.find(n);  // absent when the range has one value (a constant)
      return it != m.end() ? int(it->second.toInt64()) : constant;
    };
    const int ja = var("ja", r.ja.lo), j = var("j", r.j.lo);
    in.xa = unsigned(e4m3CodeAt(r.ma, ja));
    in.xb = unsigned(e4m3CodeAt(r.mb, j - ja));
    return in;
  }
  const int64_t xa = m.at("xa").toInt64();
  const auto ei = m.find("e");  // absent when the region has one e value (a constant)
  const int64_t e = ei != m.end() ? ei->second.toInt64() : int64_t(lowestE(q_.region));
  in.xa = unsigned(xa);
  in.xb = unsigned(e - xa + 254);
  return in;
}

std::string LiaEncoding::smtlib2() const { return toSmtLib2(store_, describeQuery(q_)); }

}  // namespace mxcert::smt
