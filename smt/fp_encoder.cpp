// smt/fp_encoder.cpp — the QF_BVFP encoding (see fp_encoder.h).
#include "smt/fp_encoder.h"

#include "models/value_io.h"

#include <sstream>
#include <stdexcept>

namespace mxcert::smt {

namespace {

/// A 16-bit two's complement literal.
std::string bv16(long v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#x%04lX", static_cast<unsigned long>(v) & 0xFFFFul);
  return buf;
}

std::string bv8(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#x%02X", v & 0xFFu);
  return buf;
}

/// The value of an element code as a binary64 literal.
std::string wideLiteral(const ElementFormat &f, unsigned code) {
  ElementValue v = decodeElementCode(f, code);
  if (v.nan) return "(_ NaN 11 53)";
  if (v.inf) return v.neg ? "(_ -oo 11 53)" : "(_ +oo 11 53)";
  if (v.n.isZero()) return v.neg ? "(_ -zero 11 53)" : "(_ +zero 11 53)";
  std::string dec = elementToString(f, code);  // exact decimal
  bool neg = dec[0] == '-';
  if (neg) dec = dec.substr(1);
  if (dec.find('.') == std::string::npos) dec += ".0";
  std::string lit = "((_ to_fp 11 53) RNE " + dec + ")";
  return neg ? "(fp.neg " + lit + ")" : lit;
}

}  // namespace

std::string fpUnsupported(const Query &q) {
  if (q.cfg.nvfp4()) return "the QF_FP encoding has no e4m3 scales (nvfp4)";
  if (!q.cfg.tree.isBinary()) return "the QF_FP encoding supports binary trees only (a fused node has no single IEEE operation)";
  if (q.cfg.acc.subnormals != Subnormals::Keep)
    return std::string("the QF_FP encoding has no flush-to-zero (--subnormals ") + toString(q.cfg.acc.subnormals) + ")";
  return "";
}

std::string fpQuery(const Query &q) {
  const std::string why = fpUnsupported(q);
  if (!why.empty()) throw std::invalid_argument(why);
  const AccFormat &af = q.cfg.acc.fmt;
  const std::string EB = std::to_string(af.expBits()), SB = std::to_string(af.p);
  const std::string acc = "(_ FloatingPoint " + EB + " " + SB + ")";
  const std::string rm = q.cfg.acc.rounding == Rounding::RNE ? "RNE" : "RTZ";
  const auto toAcc = [&](const std::string &x) { return "((_ to_fp " + EB + " " + SB + ") " + rm + " " + x + ")"; };
  const auto toWide = [&](const std::string &x) { return "((_ to_fp 11 53) " + rm + " " + x + ")"; };
  std::ostringstream o;
  o << "; mxcert query (QF_FP baseline): exists an input with " << toString(q.lhs) << " !~ " << toString(q.rhs)
    << " (" << toString(q.rel) << ")\n; region: " << q.region.str() << "\n";
  o << "(set-logic QF_BVFP)\n";
  // Scale codes and e as 16-bit two's complement.
  o << "(declare-fun xa () (_ BitVec 16))\n(declare-fun e () (_ BitVec 16))\n";
  o << "(define-fun xb () (_ BitVec 16) (bvadd (bvsub e xa) " << bv16(254) << "))\n";
  auto range = [&](const std::string &v, int lo, int hi) {
    o << "(assert (and (bvsle " << bv16(lo) << " " << v << ") (bvsle " << v << " " << bv16(hi) << ")))\n";
  };
  range("xa", q.region.xa.lo, q.region.xa.hi);
  range("xb", q.region.xb.lo, q.region.xb.hi);
  range("e", q.region.e.lo, q.region.e.hi);
  o << "(define-fun sa () (_ BitVec 16) (bvsub xa " << bv16(127) << "))\n";
  o << "(define-fun sb () (_ BitVec 16) (bvsub xb " << bv16(127) << "))\n";
  // 2^s in binary64 (biased exponent s + 1023, normal for |s| <= 508: |e| <= 254 here).
  o << "(define-fun pow2 ((s (_ BitVec 16))) (_ FloatingPoint 11 53) (fp #b0 ((_ extract 10 0) (bvadd s #x03FF)) "
       "(_ bv0 52)))\n";
  // Element decoding tables.
  auto table = [&](const std::string &name, const ElementFormat &f) {
    o << "(define-fun " << name << " ((c (_ BitVec 8))) (_ FloatingPoint 11 53) ";
    std::string body = wideLiteral(f, f.numCodes() - 1);
    for (int c = int(f.numCodes()) - 2; c >= 0; --c)
      body = "(ite (= c " + bv8(unsigned(c)) + ") " + wideLiteral(f, unsigned(c)) + " " + body + ")";
    o << body << ")\n";
  };
  table("deca", q.cfg.a);
  table("decb", q.cfg.b);
  const int k = q.cfg.k();
  for (int i = 0; i < k; ++i) {
    const bool free = q.fixed.empty() || !q.fixed[size_t(i)];
    if (free) {
      o << "(declare-fun a" << i << " () (_ BitVec 8))\n(declare-fun b" << i << " () (_ BitVec 8))\n";
      if (q.cfg.a.numCodes() < 256) o << "(assert (bvult a" << i << " " << bv8(q.cfg.a.numCodes()) << "))\n";
      if (q.cfg.b.numCodes() < 256) o << "(assert (bvult b" << i << " " << bv8(q.cfg.b.numCodes()) << "))\n";
    } else {
      o << "(define-fun a" << i << " () (_ BitVec 8) " << bv8(q.fixed[size_t(i)]->first) << ")\n";
      o << "(define-fun b" << i << " () (_ BitVec 8) " << bv8(q.fixed[size_t(i)]->second) << ")\n";
    }
    o << "(define-fun A" << i << " () (_ FloatingPoint 11 53) (deca a" << i << "))\n";
    o << "(define-fun B" << i << " () (_ FloatingPoint 11 53) (decb b" << i << "))\n";
  }
  // Leaves per placement.
  auto leaf = [&](Placement p, int i) -> std::string {
    const std::string A = "A" + std::to_string(i), B = "B" + std::to_string(i);
    switch (p) {
    case Placement::Pre: return toAcc("(fp.mul " + rm + " (fp.mul " + rm + " " + A + " " + B + ") (pow2 e))");
    case Placement::Post:
    case Placement::Post2: return toAcc("(fp.mul " + rm + " " + A + " " + B + ")");
    case Placement::Dequant:
      return "(fp.mul " + rm + " " + toAcc("(fp.mul " + rm + " " + A + " (pow2 sa))") + " " +
             toAcc("(fp.mul " + rm + " " + B + " (pow2 sb))") + ")";
    }
    return "";
  };
  auto tree = [&](Placement p, const std::string &tag) {
    const Tree &t = q.cfg.tree;
    for (size_t n = 0; n < t.nodes().size(); ++n) {
      const Tree::Node &nd = t.nodes()[n];
      o << "(define-fun " << tag << "n" << n << " () " << acc << " ";
      if (nd.leaf >= 0)
        o << leaf(p, nd.leaf);
      else
        o << "(fp.add " << rm << " " << tag << "n" << nd.children[0] << " " << tag << "n" << nd.children[1] << ")";
      o << ")\n";
    }
    const std::string T = tag + "n" + std::to_string(t.nodes().size() - 1);
    std::string R;
    switch (p) {
    case Placement::Pre:
    case Placement::Dequant: R = T; break;
    case Placement::Post: R = toAcc("(fp.mul " + rm + " " + toWide(T) + " (pow2 e))"); break;
    case Placement::Post2: {
      const std::string Sa = toAcc("(pow2 sa)"), Sb = toAcc("(pow2 sb)");
      R = "(fp.mul " + rm + " (fp.mul " + rm + " " + T + " " + Sa + ") " + Sb + ")";
      break;
    }
    }
    o << "(define-fun " << tag << "R () " << acc << " " << R << ")\n";
  };
  tree(q.lhs, "l");
  tree(q.rhs, "r");
  // SMT-LIB's = on floating point is identity: NaN = NaN, +0 != -0 (the bitwise relation).
  if (q.rel == Relation::Bitwise)
    o << "(assert (not (= lR rR)))\n";
  else
    o << "(assert (not (or (= lR rR) (and (fp.isZero lR) (fp.isZero rR)))))\n";
  o << "(check-sat)\n";
  return o.str();
}

}  // namespace mxcert::smt
