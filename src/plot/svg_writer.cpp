// src/plot/svg_writer.cpp — writing a Scene as SVG.
#include "src/plot/svg_writer.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

namespace mxcert::plot {
namespace {

/// "#rrggbb".
std::string hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

/// A number with at most two decimals ("12", "12.5").
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

/// Text as XML character data (printable ASCII; anything else becomes '?').
std::string xml(const std::string &s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
    case '&': o += "&amp;"; break;
    case '<': o += "&lt;"; break;
    case '>': o += "&gt;"; break;
    case '"': o += "&quot;"; break;
    default: o += (ch >= 32 && ch <= 126) ? ch : '?';
    }
  }
  return o;
}

/// The CSS font size whose monospace advance (0.6 em in DejaVu Sans Mono) matches font f.
std::string fontSize(Font f) { return num(metrics(f).advance / 0.602); }

/// Appends a filled rectangle.
void writeRect(std::string &o, const FillRect &r) {
  o += "<rect x=\"" + std::to_string(r.x) + "\" y=\"" + std::to_string(r.y) + "\" width=\"" + std::to_string(r.w) +
       "\" height=\"" + std::to_string(r.h) + "\" fill=\"" + hex(r.fill) + "\"/>\n";
}

/// Appends a line (dashed with stroke-dasharray).
void writeLine(std::string &o, const Line &l) {
  o += "<line x1=\"" + num(l.x0) + "\" y1=\"" + num(l.y0) + "\" x2=\"" + num(l.x1) + "\" y2=\"" + num(l.y1) +
       "\" stroke=\"" + hex(l.color) + "\"";
  if (l.dash > 0) o += " stroke-dasharray=\"" + std::to_string(l.dash) + " " + std::to_string(l.dash) + "\"";
  o += "/>\n";
}

/// Appends a text, its superscript as a smaller raised tspan, rotated when vertical.
void writeText(std::string &o, const Text &t) {
  const FontMetrics m = metrics(t.font);
  const char *anchor = t.anchor == Anchor::Start ? "start" : t.anchor == Anchor::Middle ? "middle" : "end";
  // The baseline sits `ascent` below the top of the box (to the right of its left edge when
  // the text is vertical).
  std::string place = t.vertical ? "transform=\"translate(" + std::to_string(t.x + m.ascent) + " " +
                                       std::to_string(t.y) + ") rotate(-90)\""
                                 : "x=\"" + std::to_string(t.x) + "\" y=\"" + std::to_string(t.y + m.ascent) + "\"";
  o += "<text " + place + " font-size=\"" + fontSize(t.font) + "\"";
  if (t.font == Font::Title) o += " font-weight=\"bold\"";
  o += " text-anchor=\"" + std::string(anchor) + "\" fill=\"" + hex(t.color) + "\">" + xml(t.text);
  if (!t.sup.empty()) {
    // The superscript's baseline: 3 pixels above the base text's top plus its own ascent.
    const int dy = (-3 + metrics(Font::Small).ascent) - m.ascent;
    o += "<tspan font-size=\"" + fontSize(Font::Small) + "\" dy=\"" + std::to_string(dy) + "\">" + xml(t.sup) +
         "</tspan>";
  }
  o += "</text>\n";
}

/// The cells of a grid as rectangles: for each class, runs of equal cells along xa, merged
/// with identical runs of the rows above them.
void writeGrid(std::string &o, const CellGrid &g) {
  const int c = g.cell;
  o += "<g data-panel=\"" + xml(g.panel) + "\" transform=\"translate(" + std::to_string(g.x) + " " +
       std::to_string(g.y + 256 * c) + ") scale(" + std::to_string(c) + " " + std::to_string(-c) +
       ")\" shape-rendering=\"crispEdges\">\n";
  for (size_t k = 0; k < g.styles.size(); ++k) {
    // Open rectangles by (x, width): (y, height).
    std::map<std::pair<int, int>, std::pair<int, int>> open;
    std::vector<std::tuple<int, int, int, int>> done;  // (y, x, w, h)
    for (int xb = 0; xb < 256; ++xb) {
      std::map<std::pair<int, int>, std::pair<int, int>> next;
      for (int xa = 0; xa < 256;) {
        if (g.cls[size_t(xa) * 256 + size_t(xb)] != k) {
          ++xa;
          continue;
        }
        int end = xa;
        while (end < 256 && g.cls[size_t(end) * 256 + size_t(xb)] == k) ++end;
        auto it = open.find({xa, end - xa});
        if (it != open.end()) {
          next[{xa, end - xa}] = {it->second.first, it->second.second + 1};
          open.erase(it);
        } else {
          next[{xa, end - xa}] = {xb, 1};
        }
        xa = end;
      }
      for (const auto &[xw, yh] : open) done.emplace_back(yh.first, xw.first, xw.second, yh.second);
      open = std::move(next);
    }
    for (const auto &[xw, yh] : open) done.emplace_back(yh.first, xw.first, xw.second, yh.second);
    if (done.empty()) continue;
    std::sort(done.begin(), done.end());
    o += "<g data-class=\"" + xml(g.styles[k].id) + "\" fill=\"" + hex(g.styles[k].color) + "\">\n";
    for (const auto &[y, x, w, h] : done)
      o += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
           "\" height=\"" + std::to_string(h) + "\"/>\n";
    o += "</g>\n";
  }
  o += "</g>\n";
}

}  // namespace

std::string toSvg(const Scene &sc) {
  std::string o;
  const std::string w = std::to_string(sc.width), h = std::to_string(sc.height);
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " +
       h + "\" font-family=\"DejaVu Sans Mono, monospace\">\n";
  o += "<title>" + xml(sc.title) + "</title>\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"" + hex(sc.background) + "\"/>\n";
  for (const Item &it : sc.items) {
    if (auto *r = std::get_if<FillRect>(&it)) writeRect(o, *r);
    else if (auto *l = std::get_if<Line>(&it)) writeLine(o, *l);
    else if (auto *t = std::get_if<Text>(&it)) writeText(o, *t);
    else writeGrid(o, std::get<CellGrid>(it));
  }
  o += "</svg>\n";
  return o;
}

}  // namespace mxcert::plot
