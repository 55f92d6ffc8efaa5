// models/induction.cpp — names of the any-order invariant's modes and steps, and the steps a
// configuration needs.
#include "models/induction.h"

#include <algorithm>

namespace mxcert {

const char *toString(InvariantMode m) {
  switch (m) {
  case InvariantMode::Scaled: return "scaled";
  case InvariantMode::Zero: return "zero";
  case InvariantMode::Equal: return "equal";
  }
  return "?";
}

std::optional<InvariantMode> parseInvariantMode(const std::string &s) {
  if (s == "scaled") return InvariantMode::Scaled;
  if (s == "zero") return InvariantMode::Zero;
  if (s == "equal") return InvariantMode::Equal;
  return std::nullopt;
}

const char *toString(InductionStep s) {
  switch (s) {
  case InductionStep::Leaf: return "leaf";
  case InductionStep::Start: return "start";
  case InductionStep::Add: return "add";
  case InductionStep::Node: return "node";
  case InductionStep::Root: return "root";
  case InductionStep::Root1: return "root1";
  }
  return "?";
}

std::optional<InductionStep> parseInductionStep(const std::string &s) {
  for (InductionStep x : {InductionStep::Leaf, InductionStep::Start, InductionStep::Add, InductionStep::Node,
                          InductionStep::Root, InductionStep::Root1})
    if (s == toString(x)) return x;
  return std::nullopt;
}

std::vector<InductionStep> inductionSteps(int k) {
  if (k == 1) return {InductionStep::Leaf, InductionStep::Root1};
  if (k == 2) return {InductionStep::Leaf, InductionStep::Root, InductionStep::Start, InductionStep::Add};
  return {InductionStep::Leaf, InductionStep::Root, InductionStep::Node, InductionStep::Start, InductionStep::Add};
}

std::vector<InductionStep> inductionSteps(const ModelConfig &cfg) {
  const ModelConfig c = cfg.anyOrder ? cfg : everyTreeConfig(cfg);
  std::vector<InductionStep> s = inductionSteps(c.k());
  if (inductionSubtreeBound(c) < 2) s.erase(std::remove(s.begin(), s.end(), InductionStep::Node), s.end());
  return s;
}

std::string Invariant::str(Placement lhs, Placement rhs) const {
  return std::string(toString(mode)) + ", base " + toString(baseIsRhs ? rhs : lhs) + ", grid 2^" +
         std::to_string(grid) + ", unit " + unit.str() + (noInf ? ", no infinities" : "") +
         (infAsNaN ? ", infinities as NaN" : "");
}

}  // namespace mxcert
