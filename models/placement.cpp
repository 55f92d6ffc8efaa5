// models/placement.cpp — names of placements and relations.
#include "models/placement.h"

#include <algorithm>

namespace mxcert {

const char *toString(Placement p) {
  switch (p) {
  case Placement::Pre: return "pre";
  case Placement::Post: return "post";
  case Placement::Dequant: return "dequant";
  case Placement::Post2: return "post2";
  }
  return "?";
}

std::optional<Placement> parsePlacement(const std::string &s) {
  for (Placement p : allPlacements())
    if (s == toString(p)) return p;
  return std::nullopt;
}

const std::vector<Placement> &allPlacements() {
  static const std::vector<Placement> kAll = {Placement::Pre, Placement::Post, Placement::Dequant,
                                              Placement::Post2};
  return kAll;
}

bool dependsOnEOnly(Placement p) { return p == Placement::Pre || p == Placement::Post; }

const char *toString(Relation r) { return r == Relation::Bitwise ? "bitwise" : "value"; }

std::optional<Relation> parseRelation(const std::string &s) {
  if (s == "bitwise") return Relation::Bitwise;
  if (s == "value") return Relation::Value;
  return std::nullopt;
}

std::string dazUnsupported(const ModelConfig &cfg) {
  if (cfg.acc.subnormals != Subnormals::DAZ) return "";
  if (cfg.nvfp4()) return "--subnormals daz is defined for MX (e8m0) scales only, not nvfp4";
  for (const ElementFormat *f : {&cfg.a, &cfg.b})
    if (f->quantumExp() < cfg.acc.fmt.emin())
      return "--subnormals daz: " + f->name + " has values that are subnormal in " + cfg.acc.fmt.name +
             " (2^" + std::to_string(f->quantumExp()) + " < 2^" + std::to_string(cfg.acc.fmt.emin()) +
             "), which DAZ would read as zero; the model defines daz where every element value is normal";
  return "";
}

std::string treeText(const ModelConfig &cfg) {
  return cfg.anyOrder ? anyOrderName(cfg.anyOrder, cfg.k()) : cfg.tree.sexpr();
}

ModelConfig configWithTree(const ModelConfig &cfg, const Tree &t) {
  if (t.k() != cfg.k()) throw std::logic_error("configWithTree: the tree has a different k");
  ModelConfig c = cfg;
  c.tree = t;
  c.anyOrder = 0;
  c.maxSubtree = 0;
  return c;
}

ModelConfig everyTreeConfig(const ModelConfig &cfg) {
  ModelConfig c = cfg;
  c.tree = Tree::seq(cfg.k());
  c.anyOrder = std::max(cfg.k(), 2);  // "any": parseAnyOrder's value without a limit
  const int k = cfg.k();
  if (!cfg.anyOrder && k >= 3) {
    // A tree with no non-root inner node (fused: every child of the root is a leaf) has
    // m = 1, its own class: no node step, one child of one leaf at a time.
    const int m = std::max(1, cfg.tree.maxNonRootLeaves());
    if (m < k - 1) c.maxSubtree = m;
  }
  return c;
}

}  // namespace mxcert
