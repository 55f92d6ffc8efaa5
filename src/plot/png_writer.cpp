// src/plot/png_writer.cpp — rasterizing a Scene and encoding PNG.
#include "src/plot/png_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mxcert::plot {
namespace {

/// Drawing onto a raster, clipped to its bounds.
class Painter {
public:
  explicit Painter(Raster &img) : img_(img) {}

  /// Sets pixel (x, y) when it is inside the image.
  void put(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= img_.width || y >= img_.height) return;
    const size_t i = (size_t(y) * size_t(img_.width) + size_t(x)) * 3;
    img_.rgb[i] = c.r;
    img_.rgb[i + 1] = c.g;
    img_.rgb[i + 2] = c.b;
  }

  /// Fills pixels x..x+w-1, y..y+h-1.
  void fill(int x, int y, int w, int h, Rgb c) {
    for (int j = std::max(y, 0); j < std::min(y + h, img_.height); ++j)
      for (int i = std::max(x, 0); i < std::min(x + w, img_.width); ++i) put(i, j, c);
  }

  /// A line: per column whose centre lies within the line's x extent (per row when the
  /// line is steeper than 45 degrees), the pixel containing the line at that centre.
  void line(const Line &l) {
    const double dx = l.x1 - l.x0, dy = l.y1 - l.y0;
    const bool byColumn = std::abs(dx) >= std::abs(dy);
    const double a0 = byColumn ? std::min(l.x0, l.x1) : std::min(l.y0, l.y1);
    const double a1 = byColumn ? std::max(l.x0, l.x1) : std::max(l.y0, l.y1);
    int step = 0;
    for (int i = int(std::ceil(a0 - 0.5)); i <= int(std::floor(a1 - 0.5)); ++i, ++step) {
      if (l.dash > 0 && (step / l.dash) % 2 == 1) continue;
      const double c = i + 0.5;
      if (byColumn) {
        const double y = dx == 0 ? l.y0 : l.y0 + (c - l.x0) * dy / dx;
        put(i, int(std::floor(y)), l.color);
      } else {
        const double x = dy == 0 ? l.x0 : l.x0 + (c - l.y0) * dx / dy;
        put(int(std::floor(x)), i, l.color);
      }
    }
  }

  /// A string in font f with its box's top-left corner at (x, y) (horizontal) or, for
  /// vertical text, its box's left edge at x and its bottom end at y.
  void glyphs(const std::string &s, Font f, int x, int y, bool vertical, Rgb c) {
    const FontMetrics m = metrics(f);
    for (size_t k = 0; k < s.size(); ++k)
      for (int r = 0; r < m.height; ++r) {
        const uint16_t bits = glyphRow(f, s[k], r);
        for (int col = 0; col < m.advance; ++col) {
          if (!(bits & (0x8000u >> col))) continue;
          const int u = int(k) * m.advance + col;  // position along the text
          if (vertical) put(x + r, y - 1 - u, c);
          else put(x + u, y + r, c);
        }
      }
  }

  /// A text item with its superscript (raised 3 pixels above the base text's top).
  void text(const Text &t) {
    const int w = textExtent(t);
    const int shift = t.anchor == Anchor::Start ? 0 : t.anchor == Anchor::Middle ? w / 2 : w;
    const int baseW = textWidth(t.font, t.text);
    if (t.vertical) {
      const int y0 = t.y + shift;
      glyphs(t.text, t.font, t.x, y0, true, t.color);
      glyphs(t.sup, Font::Small, t.x - 3, y0 - baseW, true, t.color);
    } else {
      const int x0 = t.x - shift;
      glyphs(t.text, t.font, x0, t.y, false, t.color);
      glyphs(t.sup, Font::Small, x0 + baseW, t.y - 3, false, t.color);
    }
  }

  /// The cells of a grid (xb upwards).
  void grid(const CellGrid &g) {
    for (int xa = 0; xa < 256; ++xa)
      for (int xb = 0; xb < 256; ++xb)
        fill(g.x + g.cell * xa, g.y + g.cell * (255 - xb), g.cell, g.cell,
             g.styles[g.cls[size_t(xa) * 256 + size_t(xb)]].color);
  }

private:
  Raster &img_;
};

/// Appends a big-endian 32-bit number.
void be32(std::string &o, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) o += char((v >> s) & 0xff);
}

/// Appends a PNG chunk: length, type, data, CRC-32 of type and data.
void chunk(std::string &o, const char *type, const std::string &data) {
  be32(o, uint32_t(data.size()));
  const std::string body = std::string(type, 4) + data;
  o += body;
  be32(o, uint32_t(crc32(0, reinterpret_cast<const Bytef *>(body.data()), uInt(body.size()))));
}

}  // namespace

Raster rasterize(const Scene &sc) {
  Raster img;
  img.width = sc.width;
  img.height = sc.height;
  img.rgb.resize(size_t(sc.width) * size_t(sc.height) * 3);
  Painter p(img);
  p.fill(0, 0, sc.width, sc.height, sc.background);
  for (const Item &it : sc.items) {
    if (auto *r = std::get_if<FillRect>(&it)) p.fill(r->x, r->y, r->w, r->h, r->fill);
    else if (auto *l = std::get_if<Line>(&it)) p.line(*l);
    else if (auto *t = std::get_if<Text>(&it)) p.text(*t);
    else p.grid(std::get<CellGrid>(it));
  }
  return img;
}

std::string encodePng(const Raster &img) {
  // Scanlines with filter type 2 ("Up": each byte minus the byte above it).
  const size_t stride = size_t(img.width) * 3;
  std::string raw;
  raw.reserve((stride + 1) * size_t(img.height));
  for (int y = 0; y < img.height; ++y) {
    raw += char(2);
    const uint8_t *row = img.rgb.data() + size_t(y) * stride;
    const uint8_t *above = y > 0 ? row - stride : nullptr;
    for (size_t i = 0; i < stride; ++i) raw += char(uint8_t(row[i] - (above ? above[i] : 0)));
  }
  uLongf len = compressBound(uLong(raw.size()));
  std::string z(len, '\0');
  if (compress2(reinterpret_cast<Bytef *>(z.data()), &len, reinterpret_cast<const Bytef *>(raw.data()),
                uLong(raw.size()), 9) != Z_OK)
    throw std::runtime_error("zlib compress2 failed");
  z.resize(len);
  std::string ihdr;
  be32(ihdr, uint32_t(img.width));
  be32(ihdr, uint32_t(img.height));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, adaptive filters, no interlace
  std::string o = "\x89PNG\r\n\x1a\n";
  chunk(o, "IHDR", ihdr);
  chunk(o, "IDAT", z);
  chunk(o, "IEND", "");
  return o;
}

}  // namespace mxcert::plot
