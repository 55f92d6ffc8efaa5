// models/select.h — case splits that work on concrete values and on solver terms.
//
// A Select is an ordered list of arms (condition, value): its value is that of the first
// arm whose condition holds. The arms must cover every reachable input. Over the concrete
// domain every condition is known, so only the arm that holds is ever computed. Over a
// symbolic domain, arms whose condition the analysis proves false are skipped (that is the
// pruning), and the rest are merged into one if-then-else chain whose last arm is the
// default.
#pragma once

#include "models/domain.h"

#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace mxcert {

/// Merges two values of type T under a condition: d.ite for D::Int and D::Bool, otherwise
/// the static member T::ite(d, c, a, b) (Val, SumAcc, ... provide one).
template <class D, class T>
T mergeIte(D &d, const typename D::Bool &c, const T &a, const T &b) {
  if constexpr (std::is_same_v<T, typename D::Int>)
    return d.ite(c, a, b);
  else if constexpr (std::is_same_v<T, typename D::Bool>)
    return d.iteB(c, a, b);
  else
    return T::ite(d, c, a, b);
}

/// An ordered case split (see file comment).
template <class D, class T> class Select {
public:
  explicit Select(D &d) : d_(d) {}

  /// Adds the arm (c, f()). f is called only when c is not known to be false.
  template <class F> void when(const typename D::Bool &c, F &&f) {
    if (done_) return;
    std::optional<bool> k = d_.known(c);
    if (k && !*k) return;
    if (k && *k) {
      // A known-true arm ends the split: it is the default after the earlier arms.
      final_.emplace(f());
      done_ = true;
      return;
    }
    arms_.emplace_back(c, f());
  }

  /// Whether an arm is known to hold (no further arm can contribute).
  bool done() const { return done_; }

  /// Declares the arms' coverage established by the caller (a split over x == v for every
  /// value v of d.assumeValues): result() then records no coverage obligation.
  void covered() { covered_ = true; }

  /// The merged value. Throws std::logic_error when no arm is possible (a bug: the arms
  /// must cover every input). Without a known-true arm the last arm is the default: that
  /// some arm holds is an obligation (d.require), unless covered() said so.
  T result() {
    if (final_ && arms_.empty()) return std::move(*final_);
    std::optional<T> acc;
    if (final_) {
      acc.emplace(std::move(*final_));
    } else {
      if (arms_.empty()) throw std::logic_error("Select: no feasible arm");
      if (!covered_ && d_.obligations()) {
        typename D::Bool any = arms_.front().first;
        for (size_t i = 1; i < arms_.size(); ++i) any = d_.lor(any, arms_[i].first);
        d_.require(any, Obligation::Coverage);
      }
      acc.emplace(std::move(arms_.back().second));
      arms_.pop_back();
    }
    for (auto it = arms_.rbegin(); it != arms_.rend(); ++it)
      acc.emplace(mergeIte<D, T>(d_, it->first, it->second, *acc));
    return std::move(*acc);
  }

private:
  D &d_;
  std::vector<std::pair<typename D::Bool, T>> arms_;
  std::optional<T> final_;
  bool done_ = false;
  bool covered_ = false;
};

}  // namespace mxcert
