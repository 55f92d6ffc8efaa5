// certs/table_name.h — the one definition of a guard table's name (its certificate's file
// name in certs/tables/ and in a sweep's directory; docs/sweeps.md).
#pragma once

#include "models/placement.h"

#include <string>

namespace mxcert::certs {

/// The TREE part of a table's name: `given` itself when it is "seq", "pairwise" or "fused"
/// (the --tree option as written), else "tree" followed by the first 8 hex digits of the
/// SHA-256 of `tree.sexpr()`. The spelling counts, not the shape: at k = 2 the three named
/// trees are one tree, and `--tree pairwise --k 2` is named "pairwise".
std::string tableTreeTag(const Tree &tree, const std::string &given);

/// The name of the table of configuration `c`, placements `lhs`/`rhs`, relation `rel` and
/// engine `engine` ("solver" or "exhaustive"), its tree written `treeGiven` (see
/// tableTreeTag):
/// `AxB_ACC_ROUND_SUBNORMALS_kK_TREE_LHS-RHS_RELATION`, with `_exhaustive` appended for the
/// exhaustive engine, e.g. "e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise". NVFP4 (e4m3
/// scales) writes AxB-e4m3: "e2m1xe2m1-e4m3_f32_rne_keep_k2_seq_dequant-post_bitwise_exhaustive".
/// An any-order table's TREE is "any" ("any:N": "anyN"), e.g.
/// "e2m1xe2m1_f32_rne_keep_k32_any_pre-post_bitwise".
std::string tableName(const ModelConfig &c, const std::string &treeGiven, Placement lhs, Placement rhs, Relation rel,
                      const std::string &engine);

/// The file name of that table's certificate: tableName(...) + ".json".
std::string tableFileName(const ModelConfig &c, const std::string &treeGiven, Placement lhs, Placement rhs,
                          Relation rel, const std::string &engine);

}  // namespace mxcert::certs
