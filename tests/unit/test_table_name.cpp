// tests/unit/test_table_name.cpp — certs::tableName, the one definition of a table's name:
// every committed table in certs/tables/ is named by it (from its own configuration, the
// tree's standard name and its placements, relation and engine), the tree is named as it was
// spelled (at k = 2 seq, pairwise and fused are one tree with three names), an explicit tree
// is "tree" and 8 hex digits of its S-expression's SHA-256, and the exhaustive engine appends
// "_exhaustive". Each committed any-order table lies inside the same configuration's
// committed seq and pairwise tables.
#include "certs/certificate.h"
#include "certs/table_name.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace mxcert;

namespace {

/// e2m1 x e2m1, f32 rne keep, over `tree`.
ModelConfig e2m1(const Tree &tree) {
  return ModelConfig{*findElementFormat("e2m1"), *findElementFormat("e2m1"),
                     AccSpec{*findAccFormat("f32"), Rounding::RNE, Subnormals::Keep}, tree};
}

}  // namespace

TEST_CASE("table names: every committed table is named by certs::tableFileName") {
  int n = 0;
  for (const auto &d : std::filesystem::directory_iterator(MXCERT_TABLES_DIR)) {
    const std::string file = d.path().filename().string();
    if (d.path().extension() != ".json") continue;
    const certs::Certificate c = certs::readCertificate(d.path().string());
    CHECK(certs::tableFileName(c.config, c.config.tree.standardName(), c.lhs, c.rhs, c.relation, c.engine) == file);
    ++n;
  }
  CHECK(n == 109);
}

TEST_CASE("committed tables: each any-order table lies inside the named trees' tables") {
  // Every tree's agree set contains the any-order agree set, so the committed any-order
  // table of a configuration lies inside its committed seq and pairwise tables (k = 32; the
  // any-order tables themselves are re-checked by cert_check_tables).
  int n = 0;
  for (const auto &d : std::filesystem::directory_iterator(MXCERT_TABLES_DIR)) {
    const std::string file = d.path().filename().string();
    const size_t at = file.find("_k32_any_");
    if (at == std::string::npos) continue;
    const CodeSet any = certs::readCertificate(d.path().string()).agree.toSet();
    for (const char *tree : {"_k32_seq_", "_k32_pairwise_"}) {
      const std::string named = file.substr(0, at) + tree + file.substr(at + 9);
      INFO(file << " vs " << named);
      const CodeSet t = certs::readCertificate(std::string(MXCERT_TABLES_DIR) + "/" + named).agree.toSet();
      CHECK(any.intersect(t) == any);
      ++n;
    }
  }
  CHECK(n == 40);  // 5 formats x 2 placement pairs x 2 relations, against 2 trees each
}

TEST_CASE("table names: the tree as spelled, explicit trees, the engine") {
  CHECK(certs::tableName(e2m1(Tree::seq(2)), "pairwise", Placement::Dequant, Placement::Post, Relation::Bitwise,
                         "solver") == "e2m1xe2m1_f32_rne_keep_k2_pairwise_dequant-post_bitwise");
  CHECK(certs::tableName(e2m1(Tree::seq(2)), "fused", Placement::Pre, Placement::Post, Relation::Value, "solver") ==
        "e2m1xe2m1_f32_rne_keep_k2_fused_pre-post_value");
  // sha256("((0 1) (2 3))") = ba883afb...
  CHECK(certs::tableName(e2m1(Tree::parse("((0 1) (2 3))", 4)), "((0 1) (2 3))", Placement::Dequant, Placement::Post,
                         Relation::Bitwise, "solver") == "e2m1xe2m1_f32_rne_keep_k4_treeba883afb_dequant-post_bitwise");
  // An S-expression that happens to be a named tree is still named by its hash (as given).
  CHECK(certs::tableTreeTag(Tree::pairwise(4), "((0 1) (2 3))") == "treeba883afb");
  CHECK(certs::tableFileName(e2m1(Tree::seq(2)), "seq", Placement::Dequant, Placement::Post, Relation::Bitwise,
                             "exhaustive") == "e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise_exhaustive.json");
}
