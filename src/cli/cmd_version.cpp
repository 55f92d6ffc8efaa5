// src/cli/cmd_version.cpp — `mxcert --version`: the release, the git revision it was built
// from, the solver versions, and an encoder identity.
//
// The encoder identity is the SHA-256 (first 16 hex digits) of the SMT-LIB2 text of a fixed
// set of probe queries (every element format, the placement pairs pre/post, dequant/post and
// post2/pre, both relations, rne/keep and rtz/ftz, k = 2 and a pairwise k = 4): certificates
// record the SHA-256 of each query's text, so a change of the encoder that would change query
// bytes changes this identity too (for any change the probes exercise; they are small, so this
// takes milliseconds).
#include "certs/sha256.h"
#include "smt/backend.h"
#include "smt/encoder.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"

#include "mxcert_revision.h"

#include <string>

namespace mxcert::cli {

std::string encoderIdentity() {
  std::string all;
  const char *formats[] = {"e2m1", "e2m3", "e3m2", "e4m3", "e5m2"};
  const std::pair<Placement, Placement> pairs[] = {
      {Placement::Pre, Placement::Post}, {Placement::Dequant, Placement::Post}, {Placement::Post2, Placement::Pre}};
  for (const char *f : formats)
    for (const auto &[lhs, rhs] : pairs)
      for (Relation rel : {Relation::Bitwise, Relation::Value})
        for (int variant = 0; variant < 2; ++variant) {
          const ElementFormat ef = *findElementFormat(f);  // a copy: the optional is a temporary
          AccSpec acc{*findAccFormat("f32")};
          if (variant) {
            acc.rounding = Rounding::RTZ;
            acc.subnormals = Subnormals::FTZ;
          }
          const int k = variant ? 4 : 2;
          ModelConfig cfg{ef, ef, acc, variant ? Tree::pairwise(k) : Tree::seq(k)};
          Region r;
          r.xa = {120, 130};
          r.xb = {125, 127};
          smt::Query q{cfg, lhs, rhs, rel, r, {}, nullptr, false, {}, {}, {}, {}};
          all += smt::LiaEncoding(q).smtlib2();
        }
  return certs::sha256Hex(all).substr(0, 16);
}

int cmdVersion() {
  std::string out = std::string("mxcert ") + MXCERT_VERSION + " (git " + MXCERT_GIT_REVISION + ")\n";
  for (const std::string &s : smt::availableSolvers()) {
    auto b = smt::makeBackend(s);
    out += "  solver " + s + " " + (b ? b->version() : std::string("not available")) + "\n";
  }
  out += "  encoder QF_LIA identity " + encoderIdentity() + " (SHA-256 of probe queries; changes when query bytes do)\n";
  writeStdout(out);
  return kOk;
}

}  // namespace mxcert::cli
