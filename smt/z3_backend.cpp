// smt/z3_backend.cpp — the Z3 backend (C++ API, one context per backend object).
#include "smt/backend.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_map>

namespace mxcert::smt {

namespace {

class Z3Backend : public Backend {
public:
  /// The context is made here, in the process that makes the backend: every check runs in a
  /// forked child (smt/isolated.h), which inherits it already built. Building a Z3 4.8.12
  /// context allocates and fills about 10 MB of tables; in a fresh child that cost about 50 ms
  /// of page faults per check, most of the time of a small query (docs/benchmarks.md). A
  /// child only touches the pages it writes.
  Z3Backend() : ctx_(makeContext()) {}
  std::string name() const override { return "z3"; }
  std::string version() const override {
    unsigned ma, mi, bu, re;
    Z3_get_version(&ma, &mi, &bu, &re);
    return std::to_string(ma) + "." + std::to_string(mi) + "." + std::to_string(bu);
  }

  /// One phase as one solver call.
  CheckResult checkPhase(const TermStore &store, int phase, double timeoutSec) override {
    if (!ctx_) ctx_ = makeContext();  // not made in the parent: try again here (a child)
    if (!ctx_) {
      CheckResult res;
      res.verdict = Verdict::Unknown;
      res.reason = "the solver ran out of memory (no Z3 context could be made)";
      res.exhausted = true;
      return res;
    }
    z3::context &ctx = *ctx_;
    const TermStore::Live live = store.live(phase);
    std::unordered_map<uint32_t, z3::expr> memo;
    std::vector<std::pair<std::string, z3::expr>> vars;
    for (TermRef v : live.variables) {
      z3::expr t = ctx.int_const(store.node(v).name.c_str());
      memo.emplace(v.id, t);
      vars.push_back({store.node(v).name, t});
    }
    const std::vector<uint32_t> order = store.reached(live.assertions);
    auto lit = [&](const Integer &v) { return ctx.int_val(v.str().c_str()); };
    for (uint32_t id : order) {
      if (memo.count(id)) continue;
      const Node &n = store.node(TermRef{id});
      auto A = [&](size_t i) { return memo.at(n.args[i]); };
      z3::expr t(ctx);
      switch (n.op) {
      case Op::IntConst: t = lit(n.c); break;
      case Op::BoolConst: t = ctx.bool_val(n.b); break;
      case Op::IntVar: t = memo.at(id); break;
      case Op::Lin: {
        z3::expr_vector parts(ctx);
        for (size_t i = 0; i < n.args.size(); ++i)
          parts.push_back(n.coefs[i] == Integer(1) ? A(i) : lit(n.coefs[i]) * A(i));
        if (!n.c.isZero()) parts.push_back(lit(n.c));
        t = parts.size() == 1 ? parts[0] : z3::sum(parts);
        break;
      }
      case Op::Ite:
      case Op::IteB: t = z3::ite(A(0), A(1), A(2)); break;
      case Op::Le0: t = A(0) <= 0; break;
      case Op::Eq0: t = A(0) == 0; break;
      case Op::Not: t = !A(0); break;
      case Op::And:
      case Op::Or: {
        z3::expr_vector cs(ctx);
        for (size_t i = 0; i < n.args.size(); ++i) cs.push_back(A(i));
        t = n.op == Op::And ? z3::mk_and(cs) : z3::mk_or(cs);
        break;
      }
      }
      memo.emplace(id, t);
    }
    // The plain `smt` tactic: the QF_LIA tactic's preprocessing (its simplifier) is what
    // takes the time on these queries (docs/solver.md, "Obligations mode"). The older simplex
    // solver (arith.solver=2) first, instead of 4.8.12's default (6): the induction steps'
    // node query (one rounding of an abstract sum) takes 0.26-0.36 s instead of 1.2-1.5 s at
    // e5m2 k = 32, and checking all 238 committed certificates one after another 171 s
    // instead of 196 s. Where it has not answered after kFirstSlice seconds, the default
    // solver gets the time that is left: two committed node steps (e3m2 x e5m2 k = 32
    // pairwise, both operand orders) take 22 s with the first and 0.4 s with the second, and
    // all 238 certificates 143 s (docs/solver.md, "Solver settings").
    auto makeSolver = [&](unsigned arithSolver, double seconds) {
      z3::solver slv = z3::tactic(ctx, "smt").mk_solver();
      z3::params p(ctx);
      p.set("arith.solver", arithSolver);
      if (seconds > 0) p.set("timeout", std::max(1u, unsigned(seconds * 1000)));  // never 0 (= no limit)
      slv.set(p);
      for (TermRef a : live.assertions) slv.add(memo.at(a.id));
      if (store.trivallyFalse()) slv.add(ctx.bool_val(false));
      return slv;
    };
    CheckResult res;
    auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    const double first = timeoutSec > 0 ? std::min(timeoutSec, kFirstSlice) : kFirstSlice;
    z3::solver slv = makeSolver(2u, first);
    z3::check_result r = slv.check();
    const double left = timeoutSec > 0 ? timeoutSec - elapsed() : 0;
    if (r == z3::unknown && (timeoutSec <= 0 || left > 0.1)) {
      slv = makeSolver(6u, left);
      r = slv.check();
    }
    res.seconds = elapsed();
    if (r == z3::unsat) {
      res.verdict = Verdict::Unsat;
    } else if (r == z3::sat) {
      res.verdict = Verdict::Sat;
      z3::model m = slv.get_model();
      for (auto &[nm, t] : vars)
        res.model[nm] = Integer::parse(m.eval(t, true).get_decimal_string(0));
    } else {
      res.verdict = Verdict::Unknown;
      res.reason = "z3 returned unknown (" + slv.reason_unknown() + ")";
    }
    return res;
  }

private:
  /// Seconds for arith.solver=2 before the default arithmetic solver takes over (checkPhase).
  static constexpr double kFirstSlice = 5;

  /// A new context, or null when Z3 cannot make one (out of memory: z3::context's
  /// constructor does not check, and then crashes on the null context).
  static std::unique_ptr<z3::context> makeContext() {
    Z3_config cfg = Z3_mk_config();
    if (!cfg) return nullptr;
    Z3_context probe = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!probe) return nullptr;
    Z3_del_context(probe);
    try {
      return std::make_unique<z3::context>();
    } catch (const std::exception &) {
      return nullptr;
    }
  }
  std::unique_ptr<z3::context> ctx_;  ///< one context for all checks (see the constructor)
};

}  // namespace

std::unique_ptr<Backend> makeZ3Backend() { return std::make_unique<Z3Backend>(); }

}  // namespace mxcert::smt
