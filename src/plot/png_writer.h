// src/plot/png_writer.h — a Scene rasterized into pixels, and the pixels as a PNG file.
//
// Rasterization follows the SVG geometry: a rectangle covers its pixels; a line covers, per
// column (or per row when steeper than 45 degrees), the pixel its centre line crosses at the
// pixel centre; text is drawn with the bitmap fonts (bitmap_font.h) the layout measured with.
// The PNG is 8-bit RGB, one zlib stream (libz), deterministic (no time stamps).
#pragma once

#include "src/plot/scene.h"

#include <string>
#include <vector>

namespace mxcert::plot {

/// An RGB image, row-major, 3 bytes per pixel.
struct Raster {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
  /// The colour of pixel (x, y) (inside the image).
  Rgb at(int x, int y) const {
    const size_t i = (size_t(y) * size_t(width) + size_t(x)) * 3;
    return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

/// The pixels of `sc`.
Raster rasterize(const Scene &sc);
/// The PNG file of an image (bytes). Throws std::runtime_error if zlib fails.
std::string encodePng(const Raster &img);
/// The PNG file of `sc`.
inline std::string toPng(const Scene &sc) { return encodePng(rasterize(sc)); }

}  // namespace mxcert::plot
