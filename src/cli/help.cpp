// src/cli/help.cpp — `mxcert CMD --help` and `mxcert help CMD`, generated from the option sets
// each command hands to Args (so the help lists exactly what the parser accepts), with one
// description per option name; and the "did you mean" of unknown options.
#include "src/cli/options.h"

#include <algorithm>
#include <map>
#include <vector>

namespace mxcert::cli {
namespace {

/// One option's value name and description.
struct OptionDoc {
  const char *metavar;
  const char *help;
};

/// Every option of every command (a command-specific text overrides: key "CMD:NAME").
const std::map<std::string, OptionDoc> &optionDocs() {
  static const std::map<std::string, OptionDoc> docs = {
      {"a", {"FMT", "element format of the a side: e2m1, e2m3, e3m2, e4m3, e5m2 (or f8E4M3FN, float8_e4m3fn, ...)"}},
      {"b", {"FMT", "element format of the b side (default: that of --a)"}},
      {"format", {"F", "mxfp4, mxfp6, mxfp8 or nvfp4 for both sides (instead of --a/--b; nvfp4: e2m1 with e4m3 scales)"}},
      {"scale", {"S", "scale format: e8m0 (default, MX) or e4m3 (NVFP4: needs --a e2m1 --b e2m1)"}},
      {"block", {"K", "the same as --k"}},
      {"acc", {"ACC", "accumulator format: f32 (default), bf16, f16, f64"}},
      {"round", {"R", "accumulator rounding: rne (default), rtz"}},
      {"subnormals", {"S", "accumulator subnormals: keep (default), ftz (results flushed), daz (ftz, and a dequant scale below 2^emin reads as zero)"}},
      {"k", {"K", "block size, 1..64 (required; 16 by default for nvfp4)"}},
      {"tree", {"T", "reduction tree: seq (default), pairwise, fused, an S-expression like \"((0 2) (1 3))\", or any / any:N (every tree; nodes of at most N children)"}},
      {"lhs", {"P", "first placement: pre (default), post, dequant, post2"}},
      {"rhs", {"P", "second placement: post (default), pre, dequant, post2"}},
      {"relation", {"R", "bitwise (default) or value"}},
      {"solver", {"S", "cvc5 (default) or z3"}},
      {"check:solver", {"S", "the re-proving solver: other (default: the one that did not produce a proof), z3, cvc5, both, none"}},
      {"timeout", {"S", "wall-clock seconds for the whole command; past it the rest is unknown (exit 3)"}},
      {"query-timeout", {"S", "seconds for one solver call (table: 120, check: 300)"}},
      {"max-terms", {"N", "terms in one query, 1000..2000000000 (default 20000000); a bigger one is unknown"}},
      {"json", {"", "print JSON instead of text"}},
      {"o", {"FILE", "write the output to FILE (atomically; table: only a complete table)"}},
      {"xa", {"CODES", "scale code(s) of a: N, 0xN, LO..HI or all (e8m0: 0..255, e4m3: 0..127)"}},
      {"xb", {"CODES", "scale code(s) of b: N, 0xN, LO..HI or all"}},
      {"cex:xa", {"N", "scale code of a, 0..254"}},
      {"cex:xb", {"N", "scale code of b, 0..254"}},
      {"emit-smt2:xa", {"N", "one code pair: the scale code of a, 0..254"}},
      {"emit-smt2:xb", {"N", "one code pair: the scale code of b, 0..254"}},
      {"a-vals", {"\"V ...\"", "the k elements of a: decimal values, hex codes (0x7), -0, inf, nan"}},
      {"b-vals", {"\"V ...\"", "the k elements of b"}},
      {"placements", {"LIST", "placements to evaluate, comma-separated (default pre,post,dequant,post2)"}},
      {"engine", {"E", "solver (default: certified by cvc5/z3) or exhaustive (every input evaluated)"}},
      {"no-collapse", {"", "exhaustive engine: evaluate every code pair (no scaling argument)"}},
      {"verbose", {"", "log each query (table) or claim (check) on stderr"}},
      {"embed-queries", {"", "embed each proof's SMT-LIB2 text in the certificate"}},
      {"proof", {"P", "fixed tree: auto (default: each region first by the every-tree induction, else the tree's unrolled query; k = 1, fused trees at k <= 4 and trees with a non-root node of more than two children at k <= 8, both with a closed form: unrolled first) or unrolled (the unrolled query only)"}},
      {"obligations", {"", "the default (kept for older scripts): the solver proves every fact of the analysis, arithmetic checks the rest"}},
      {"guard", {"REGIONS", "the regions to prove, e.g. \"e:-147..122\" or \"xa:0..10,xb:3..3,e:-254..0\""}},
      {"emit-smt2:guard", {"REGION", "the region of the query (one region)"}},
      {"encoding", {"E", "lia (QF_LIA, default) or fp (the QF_FP baseline)"}},
      {"step", {"STEP", "--tree any: the induction step to print: leaf, root, node, start, add (root1 at k = 1)"}},
      {"invariant", {"MODE", "--tree any: the invariant of the step: scaled, zero, equal, scaled-noinf, zero-noinf (those two without infinities) or zero-infnan (mode zero with infinities as NaN); default: the first the table engine tries"}},
      {"e", {"N", "the region e = N (placements that depend on e alone: pre, post)"}},
      {"quiet", {"", "no progress line (and for check: no per-claim report, only the exit code and errors)"}},
      {"progress", {"", "print progress lines on stderr even when it is not a terminal"}},
      {"as", {"FORM", "cpp (a C++ header), json (a compact guard table) or mlir (an attribute)"}},
      {"name", {"ID", "the C++/MLIR identifier of the exported table"}},
      {"compare", {"CERT2", "a second certificate: both side by side, and the cells where their agree sets differ"}},
      {"sweep:o", {"DIR", "the directory of the certificates (NAME.json) and the index (created if missing)"}},
      {"jobs", {"N", "tables certified at the same time, each a child process (default 1); each table gets --jobs (processors / N)"}},
      {"table:jobs", {"N", "processors to use: threads trying candidate inputs on the code groups and scanning the root step on concrete values, solver processes for the fact phases of a query and for induction steps side by side (default: one per processor, at most 8); the table is the same for every N"}},
      {"check:jobs", {"N", "parts of the check (witness replay, each proof) run at the same time, each a child process (default: one per processor, at most 8; 1: one after another in this process)"}},
      {"shard", {"I/N", "only the entries whose number modulo N is I (0-based: 0/2 and 1/2 split a sweep in two)"}},
      {"export:o", {"OUT", "write to the file OUT (atomically); for a sweep index, the directory OUT: OUT/NAME.h|.json|.mlir per certified entry"}},
      {"merge:o", {"OUT", "write the merged index to OUT (atomically; default: stdout)"}},
      {"plot:o", {"FILE", "write the picture to FILE.svg or FILE.png (the extension decides; default: SVG on stdout)"}},
  };
  return docs;
}

/// The synopsis and one-line summary of each command.
struct CommandDoc {
  const char *synopsis;
  const char *summary;
};
const std::map<std::string, CommandDoc> &commandDocs() {
  static const std::map<std::string, CommandDoc> docs = {
      {"eval", {"mxcert eval CONFIG --xa CODES --xb CODES --a-vals \"V ...\" --b-vals \"V ...\" [options]",
                "evaluate placements on concrete inputs with the reference evaluator"}},
      {"table", {"mxcert table CONFIG --lhs P --rhs P [options]",
                 "the certified agree set of two placements over all 255 x 255 scale-code pairs"}},
      {"prove", {"mxcert prove CONFIG --lhs P --rhs P --guard REGIONS [options]",
                 "prove that two placements agree on every input in the regions"}},
      {"cex", {"mxcert cex CONFIG --lhs P --rhs P --xa N --xb N [options]",
               "a counterexample at one code pair, or a proof that the placements agree there"}},
      {"bound", {"mxcert bound CONFIG --lhs P --rhs P [options]",
                 "the closed-form agree set, certified sound and tight by the solver"}},
      {"emit-smt2", {"mxcert emit-smt2 CONFIG --lhs P --rhs P (--xa N --xb N | --e N | --guard REGION) [options]",
                     "a query as SMT-LIB2 text (unsat: the placements agree in the region)"}},
      {"check", {"mxcert check FILE [options]", "check every claim of a certificate with the independent checker"}},
      {"export", {"mxcert export FILE|INDEX.json|DIR --as cpp|json|mlir [options]",
                  "a certificate's guard as a C++ header, a compact JSON table or an MLIR attribute (an index: every certified entry)"}},
      {"sweep", {"mxcert sweep MANIFEST -o DIR [--jobs N] [--shard I/N]",
                 "every table of a manifest certified as one job, resumable; writes DIR/index.json (docs/sweeps.md)"}},
      {"merge", {"mxcert merge INDEX.json|DIR... [-o OUT]", "the shard indexes of one sweep joined into one index, refusing conflicts (a DIR: its index-shard-*.json)"}},
      {"plot", {"mxcert plot CERT.json [-o FILE.svg|FILE.png] [--compare CERT2.json]",
                "a certificate's agree set drawn over the scale codes (xa, xb), coloured by class"}},
  };
  return docs;
}

/// Levenshtein distance (small strings).
size_t distance(const std::string &a, const std::string &b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string commandHelp(const std::string &cmd, const std::set<std::string> &flags, const std::set<std::string> &valued) {
  std::string out;
  auto c = commandDocs().find(cmd);
  if (c != commandDocs().end())
    out += std::string("usage: ") + c->second.synopsis + "\n" + c->second.summary + "\n";
  else
    out += "usage: mxcert " + cmd + " [options]\n";
  if (!valued.empty() && valued.count("k")) out += "CONFIG: --a FMT [--b FMT] | --format F, --k K, and the options below\n";
  out += "options:\n";
  std::set<std::string> all = flags;
  all.insert(valued.begin(), valued.end());
  all.insert("help");
  for (const std::string &name : all) {
    std::string head = name == "o" ? "-o" : "--" + name;
    std::string help;
    if (name == "help") {
      help = "print this help and exit";
    } else {
      auto d = optionDocs().find(cmd + ":" + name);
      if (d == optionDocs().end()) d = optionDocs().find(name);
      if (d != optionDocs().end()) {
        if (valued.count(name) && *d->second.metavar) head += std::string(" ") + d->second.metavar;
        help = d->second.help;
      } else if (valued.count(name)) {
        head += " VALUE";
      }
    }
    if (head.size() < 24) head.resize(24, ' ');
    else head += "  ";
    out += "  " + head + help + "\n";
  }
  out += "exit codes: 0 holds/proven, 1 refuted, 2 bad usage or input, 3 unknown (a limit); see docs/cli.md\n";
  return out;
}

std::string didYouMean(const std::string &name, const std::set<std::string> &flags, const std::set<std::string> &valued) {
  std::string best;
  size_t bestD = 3;  // suggest only within two edits
  auto consider = [&](const std::string &c) {
    const size_t d = distance(name, c);
    if (d < bestD || (d == bestD && !best.empty() && c < best)) {
      bestD = d;
      best = c;
    }
  };
  for (const auto &f : flags) consider(f);
  for (const auto &v : valued) consider(v);
  if (best.empty() || best == "o") return "";
  return " (did you mean --" + best + "?)";
}

}  // namespace mxcert::cli
