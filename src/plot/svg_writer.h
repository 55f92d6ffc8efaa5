// src/plot/svg_writer.h — a Scene as an SVG document (text).
//
// Cell grids are written in cell coordinates: a group per panel (data-panel) whose transform
// maps cell (xa, xb) to its pixels (xb upwards), holding a group per class (data-class, fill)
// of rectangles x = xa, y = xb, width, height that merge runs of equal cells; so a reader
// (tests/cli/test_plot.sh) recovers every cell's class from the file alone. Text uses a
// monospace font whose advance matches the bitmap fonts the layout measured with.
#pragma once

#include "src/plot/scene.h"

#include <string>

namespace mxcert::plot {

/// The SVG document of `sc`.
std::string toSvg(const Scene &sc);

}  // namespace mxcert::plot
