// models/eval.cpp — the reference evaluator and IEEE encodings.
#include "models/eval.h"

#include "models/nvfp4.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace mxcert {

std::vector<CVal> decodeElements(const ElementFormat &f, const std::vector<unsigned> &codes) {
  ConcreteDomain d;
  std::vector<CVal> out;
  out.reserve(codes.size());
  for (unsigned c : codes) {
    if (c >= f.numCodes())
      throw std::invalid_argument("element code " + std::to_string(c) + " out of range for " + f.name);
    out.push_back(decodeElement(d, f, Integer(int64_t(c))));
  }
  return out;
}

DecodedBlock::DecodedBlock(const ModelConfig &cfg, const std::vector<unsigned> &a, const std::vector<unsigned> &b)
    : cfg_(cfg), preTree_(511), dequantA_(256), dequantB_(256) {
  if (a.size() != size_t(cfg.k()) || b.size() != size_t(cfg.k()))
    throw std::invalid_argument("expected " + std::to_string(cfg.k()) + " elements per operand");
  in_.a = decodeElements(cfg.a, a);
  in_.b = decodeElements(cfg.b, b);
}

CVal DecodedBlock::evaluate(Placement p, unsigned xa, unsigned xb) {
  if (cfg_.nvfp4()) {
    if (xa > unsigned(E4m3ScaleCode::kMaxCode) || xb > unsigned(E4m3ScaleCode::kMaxCode))
      throw std::invalid_argument("e4m3 scale code out of range 0..127");
  } else if (xa > 255 || xb > 255) {
    throw std::invalid_argument("scale code out of range 0..255");
  }
  ConcreteDomain d;
  in_.xa = Integer(int64_t(xa));
  in_.xb = Integer(int64_t(xb));
  if (cfg_.nvfp4()) return evalNvfp4Placement(d, p, cfg_, in_);
  if (cfg_.anyOrder)  // as evalPlacement
    throw std::logic_error("an any-order configuration has no single tree to evaluate (use configWithTree)");
  const Scales<ConcreteDomain> s = makeScales(d, in_.xa, in_.xb);
  return placementRoot(d, p, cfg_, tree(p, xa, xb, s), s);
}

CVal DecodedBlock::tree(Placement p, unsigned xa, unsigned xb, const Scales<ConcreteDomain> &s) {
  ConcreteDomain d;
  const size_t k = size_t(cfg_.k());
  std::vector<CVal> leaves;
  leaves.reserve(k);
  switch (p) {
  case Placement::Post:
  case Placement::Post2:
    if (!productTree_) {
      for (size_t i = 0; i < k; ++i) leaves.push_back(productLeaf(d, cfg_, in_.a[i], in_.b[i]));
      productTree_ = evalTree(d, cfg_.tree, leaves, cfg_.acc);
    }
    return *productTree_;
  case Placement::Pre: {
    std::optional<CVal> &t = preTree_[xa + xb];
    if (!t) {
      for (size_t i = 0; i < k; ++i) leaves.push_back(preLeaf(d, cfg_, in_.a[i], in_.b[i], s.e));
      t = evalTree(d, cfg_.tree, leaves, cfg_.acc);
    }
    return *t;
  }
  case Placement::Dequant: {
    const std::vector<CVal> &A = dequantized(dequantA_, in_.a, xa, s.sa);
    const std::vector<CVal> &B = dequantized(dequantB_, in_.b, xb, s.sb);
    for (size_t i = 0; i < k; ++i) leaves.push_back(dequantLeaf(d, cfg_, A[i], B[i], s));
    return evalTree(d, cfg_.tree, leaves, cfg_.acc);
  }
  }
  throw std::logic_error("placement");
}

const std::vector<CVal> &DecodedBlock::dequantized(std::vector<std::optional<std::vector<CVal>>> &memo,
                                                   const std::vector<CVal> &vals, unsigned x, const Integer &s) {
  std::optional<std::vector<CVal>> &m = memo[x];
  if (!m) {
    ConcreteDomain d;
    m.emplace();
    m->reserve(vals.size());
    for (const CVal &v : vals) m->push_back(dequantElement(d, cfg_.acc, v, s));
  }
  return *m;
}

std::vector<CVal> DecodedBlock::evaluate(const std::vector<Placement> &ps, unsigned xa, unsigned xb) {
  std::vector<CVal> out;
  out.reserve(ps.size());
  for (Placement p : ps) out.push_back(evaluate(p, xa, xb));
  return out;
}

std::vector<CVal> evaluatePlacements(const ModelConfig &cfg, const std::vector<Placement> &ps,
                                     const ConcreteInput &in) {
  return DecodedBlock(cfg, in.a, in.b).evaluate(ps, in.xa, in.xb);
}

CVal evaluatePlacement(const ModelConfig &cfg, Placement p, const ConcreteInput &in) {
  return evaluatePlacements(cfg, {p}, in)[0];
}

bool isRelated(const CVal &r1, const CVal &r2, Relation rel) {
  ConcreteDomain d;
  return related(d, r1, r2, rel);
}

int valueClass(const CVal &v) { return v.nan ? 2 : (v.inf ? 1 : 0); }

uint64_t encodeBits(const CVal &v, const AccFormat &f) {
  const unsigned w = f.expBits();
  const unsigned fracBits = unsigned(f.p - 1);
  const uint64_t signBit = uint64_t(1) << (f.bits() - 1);
  const uint64_t expMask = ((uint64_t(1) << w) - 1) << fracBits;
  if (v.nan) return expMask | (uint64_t(1) << (fracBits - 1));
  uint64_t s = v.neg ? signBit : 0;
  if (v.inf) return s | expMask;
  if (v.N.isZero()) return s;
  const int64_t m = v.N.msb();
  const int64_t X = v.X.toInt64();
  const int64_t E = X + m;
  if (E > f.emax) throw std::logic_error("encodeBits: value above the format's range");
  Integer sig;
  uint64_t biased;
  // sig = N * 2^(X - q) for the quantum q of the value's binade.
  const int64_t q = E >= f.emin() ? E - (f.p - 1) : int64_t(f.quantumExp());
  biased = E >= f.emin() ? uint64_t(E + f.emax) : 0;
  if (X >= q) {
    sig = v.N << unsigned(X - q);
  } else {
    unsigned sh = unsigned(q - X);
    if (!v.N.lowBits(sh).isZero()) throw std::logic_error("encodeBits: value not representable");
    sig = v.N >> sh;
  }
  uint64_t sigBits = uint64_t(sig.toInt64());
  if (biased) sigBits -= uint64_t(1) << fracBits;  // drop the hidden bit
  return s | (biased << fracBits) | sigBits;
}

CVal decodeBits(uint64_t bits, const AccFormat &f) {
  ConcreteDomain d;
  const unsigned w = f.expBits();
  const unsigned fracBits = unsigned(f.p - 1);
  bool neg = (bits >> (f.bits() - 1)) & 1u;
  uint64_t ex = (bits >> fracBits) & ((uint64_t(1) << w) - 1);
  uint64_t frac = bits & ((uint64_t(1) << fracBits) - 1);
  if (ex == (uint64_t(1) << w) - 1) {
    if (frac) return nanVal(d, Integer(0));
    return infVal(d, neg, Integer(0));
  }
  if (ex == 0) return finiteVal(d, neg, Integer::fromU64(frac), Integer(int64_t(f.quantumExp())));
  return finiteVal(d, neg, Integer::fromU64(frac | (uint64_t(1) << fracBits)),
                   Integer(int64_t(ex) - f.emax - int64_t(fracBits)));
}

std::string hexBits(uint64_t bits, const AccFormat &f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llX", int(f.bits() / 4), static_cast<unsigned long long>(bits));
  return buf;
}

double toDouble(const CVal &v) {
  if (v.nan) return std::nan("");
  if (v.inf) return v.neg ? -HUGE_VAL : HUGE_VAL;
  double m = v.N.toDouble();  // exact: N has at most 53 significant bits for our formats
  double r = std::ldexp(m, int(v.X.toInt64()));
  return v.neg ? -r : r;
}

std::string toDecimal(const CVal &v, const AccFormat &f) {
  if (v.nan) return "nan";
  if (v.inf) return v.neg ? "-inf" : "inf";
  char buf[64];
  double x = toDouble(v);
  std::to_chars_result res;
  if (f.p <= 24)
    res = std::to_chars(buf, buf + sizeof buf, static_cast<float>(x));  // exact: fits in float
  else
    res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

CVal canonical(const CVal &v) {
  CVal c = v;
  if (c.nan) return CVal{true, false, false, Integer(0), Integer(0)};
  if (c.inf) return CVal{false, true, c.neg, Integer(0), Integer(0)};
  if (c.N.isZero()) {
    c.X = Integer(0);
    return c;
  }
  unsigned tz = c.N.trailingZeros();
  if (tz) {
    c.N = c.N >> tz;
    c.X = c.X + Integer(int64_t(tz));
  }
  return c;
}

bool sameState(const CVal &a, const CVal &b) {
  CVal x = canonical(a), y = canonical(b);
  return x.nan == y.nan && x.inf == y.inf && x.neg == y.neg && x.N == y.N && x.X == y.X;
}

size_t hashState(const CVal &v) {
  CVal c = canonical(v);
  size_t h = c.N.hash() ^ (c.X.hash() * 31);
  h ^= (size_t(c.nan) << 1) | (size_t(c.inf) << 2) | (size_t(c.neg) << 3);
  return h;
}

}  // namespace mxcert
