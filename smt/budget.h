// smt/budget.h — the one budget of a command: a wall-clock deadline and a cap on the size of
// the queries it builds.
//
// `mxcert --timeout S` means "this whole command ends within about S seconds": query
// construction, every solver call and every region split draw from the same deadline. A
// solver call gets min(its own per-call limit, the time left); once the deadline has passed no
// further query is built or solved, and what is not decided by then is unknown (exit 3),
// never proven. The term cap bounds the memory and time of building one query: a query that
// would exceed it is unknown as well (the table engine then splits the region, which makes
// smaller queries).
//
// Header-only (the solver-free engine uses it too). A Budget is a plain value owned by the command and passed by pointer (smt::Query::budget,
// engine::PairQuery::budget): no global state, two budgets side by side are independent.
#pragma once

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace mxcert::smt {

/// Seconds elapsed on the steady clock since t0 (the engines' timings and seed deadlines).
inline double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Thrown when a budget is spent while a query is being built (the deadline passed, or the
/// query exceeds the term cap). Callers turn it into "unknown", never into an answer.
struct BudgetExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A wall-clock deadline (optional) and a cap on the terms of one query (0 = no cap).
class Budget {
public:
  using Clock = std::chrono::steady_clock;

  /// No deadline, no term cap.
  Budget() = default;
  /// A deadline `seconds` from now (seconds > 0) and the given term cap.
  static Budget after(double seconds, size_t maxTerms = 0);

  /// Whether there is a deadline.
  bool hasDeadline() const { return deadline_.has_value(); }
  /// The seconds the command was given (0 when there is no deadline).
  double totalSeconds() const { return total_; }
  /// Seconds until the deadline (0 once passed; +infinity without a deadline).
  double remaining() const;
  /// Whether the deadline has passed, or the process was interrupted (SIGINT/SIGTERM, see
  /// interrupted()): either way the command stops building and solving.
  bool passed() const { return interrupted() || (deadline_ && Clock::now() >= *deadline_); }
  /// The limit for one solver call whose own limit is `perCall` seconds (<= 0: none):
  /// min(perCall, remaining()), at least 1 ms while the deadline has not passed; <= 0 means
  /// no limit at all (no deadline and no per-call limit).
  double limitFor(double perCall) const;
  /// The same for an optional budget (null: `perCall` unchanged).
  static double limitFor(const Budget *b, double perCall) { return b ? b->limitFor(perCall) : perCall; }

  /// The term cap of one query (0 = none).
  size_t maxTerms() const { return maxTerms_; }
  void setMaxTerms(size_t n) { maxTerms_ = n; }

  /// Throws BudgetExceeded naming `during` when the deadline has passed.
  void checkDeadline(const char *during) const;

  /// Why the command stops: "the --timeout of S s has passed" or "interrupted (signal N)".
  std::string stopReason() const;

  /// The interrupt flag: set by the command's SIGINT/SIGTERM handler (the one process-wide
  /// state here, as a signal can only reach the process), read by every budget.
  static volatile std::sig_atomic_t &interruptSignal() {
    static volatile std::sig_atomic_t sig = 0;
    return sig;
  }
  static bool interrupted() { return interruptSignal() != 0; }

private:
  std::optional<Clock::time_point> deadline_;
  double total_ = 0;
  size_t maxTerms_ = 0;
};

inline Budget Budget::after(double seconds, size_t maxTerms) {
  Budget b;
  b.total_ = seconds;
  b.deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  b.maxTerms_ = maxTerms;
  return b;
}

inline double Budget::remaining() const {
  if (!deadline_) return std::numeric_limits<double>::infinity();
  const double left = std::chrono::duration<double>(*deadline_ - Clock::now()).count();
  return std::max(0.0, left);
}

inline double Budget::limitFor(double perCall) const {
  if (!deadline_) return perCall;
  const double left = std::max(remaining(), 0.001);
  return perCall > 0 ? std::min(perCall, left) : left;
}

inline void Budget::checkDeadline(const char *during) const {
  if (passed()) throw BudgetExceeded(stopReason() + " while " + during);
}

inline std::string Budget::stopReason() const {
  char buf[64];
  if (interrupted())
    std::snprintf(buf, sizeof buf, "interrupted (signal %d)", int(interruptSignal()));
  else
    std::snprintf(buf, sizeof buf, "the --timeout of %g s has passed", total_);
  return buf;
}

}  // namespace mxcert::smt
