// src/plot/scene.h — the image model of a plot: a canvas of pixels and the shapes drawn on it.
//
// The layout (agree_plot.h) builds a Scene; the SVG writer (svg_writer.h) and the PNG writer
// (png_writer.h) draw the same Scene, so the two images agree pixel for pixel in what they
// show. Coordinates are pixels, x to the right and y down from the top-left corner. Items
// are drawn in order, later ones on top.
#pragma once

#include "src/plot/bitmap_font.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mxcert::plot {

/// An opaque colour.
struct Rgb {
  uint8_t r = 0, g = 0, b = 0;  ///< red, green, blue
  /// Whether two colours are the same.
  bool operator==(const Rgb &o) const { return r == o.r && g == o.g && b == o.b; }
};

/// A filled axis-aligned rectangle: pixels x..x+w-1, y..y+h-1.
struct FillRect {
  int x = 0, y = 0, w = 0, h = 0;  ///< top-left corner and size
  Rgb fill;                        ///< colour
};

/// A straight line one pixel wide from (x0, y0) to (x1, y1), solid or dashed. Half-integer
/// coordinates put an axis-aligned line on a row or column of pixels (y = 10.5: row 10).
struct Line {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< end points
  Rgb color;                              ///< colour
  int dash = 0;  ///< 0: solid; N > 0: N pixels drawn, N pixels skipped, repeated
};

/// Where a text is anchored along its writing direction.
enum class Anchor { Start, Middle, End };

/// One line of text in printable ASCII, optionally followed by a superscript in the small
/// font (e.g. "2" with sup "-127"). Horizontal text: `y` is the top of the text box and `x`
/// the anchor point. Vertical text (reading upwards, rotated 90 degrees counter-clockwise):
/// `x` is the left edge of the text box and `y` the anchor point (Start = the bottom end).
struct Text {
  int x = 0, y = 0;               ///< the anchor (see above)
  std::string text, sup;          ///< the text and its superscript (may be empty)
  Font font = Font::Body;         ///< the font of `text` (`sup` is in Font::Small)
  Anchor anchor = Anchor::Start;  ///< which point of the text (x, y) is
  bool vertical = false;          ///< reading upwards
  Rgb color;                      ///< colour
};

/// The style of one cell class of a CellGrid: an identifier (SVG data-class) and a colour.
struct CellStyle {
  std::string id;  ///< SVG data-class
  Rgb color;       ///< fill colour
};

/// The 256 x 256 scale-code cells of one panel: cell (xa, xb) is a square of `cell` pixels
/// whose top-left corner is (x + cell * xa, y + cell * (255 - xb)), so xa grows to the right
/// and xb upwards. `cls[xa * 256 + xb]` indexes `styles`.
struct CellGrid {
  int x = 0, y = 0, cell = 2;      ///< top-left pixel of cell (0, 255), pixels per cell
  std::string panel;               ///< the panel's name (SVG data-panel)
  std::vector<uint8_t> cls;        ///< 65536 entries
  std::vector<CellStyle> styles;   ///< per class index
};

/// Anything drawn on a scene.
using Item = std::variant<FillRect, Line, Text, CellGrid>;

/// A picture: its size, background, a title (SVG <title>), and the items in drawing order.
struct Scene {
  int width = 0, height = 0;      ///< pixels
  Rgb background{255, 255, 255};  ///< colour under everything
  std::string title;              ///< a one-line description
  std::vector<Item> items;        ///< in drawing order
};

/// The width in pixels of a text's box along its writing direction (text and superscript).
inline int textExtent(const Text &t) { return textWidth(t.font, t.text) + textWidth(Font::Small, t.sup); }

}  // namespace mxcert::plot
