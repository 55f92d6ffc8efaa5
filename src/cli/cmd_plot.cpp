// src/cli/cmd_plot.cpp — `mxcert plot CERT.json [-o FILE.svg|FILE.png] [--compare CERT2.json]`:
// the agree set of a certificate (or compact guard table) drawn over the scale codes
// (src/plot, docs/plots.md); with --compare, two files side by side and their difference.
// The image format follows the -o extension; without -o the SVG goes to standard output.
// Plotting reads and evaluates, it does not check: `mxcert check` confirms a certificate.
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/plot/agree_plot.h"
#include "src/plot/png_writer.h"
#include "src/plot/svg_writer.h"

#include <cctype>

namespace mxcert::cli {
namespace {

/// Whether -o names a PNG (true) or an SVG (false) file, from its extension (any case);
/// UsageError for any other name.
bool wantsPng(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : base.substr(dot + 1);
  for (char &ch : ext) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == "png") return true;
  if (ext == "svg") return false;
  throw UsageError("-o '" + path + "': unknown image format " + (ext.empty() ? "(no extension)" : "'." + ext + "'") +
                   " (expected a .svg or .png file name)");
}

/// The file at `path` for plotting; a read or schema error is a UsageError (exit 2).
plot::AgreeSource load(const std::string &path) {
  try {
    return plot::readAgreeSource(path);
  } catch (const certs::SchemaError &e) {
    throw UsageError(e.what());
  }
}

}  // namespace

int cmdPlot(int argc, char **argv) {
  Args args(argc, argv, 2, {}, {"o", "compare"});
  if (args.positional().size() != 1)
    throw UsageError(args.positional().empty()
                         ? "missing certificate file (mxcert plot CERT.json [-o FILE.svg|FILE.png] [--compare CERT2.json])"
                         : "plot takes one certificate file (a second one goes after --compare)");
  const auto out = args.get("o");
  const bool png = out && wantsPng(*out);
  const plot::AgreeSource first = load(args.positional()[0]);
  plot::Scene scene;
  if (auto other = args.get("compare"))
    scene = plot::plotComparison(first, load(*other));
  else
    scene = plot::plotAgreeSet(first);
  emit(args, png ? plot::toPng(scene) : plot::toSvg(scene));
  return kOk;
}

}  // namespace mxcert::cli
