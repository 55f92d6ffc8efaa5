// src/plot/agree_plot.cpp — panels, axes, diagonals, legends and headers of agree-set plots.
#include "src/plot/agree_plot.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace mxcert::plot {

const CellClassStyle &cellClassStyle(Cell c) {
  // Colours: the Okabe-Ito palette for the classes of disagreement (distinguishable with
  // the common colour-vision deficiencies), green for agreement, greys for "no evidence".
  static const CellClassStyle styles[kNumCellClasses] = {
      {"agree", {0x66, 0xc2, 0xa5}, "agree: in the agree set of the file"},
      {"nan255", {0xd4, 0xe6, 0xdc}, "code 255 (NaN scale): both NaN, always safe"},
      {"overflow", {0xd5, 0x5e, 0x00}, "overflow: +-inf on one side"},
      {"nan", {0xcc, 0x79, 0xa7}, "NaN on one side only"},
      {"signed-zero", {0x56, 0xb4, 0xe9}, "signed zero: +0 vs -0"},
      {"underflow", {0x00, 0x72, 0xb2}, "underflow: finite, a zero or subnormal differs"},
      {"rounding", {0xe6, 0x9f, 0x00}, "rounding: normal finite results differ"},
      {"no-witness", {0xa6, 0xa6, 0xa6}, "excluded, no witness in the file"},
      {"unconfirmed", {0xf0, 0xe4, 0x42}, "witness does not refute here (run mxcert check)"},
      {"both-agree", {0x66, 0xc2, 0xa5}, "agree in both"},
      {"both-excluded", {0xee, 0xee, 0xee}, "excluded in both"},
      {"only-left", {0x76, 0x2a, 0x83}, "agree only in the left file"},
      {"only-right", {0x8c, 0x51, 0x0a}, "agree only in the right file"},
  };
  return styles[int(c)];
}

namespace {

// Ink colours: none of them is a cell colour, so every pixel of a cell that is not its
// class colour is visibly an overlay (tests rely on this).
constexpr Rgb kInk{0x00, 0x00, 0x00};       ///< text, frame, ticks
constexpr Rgb kOutline{0x1a, 0x1a, 0x1a};   ///< agree-region outlines
constexpr Rgb kDiagonal{0x4d, 0x4d, 0x4d};  ///< dashed e diagonals
constexpr Rgb kPaper{0xff, 0xff, 0xff};     ///< background, label boxes
constexpr int kDash = 4;                      ///< dash and gap length of the diagonals

constexpr int kGridLeft = 100;                               ///< the grid's x offset in a panel
constexpr int kPanelWidth = kGridLeft + kGridPixels + 40;    ///< a panel's width
constexpr int kLegendRow = 16;                               ///< the height of a legend row

/// The codes whose ticks are labelled: 2^-127, 2^-96, ..., 2^96 (every 32nd exponent), NaN.
const int kTickCodes[] = {0, 31, 63, 95, 127, 159, 191, 223, 255};

/// `s` with every byte outside printable ASCII replaced by '?' (file names in labels).
std::string printable(const std::string &s) {
  std::string o = s;
  for (char &ch : o)
    if (ch < 32 || ch > 126) ch = '?';
  return o;
}

/// `s`, shortened to at most `maxPx` pixels in font `f`: the end is kept when `keepEnd` (file
/// names), else the start; the cut is marked "...".
std::string fit(const std::string &s, int maxPx, Font f, bool keepEnd) {
  const size_t maxChars = size_t(std::max(4, maxPx / metrics(f).advance));
  if (s.size() <= maxChars) return s;
  return keepEnd ? "..." + s.substr(s.size() - (maxChars - 3)) : s.substr(0, maxChars - 3) + "...";
}

/// A horizontal text item.
Text text(int x, int y, std::string s, Font f = Font::Body, Anchor a = Anchor::Start, std::string sup = "") {
  Text t;
  t.x = x;
  t.y = y;
  t.text = std::move(s);
  t.sup = std::move(sup);
  t.font = f;
  t.anchor = a;
  t.color = kInk;
  return t;
}

/// A line item.
Line line(double x0, double y0, double x1, double y1, Rgb c, int dash = 0) { return Line{x0, y0, x1, y1, c, dash}; }

/// "1 proof", "7 witnesses".
std::string count(long n, const char *one, const char *many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

/// "seq", "pairwise", "fused", the S-expression when short, else "custom tree".
std::string treeText(const Tree &t) {
  if (std::string n = t.standardName(); !n.empty()) return n;
  const std::string s = t.sexpr();
  return s.size() <= 32 ? "tree " + s : "custom tree";
}

/// The header lines of a file's panel: configuration and placements, then accumulator and
/// agree-set size, then the file and its evidence.
std::vector<std::string> headerLines(const AgreeSource &s) {
  const certs::GuardTable &t = s.table;
  const ModelConfig &c = t.config;
  const long pairs = t.agree.toSet().count();
  std::vector<std::string> out;
  out.push_back(c.a.name + " x " + c.b.name + ", k=" + std::to_string(c.k()) + " " +
                (c.anyOrder ? "every tree (" + mxcert::treeText(c) + ")" : treeText(c.tree)) + ": " +
                toString(t.lhs) + " vs " + toString(t.rhs) + ", " + toString(t.relation));
  out.push_back("acc " + c.acc.fmt.name + " " + toString(c.acc.rounding) + ", subnormals " +
                toString(c.acc.subnormals) + "; agree: " + std::to_string(pairs) + " of 65025 finite pairs, " +
                count(long(t.agree.regions.size()), "region", "regions"));
  out.push_back("file: ");
  if (s.certificate)
    out.push_back("certificate: " + s.engine + " engine, " + count(long(s.proofs), "proof", "proofs") + ", " +
                  count(long(s.witnesses.size()), "witness", "witnesses") +
                  " (not checked here: mxcert check does that)");
  else
    out.push_back("compact guard table: the agree set without proofs or witnesses");
  return out;
}

/// The pixel position of continuous cell coordinates (x, y) (cell (xa, xb) spans
/// [xa, xa+1] x [xb, xb+1]) in a grid whose top-left corner is (gx, gy).
struct GridMap {
  int gx, gy;  ///< the grid's top-left pixel
  /// The pixel x of cell coordinate x.
  double X(double x) const { return gx + kCellPixels * x; }
  /// The pixel y of cell coordinate y (upwards).
  double Y(double y) const { return gy + kGridPixels - kCellPixels * y; }
};

/// Clips a polygon to the half-plane s * (x + y) <= s * t (Sutherland-Hodgman).
std::vector<std::pair<double, double>> clipDiagonal(const std::vector<std::pair<double, double>> &poly, double t,
                                                    double s) {
  std::vector<std::pair<double, double>> out;
  auto inside = [&](const std::pair<double, double> &p) { return s * (p.first + p.second) <= s * t; };
  for (size_t i = 0; i < poly.size(); ++i) {
    const auto &a = poly[i], &b = poly[(i + 1) % poly.size()];
    const bool ia = inside(a), ib = inside(b);
    if (ia) out.push_back(a);
    if (ia != ib) {
      const double u = (t - a.first - a.second) / ((b.first + b.second) - (a.first + a.second));
      out.emplace_back(a.first + u * (b.first - a.first), a.second + u * (b.second - a.second));
    }
  }
  return out;
}

/// The outline of region r in continuous cell coordinates: its box clipped by the diagonals
/// half-way between the last excluded and the first included e (a polygon of 3 to 6 corners).
std::vector<std::pair<double, double>> regionOutline(const Region &r) {
  std::vector<std::pair<double, double>> p = {
      {r.xa.lo, r.xb.lo}, {r.xa.hi + 1, r.xb.lo}, {r.xa.hi + 1, r.xb.hi + 1}, {r.xa.lo, r.xb.hi + 1}};
  p = clipDiagonal(p, r.e.lo + kMaxCode + 0.5, -1);
  return clipDiagonal(p, r.e.hi + kMaxCode + 1.5, 1);
}

/// A constant-e line that bounds an agree region: x + y = t in cell coordinates, labelled.
struct Diagonal {
  double t;           ///< x + y in cell coordinates
  std::string label;  ///< "e>=LO" or "e<=HI"
  /// Ordered by position, then label (a set of distinct diagonals).
  bool operator<(const Diagonal &o) const { return t != o.t ? t < o.t : label < o.label; }
};

/// Whether two boxes (x, y, w, h) overlap, with a margin of one pixel.
bool overlaps(const FillRect &a, const FillRect &b) {
  return a.x < b.x + b.w + 1 && b.x < a.x + a.w + 1 && a.y < b.y + b.h + 1 && b.y < a.y + a.h + 1;
}

/// Draws the diagonals bounding the regions of `agree`, each dashed across the finite cells
/// and labelled "e>=LO" or "e<=HI" in a box placed where it overlaps no other label.
void drawDiagonals(Scene &sc, const GridMap &g, const Guard &agree) {
  std::set<Diagonal> ds;
  for (const Region &raw : agree.regions) {
    const Region r = raw.tightened();
    if (r.count() == 0) continue;
    if (r.e.lo > -kMaxCode) ds.insert({r.e.lo + kMaxCode + 0.5, "e>=" + std::to_string(r.e.lo)});
    if (r.e.hi < kMaxCode) ds.insert({r.e.hi + kMaxCode + 1.5, "e<=" + std::to_string(r.e.hi)});
  }
  std::vector<FillRect> placed;
  std::vector<Item> labels;
  for (const Diagonal &d : ds) {
    // The segment of x + y = t inside the finite cells [0, 255] x [0, 255].
    const double x0 = std::max(0.0, d.t - kNumCodes), x1 = std::min(double(kNumCodes), d.t);
    if (x0 >= x1) continue;
    const double X0 = g.X(x0), Y0 = g.Y(d.t - x0), X1 = g.X(x1), Y1 = g.Y(d.t - x1);
    sc.items.push_back(line(X0, Y0, X1, Y1, kDiagonal, kDash));
    const int w = textWidth(Font::Body, d.label) + 4, h = metrics(Font::Body).height + 2;
    FillRect box{};
    bool found = false;
    for (double f : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88}) {
      const double px = X0 + f * (X1 - X0), py = Y0 + f * (Y1 - Y0);
      FillRect b{int(std::lround(px - w / 2.0)), int(std::lround(py - h / 2.0)), w, h, kPaper};
      b.x = std::clamp(b.x, g.gx, g.gx + kGridPixels - w);
      b.y = std::clamp(b.y, g.gy, g.gy + kGridPixels - h);
      if (!found) box = b;  // the fallback: the first candidate
      if (std::none_of(placed.begin(), placed.end(), [&](const FillRect &o) { return overlaps(o, b); })) {
        box = b;
        found = true;
        break;
      }
    }
    placed.push_back(box);
    labels.push_back(FillRect{box.x, box.y, box.w, box.h, kDiagonal});
    labels.push_back(FillRect{box.x + 1, box.y + 1, box.w - 2, box.h - 2, kPaper});
    labels.push_back(text(box.x + 2, box.y + 1, d.label));
  }
  sc.items.insert(sc.items.end(), labels.begin(), labels.end());
}

/// Draws the outline of every region of `agree`: its xa and xb bounds (the e bounds are the
/// dashed diagonals), except edges on the grid's frame or along code 255 (where the finite
/// codes end anyway).
void drawOutlines(Scene &sc, const GridMap &g, const Guard &agree) {
  for (const Region &raw : agree.regions) {
    const Region r = raw.tightened();
    if (r.count() == 0) continue;
    const auto p = regionOutline(r);
    for (size_t i = 0; i < p.size(); ++i) {
      const auto &a = p[i], &b = p[(i + 1) % p.size()];
      const bool onFrame = (a.first == 0 && b.first == 0) || (a.second == 0 && b.second == 0) ||
                           (a.first == kNumCodes && b.first == kNumCodes) ||
                           (a.second == kNumCodes && b.second == kNumCodes);
      const bool diagonal = a.first + a.second == b.first + b.second;
      if (!onFrame && !diagonal) sc.items.push_back(line(g.X(a.first), g.Y(a.second), g.X(b.first), g.Y(b.second), kOutline));
    }
  }
}

/// Draws the frame, the ticks and their labels (code, and the power of two it stands for),
/// and the axis titles of a grid.
void drawAxes(Scene &sc, const GridMap &g) {
  const int gx = g.gx, gy = g.gy, G = kGridPixels;
  sc.items.push_back(line(gx - 1, gy - 0.5, gx + G + 1, gy - 0.5, kInk));
  sc.items.push_back(line(gx - 1, gy + G + 0.5, gx + G + 1, gy + G + 0.5, kInk));
  sc.items.push_back(line(gx - 0.5, gy - 1, gx - 0.5, gy + G + 1, kInk));
  sc.items.push_back(line(gx + G + 0.5, gy - 1, gx + G + 0.5, gy + G + 1, kInk));
  for (int c : kTickCodes) {
    const std::string code = std::to_string(c);
    const std::string exp = c == 255 ? "" : std::to_string(c - 127);
    const std::string base = c == 255 ? "NaN" : "2";
    // x axis: below the grid, the code, then the power of two.
    const double X = gx + kCellPixels * c + 1;
    sc.items.push_back(line(X + 0.5, gy + G + 1, X + 0.5, gy + G + 5, kInk));
    sc.items.push_back(text(int(X), gy + G + 7, code, Font::Body, Anchor::Middle));
    sc.items.push_back(text(int(X), gy + G + 23, base, Font::Body, Anchor::Middle, exp));
    // y axis: left of the grid, the power of two, then the code.
    const double Y = gy + kCellPixels * (255 - c) + 1;
    sc.items.push_back(line(gx - 5, Y + 0.5, gx - 1, Y + 0.5, kInk));
    sc.items.push_back(text(gx - 7, int(Y) - 6, code, Font::Body, Anchor::End));
    sc.items.push_back(text(gx - 33, int(Y) - 5, base, Font::Body, Anchor::End, exp));
  }
  sc.items.push_back(text(gx + G / 2, gy + G + 41, "xa: scale code of a (scale 2^(xa-127))", Font::Body, Anchor::Middle));
  Text yt = text(gx - 82, gy + G / 2, "xb: scale code of b (scale 2^(xb-127))", Font::Body, Anchor::Middle);
  yt.vertical = true;
  sc.items.push_back(yt);
}

/// Draws the legend of the classes in `order` that occur in `m` (the first `always` of them
/// even when absent), one per row from y, with their numbers of cells; with `lines`, keys for
/// the outlines and diagonals follow. Returns the y below the legend.
int drawLegend(Scene &sc, int x, int y, const CellMap &m, const std::vector<Cell> &order, size_t always, bool lines) {
  for (size_t i = 0; i < order.size(); ++i) {
    const Cell c = order[i];
    const long n = m.count(c);
    if (n == 0 && i >= always) continue;
    const CellClassStyle &st = cellClassStyle(c);
    sc.items.push_back(FillRect{x, y + 1, 12, 12, kInk});
    sc.items.push_back(FillRect{x + 1, y + 2, 10, 10, st.color});
    sc.items.push_back(text(x + 18, y, std::string(st.legend) + " (" + std::to_string(n) + (n == 1 ? " cell)" : " cells)")));
    y += kLegendRow;
  }
  if (lines) {
    sc.items.push_back(line(x, y + 6.5, x + 12, y + 6.5, kOutline));
    sc.items.push_back(text(x + 18, y, "outline of an agree region"));
    y += kLegendRow;
    sc.items.push_back(line(x, y + 6.5, x + 12, y + 6.5, kDiagonal, kDash));
    sc.items.push_back(text(x + 18, y, "diagonal e = xa + xb - 254 bounding a region"));
    y += kLegendRow;
  }
  return y;
}

/// The cell grid item of a panel.
CellGrid grid(const GridMap &g, const std::string &panel, const CellMap &m) {
  CellGrid cg;
  cg.x = g.gx;
  cg.y = g.gy;
  cg.cell = kCellPixels;
  cg.panel = panel;
  for (int c = 0; c < kNumCellClasses; ++c) {
    const CellClassStyle &st = cellClassStyle(Cell(c));
    cg.styles.push_back({st.id, st.color});
  }
  cg.cls.resize(256 * 256);
  for (int xa = 0; xa < 256; ++xa)
    for (int xb = 0; xb < 256; ++xb) cg.cls[size_t(xa) * 256 + size_t(xb)] = uint8_t(m.get(xa, xb));
  return cg;
}

/// The order in which a file's classes are listed.
const std::vector<Cell> kFileOrder = {Cell::Agree,     Cell::Overflow,  Cell::NaN,         Cell::SignedZero,
                                      Cell::Underflow, Cell::Rounding,  Cell::NoWitness,   Cell::Unconfirmed,
                                      Cell::Nan255};

/// Draws one file's panel with its header lines from y = top, at x = left; returns the y
/// below its legend.
int filePanel(Scene &sc, int left, int top, const AgreeSource &s, const std::string &panel, Font headFont) {
  const int width = kPanelWidth - 20;
  std::vector<std::string> h = headerLines(s);
  sc.items.push_back(text(left + 10, top, fit(h[0], width, headFont, false), headFont));
  const int y1 = top + metrics(headFont).height + 4;
  sc.items.push_back(text(left + 10, y1, fit(h[1], width, Font::Body, false)));
  const std::string path = printable(s.path);
  sc.items.push_back(text(left + 10, y1 + 15, h[2] + fit(path, width - textWidth(Font::Body, h[2]), Font::Body, true)));
  sc.items.push_back(text(left + 10, y1 + 30, fit(h[3], width, Font::Body, false)));
  const GridMap g{left + kGridLeft, y1 + 55};
  const CellMap m = classify(s);
  sc.items.push_back(grid(g, panel, m));
  drawOutlines(sc, g, s.table.agree);
  drawDiagonals(sc, g, s.table.agree);
  drawAxes(sc, g);
  return drawLegend(sc, left + kGridLeft - 60, g.gy + kGridPixels + 62, m, kFileOrder, 1, true);
}

}  // namespace

Scene plotAgreeSet(const AgreeSource &s) {
  Scene sc;
  sc.title = "mxcert plot: " + printable(s.path);
  const int bottom = filePanel(sc, 0, 10, s, "main", Font::Title);
  sc.width = kPanelWidth;
  sc.height = bottom + 10;
  return sc;
}

Scene plotComparison(const AgreeSource &left, const AgreeSource &right) {
  Scene sc;
  sc.title = "mxcert plot: " + printable(left.path) + " compared with " + printable(right.path);
  const int top = 34;
  sc.items.push_back(text(10, 10, "Two guard tables side by side (left, right) and the pairs where their agree sets differ",
                          Font::Title));
  int bottom = filePanel(sc, 0, top, left, "left", Font::Title);
  bottom = std::max(bottom, filePanel(sc, kPanelWidth, top, right, "right", Font::Title));
  // The difference panel.
  const CellMap m = compare(left, right);
  const int x0 = 2 * kPanelWidth, width = kPanelWidth - 20;
  const long onlyL = m.count(Cell::OnlyLeft), onlyR = m.count(Cell::OnlyRight);
  sc.items.push_back(text(x0 + 10, top, "difference of the agree sets", Font::Title));
  const int y1 = top + metrics(Font::Title).height + 4;
  sc.items.push_back(text(x0 + 10, y1, fit(count(onlyL + onlyR, "pair differs", "pairs differ") + ": " + std::to_string(onlyL) +
                                               " only left, " + std::to_string(onlyR) + " only right",
                                           width, Font::Body, false)));
  const bool same = left.table.config.a == right.table.config.a && left.table.config.b == right.table.config.b &&
                    left.table.config.acc.fmt == right.table.config.acc.fmt &&
                    left.table.config.acc.rounding == right.table.config.acc.rounding &&
                    left.table.config.acc.subnormals == right.table.config.acc.subnormals &&
                    left.table.config.tree == right.table.config.tree &&
                    left.table.config.anyOrder == right.table.config.anyOrder && left.table.lhs == right.table.lhs &&
                    left.table.rhs == right.table.rhs && left.table.relation == right.table.relation;
  sc.items.push_back(text(x0 + 10, y1 + 15, same ? "same configuration, placements and relation"
                                                 : "configurations, placements or relations differ"));
  const GridMap g{x0 + kGridLeft, y1 + 55};
  sc.items.push_back(grid(g, "difference", m));
  drawAxes(sc, g);
  bottom = std::max(bottom, drawLegend(sc, x0 + kGridLeft - 60, g.gy + kGridPixels + 62, m,
                                       {Cell::BothAgree, Cell::OnlyLeft, Cell::OnlyRight, Cell::BothExcluded, Cell::Nan255},
                                       3, false));
  sc.width = 3 * kPanelWidth;
  sc.height = bottom + 10;
  return sc;
}

}  // namespace mxcert::plot
