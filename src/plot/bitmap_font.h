// src/plot/bitmap_font.h — the bitmap fonts plots are drawn with (monospace, printable ASCII).
//
// The PNG writer draws text with these glyphs; the layout measures text with them, and the
// SVG writer picks a monospace font size with the same advance, so both images share one
// layout.
#pragma once

#include <cstdint>
#include <string>

namespace mxcert::plot {

/// The three fonts of a plot.
enum class Font {
  Body,   ///< 6 x 13 pixels: labels, legend
  Title,  ///< 9 x 15 pixels, bold: titles
  Small,  ///< 5 x 8 pixels: superscripts (the exponents of 2^N)
};

/// A font's cell: every glyph is `advance` wide and `height` tall; the baseline is `ascent`
/// rows below the top of the cell.
struct FontMetrics {
  int advance, height, ascent;
};

/// The metrics of font `f`.
FontMetrics metrics(Font f);
/// Row `row` (0 = the top row) of the glyph of `ch` in font `f`: bit 15 is the leftmost
/// pixel. Characters outside printable ASCII are drawn as '?'; rows outside the cell are 0.
uint16_t glyphRow(Font f, char ch, int row);
/// The width in pixels of `s` written in font `f`.
int textWidth(Font f, const std::string &s);

}  // namespace mxcert::plot
