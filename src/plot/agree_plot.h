// src/plot/agree_plot.h — the layout of agree-set plots: one certificate, or two side by side.
//
// A panel shows the 256 x 256 scale-code cells (xa to the right, xb upwards, code 255 in the
// last column and row) coloured by class (cell_map.h), the outlines of the agree regions, the
// constant-e diagonals that bound them (e = xa + xb - 254, dashed and labelled), axes labelled
// in codes and in the powers of two they stand for (code c is the scale 2^(c-127)), a header
// naming the configuration and a legend with the number of cells of each class. A comparison
// has three panels: the two files and their difference. The result is a Scene, which
// svg_writer.h and png_writer.h turn into files.
#pragma once

#include "src/plot/cell_map.h"
#include "src/plot/scene.h"

namespace mxcert::plot {

/// How a cell class is drawn: its SVG data-class, its colour, and its legend text.
struct CellClassStyle {
  const char *id;      ///< SVG data-class
  Rgb color;           ///< fill colour
  const char *legend;  ///< legend text (the number of cells follows)
};
/// The style of class c.
const CellClassStyle &cellClassStyle(Cell c);

/// Pixels per cell, and the panel's grid size (256 cells).
constexpr int kCellPixels = 2;
constexpr int kGridPixels = 256 * kCellPixels;

/// The picture of one file's agree set (cells from classify()).
Scene plotAgreeSet(const AgreeSource &s);
/// The two files side by side, and a third panel with the cells where their agree sets differ
/// (compare()).
Scene plotComparison(const AgreeSource &left, const AgreeSource &right);

}  // namespace mxcert::plot
