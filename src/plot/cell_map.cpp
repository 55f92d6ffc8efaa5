// src/plot/cell_map.cpp — reading a guard table for a plot and classifying its cells.
#include "src/plot/cell_map.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace mxcert::plot {

AgreeSource readAgreeSource(const std::string &path) {
  const nlohmann::json j =
      certs::parseStrict(certs::readRegularFile(path, certs::kMaxFileBytes), "'" + path + "'");
  AgreeSource s;
  s.path = path;
  try {
    if (j.is_object() && j.contains("format") && j.at("format") == "mxcert-guard-table") {
      s.table = certs::guardTableFromJson(j);
      return s;
    }
    certs::Certificate c = certs::certificateFromJson(j);
    certs::rejectNvfp4Table(c.config);
    s.table = certs::GuardTable{c.config, c.lhs, c.rhs, c.relation, c.agree, c.engine == "solver"};
    s.certificate = true;
    s.engine = c.engine;
    s.proofs = c.proofs.size();
    s.witnesses = std::move(c.witnesses);
  } catch (const nlohmann::json::exception &e) {
    throw certs::SchemaError(std::string("malformed certificate: ") + e.what());
  }
  return s;
}

long CellMap::count(Cell c) const { return long(std::count(cells_.begin(), cells_.end(), c)); }

Cell disagreementClass(const CVal &lhs, const CVal &rhs, Relation rel, const AccFormat &acc) {
  if (isRelated(lhs, rhs, rel)) return Cell::Unconfirmed;
  if (lhs.nan || rhs.nan) return Cell::NaN;
  if (lhs.inf || rhs.inf) return Cell::Overflow;
  if (lhs.N.isZero() && rhs.N.isZero()) return Cell::SignedZero;
  // |v| < 2^emin exactly when v is zero or msb(N) + X < emin.
  auto tiny = [&](const CVal &v) { return v.N.isZero() || int64_t(v.N.msb()) + v.X.toInt64() < acc.emin(); };
  return tiny(lhs) || tiny(rhs) ? Cell::Underflow : Cell::Rounding;
}

namespace {

/// For each finite pair outside `agree`, the index of the first witness (in file order)
/// whose `refutes` regions contain it, or -1. Each row keeps a "next unclaimed code"
/// union-find, so every pair is claimed once and a region costs one step per row it spans
/// plus the pairs it claims (a file listing many overlapping regions stays fast).
std::vector<int> firstClaims(const CodeSet &agree, const std::vector<certs::CertWitness> &ws) {
  std::vector<int> owner(size_t(kNumCodes) * kNumCodes, -1);
  // next[xb][xa]: the smallest xa' >= xa that is neither agreed nor claimed (kNumCodes: none).
  std::vector<std::vector<int>> next(kNumCodes, std::vector<int>(kNumCodes + 1));
  long open = 0;
  for (int xb = 0; xb < kNumCodes; ++xb) {
    std::iota(next[size_t(xb)].begin(), next[size_t(xb)].end(), 0);
    for (int xa = 0; xa < kNumCodes; ++xa) {
      if (agree.get(xa, xb)) next[size_t(xb)][size_t(xa)] = xa + 1;
      else ++open;
    }
  }
  auto find = [&](std::vector<int> &row, int x) {
    int root = x;
    while (row[size_t(root)] != root) root = row[size_t(root)];
    while (row[size_t(x)] != root) {
      const int up = row[size_t(x)];
      row[size_t(x)] = root;
      x = up;
    }
    return root;
  };
  for (size_t w = 0; w < ws.size() && open > 0; ++w) {
    for (const Region &r : ws[w].refutes.regions) {
      for (int xb = std::max(r.xb.lo, 0); xb <= std::min(r.xb.hi, kMaxCode); ++xb) {
        const int lo = std::max({r.xa.lo, r.e.lo + kMaxCode - xb, 0});
        const int hi = std::min({r.xa.hi, r.e.hi + kMaxCode - xb, kMaxCode});
        std::vector<int> &row = next[size_t(xb)];
        for (int xa = lo <= hi ? find(row, lo) : hi + 1; xa <= hi; xa = find(row, xa)) {
          owner[size_t(xa) * kNumCodes + size_t(xb)] = int(w);
          row[size_t(xa)] = xa + 1;
          --open;
        }
      }
    }
  }
  return owner;
}

/// The map whose cells on code 255 are Nan255 and whose finite cells are `finite(xa, xb)`.
template <class F> CellMap fill(F finite) {
  CellMap m;
  for (int xa = 0; xa < 256; ++xa)
    for (int xb = 0; xb < 256; ++xb) m.set(xa, xb, xa == 255 || xb == 255 ? Cell::Nan255 : finite(xa, xb));
  return m;
}

}  // namespace

CellMap classify(const AgreeSource &s) {
  const certs::GuardTable &t = s.table;
  const CodeSet agree = t.agree.toSet();
  const std::vector<int> owner = firstClaims(agree, s.witnesses);
  // Placements that depend on e alone give the same results along a diagonal: one
  // evaluation per (witness, e).
  const bool byE = dependsOnEOnly(t.lhs) && dependsOnEOnly(t.rhs);
  std::unordered_map<long, Cell> cache;
  // Each witness's elements, decoded once (and what repeats across its code pairs kept).
  std::vector<std::optional<DecodedBlock>> blocks(s.witnesses.size());
  return fill([&](int xa, int xb) {
    if (agree.get(xa, xb)) return Cell::Agree;
    const int w = owner[size_t(xa) * kNumCodes + size_t(xb)];
    if (w < 0) return Cell::NoWitness;
    const long key = long(w) * 1024 + (xa + xb);
    if (byE) {
      auto hit = cache.find(key);
      if (hit != cache.end()) return hit->second;
    }
    std::optional<DecodedBlock> &block = blocks[size_t(w)];
    if (!block) block.emplace(t.config, s.witnesses[size_t(w)].a, s.witnesses[size_t(w)].b);
    const std::vector<CVal> r = block->evaluate({t.lhs, t.rhs}, unsigned(xa), unsigned(xb));
    const Cell c = disagreementClass(r[0], r[1], t.relation, t.config.acc.fmt);
    if (byE) cache.emplace(key, c);
    return c;
  });
}

CellMap compare(const AgreeSource &left, const AgreeSource &right) {
  const CodeSet l = left.table.agree.toSet(), r = right.table.agree.toSet();
  return fill([&](int xa, int xb) {
    const bool a = l.get(xa, xb), b = r.get(xa, xb);
    return a && b ? Cell::BothAgree : a ? Cell::OnlyLeft : b ? Cell::OnlyRight : Cell::BothExcluded;
  });
}

}  // namespace mxcert::plot
