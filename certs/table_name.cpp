// certs/table_name.cpp — a guard table's name (see table_name.h).
#include "certs/table_name.h"

#include "certs/sha256.h"

namespace mxcert::certs {

std::string tableTreeTag(const Tree &tree, const std::string &given) {
  if (given == "seq" || given == "pairwise" || given == "fused") return given;
  return "tree" + sha256Hex(tree.sexpr()).substr(0, 8);
}

std::string tableName(const ModelConfig &c, const std::string &treeGiven, Placement lhs, Placement rhs, Relation rel,
                      const std::string &engine) {
  return c.a.name + "x" + c.b.name + (c.nvfp4() ? std::string("-") + toString(c.scale) : std::string()) + "_" + c.acc.fmt.name + "_" + toString(c.acc.rounding) + "_" +
         toString(c.acc.subnormals) + "_k" + std::to_string(c.k()) + "_" +
         (c.anyOrder ? (c.anyOrder >= c.k() ? std::string("any") : "any" + std::to_string(c.anyOrder))
                     : tableTreeTag(c.tree, treeGiven)) + "_" +
         toString(lhs) + "-" + toString(rhs) + "_" + toString(rel) + (engine == "exhaustive" ? "_exhaustive" : "");
}

std::string tableFileName(const ModelConfig &c, const std::string &treeGiven, Placement lhs, Placement rhs,
                          Relation rel, const std::string &engine) {
  return tableName(c, treeGiven, lhs, rhs, rel, engine) + ".json";
}

}  // namespace mxcert::certs
