// src/cli/options.cpp — command-line parsing shared by the mxcert subcommands.
#include "src/cli/options.h"

#include "models/value_io.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fmt/core.h>

namespace mxcert::cli {

namespace {
/// Whether `a` is a negative or fractional number ("-3", "-.5", ".5"): an argument, not an option.
bool looksNumeric(const std::string &a) {
  return a.size() > 1 && a[0] == '-' && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.');
}

/// CLI11's message for a missing or unwanted value ("--k: 1 required TEXT missing", "json was
/// given a disallowed flag override") in this tool's words; other messages unchanged.
std::string usageMessage(const CLI::ParseError &e) {
  std::string m = e.what();
  size_t colon = m.find(": ");
  if (m.find(" required ") != std::string::npos && m.find(" missing") != std::string::npos && colon != std::string::npos) {
    std::string opt = m.substr(0, colon);
    return "option " + opt + (opt == "-o" ? " needs a file name" : " needs a value");
  }
  size_t over = m.find(" was given a disallowed flag override");
  if (over != std::string::npos) return "option --" + m.substr(0, over) + " takes no value";
  return m;
}
}  // namespace

Args::Args(int argc, char **argv, int first, const std::set<std::string> &flags,
           const std::set<std::string> &valued) {
  for (int i = first; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h"))
      throw HelpRequested(commandHelp(first >= 2 ? argv[first - 1] : "mxcert", flags, valued));
  // The parsing itself is CLI11's (libcli11-dev): one CLI11 option per accepted name, every
  // occurrence kept so that a repeated option can be refused; what CLI11 does not recognise
  // stays in remaining() and is reported here with a suggestion.
  CLI::App app;
  app.set_help_flag();
  app.allow_extras();
  std::map<std::string, std::vector<std::string>> given;
  std::map<std::string, CLI::Option *> flagOpts;
  for (const auto &f : flags) {
    CLI::Option *o = app.add_flag("--" + f);
    o->disable_flag_override();
    flagOpts[f] = o;
  }
  for (const auto &v : valued) {
    CLI::Option *o = app.add_option(v == "o" ? "-o" : "--" + v, given[v]);
    o->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
  }
  app.add_option("mxcert-positional", pos_);
  std::vector<std::string> argvec;
  for (int i = argc - 1; i >= first; --i) argvec.push_back(argv[i]);
  try {
    app.parse(argvec);  // CLI11 takes the arguments in reverse order
  } catch (const CLI::ParseError &e) {
    throw UsageError(oneLine(usageMessage(e)));
  }
  for (const std::string &a : app.remaining()) {
    if (a == "--") continue;
    if (looksNumeric(a)) throw UsageError("unexpected argument '" + oneLine(a) + "'");
    if (a.compare(0, 2, "--") == 0) {
      std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
      throw UsageError("unknown option --" + oneLine(name) + didYouMean(name, flags, valued));
    }
    throw UsageError("unknown option " + oneLine(a) + (a == "-o" ? " (this command writes no file)" : ""));
  }
  for (const auto &[name, o] : flagOpts)
    if (o->count()) flags_.insert(name);
  for (const auto &[name, vals] : given) {
    if (vals.size() > 1) throw UsageError("option " + std::string(name == "o" ? "-o" : "--" + name) + " given twice");
    if (vals.size() == 1) values_[name] = vals[0];
  }
}

std::optional<std::string> Args::get(const std::string &name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::get(const std::string &name, const std::string &dflt) const {
  auto v = get(name);
  return v ? *v : dflt;
}

std::string Args::require(const std::string &name) const {
  auto v = get(name);
  if (!v) throw UsageError("missing --" + name);
  return *v;
}

const std::set<std::string> &configOptions() {
  static const std::set<std::string> kOpts = {"a", "b", "format", "acc", "round", "subnormals",
                                              "k", "tree", "scale", "block"};
  return kOpts;
}

namespace {
ElementFormat elementOpt(const std::string &name, const std::string &v) {
  auto f = findElementFormatAlias(v);
  if (!f)
    throw UsageError("unknown element format '" + v + "' for --" + name +
                     " (expected e2m1, e2m3, e3m2, e4m3 or e5m2, or an MLIR/PyTorch name such as f8E4M3FN or "
                     "float8_e4m3fn)");
  return *f;
}
}  // namespace

ModelConfig parseConfig(const Args &args) {
  std::string a, b;
  ScaleFormat scale = ScaleFormat::E8M0;
  if (auto sc = args.get("scale")) {
    auto p = parseScaleFormat(*sc);
    if (!p) throw UsageError("unknown --scale '" + *sc + "' (expected e8m0 or e4m3)");
    scale = *p;
  }
  if (auto f = args.get("format")) {
    if (args.get("a") || args.get("b")) throw UsageError("--format and --a/--b are exclusive");
    if (args.get("scale")) throw UsageError("--format and --scale are exclusive (the format names its scale)");
    if (*f == "nvfp4") {
      a = b = "e2m1";
      scale = ScaleFormat::E4M3;
    } else if (*f == "mxfp4") {
      a = b = "e2m1";
    } else if (*f == "mxfp6")
      a = b = "e2m3";
    else if (*f == "mxfp8")
      a = b = "e4m3";
    else
      throw UsageError("unknown --format '" + *f + "' (expected mxfp4, mxfp6, mxfp8 or nvfp4)");
  } else {
    if (!args.get("a") && !args.get("b")) throw UsageError("missing --a/--b (or --format)");
    // --b defaults to --a (a = b is the common case); --b alone is a forgotten --a.
    if (!args.get("a")) throw UsageError("missing --a (--b defaults to --a, not the other way round)");
    a = *args.get("a");
    b = args.get("b", a);
  }
  ElementFormat fa = elementOpt("a", a), fb = elementOpt("b", b);
  if (scale == ScaleFormat::E4M3 && (fa.name != "e2m1" || fb.name != "e2m1"))
    throw UsageError("--scale e4m3 (nvfp4) needs e2m1 elements on both sides (got --a " + fa.name + " --b " +
                     fb.name + ")");
  std::string accName = args.get("acc", "f32");
  auto acc = findAccFormat(accName);
  if (!acc) throw UsageError("unknown accumulator '" + accName + "' (expected f32, bf16, f16 or f64)");
  AccSpec spec{*acc};
  std::string r = args.get("round", "rne");
  auto rr = parseRounding(r);
  if (!rr) throw UsageError("unknown --round '" + r + "' (expected rne or rtz)");
  spec.rounding = *rr;
  std::string s = args.get("subnormals", "keep");
  auto ss = parseSubnormals(s);
  if (!ss) throw UsageError("unknown --subnormals '" + s + "' (expected keep, ftz or daz)");
  spec.subnormals = *ss;
  if (const std::string why = dazUnsupported(ModelConfig{fa, fb, spec, Tree::seq(1), scale}); !why.empty())
    throw UsageError(why);
  long k;
  if (args.get("k") && args.get("block")) throw UsageError("--k and --block are exclusive (both name the block size)");
  const std::string kOpt = args.get("block") ? "block" : "k";
  try {
    // NVFP4 blocks have 16 elements: the default when neither --k nor --block is given.
    const std::string kText = scale == ScaleFormat::E4M3 ? args.get(kOpt, "16") : args.require(kOpt);
    k = parseIntIn(kText, 1, kMaxK, "--" + kOpt);
  } catch (const ValueError &e) {
    throw UsageError(e.what());
  }
  std::string treeText = args.get("tree", "seq");
  try {
    if (const int fanIn = parseAnyOrder(treeText, int(k))) {
      if (scale == ScaleFormat::E4M3)
        throw UsageError("--tree " + treeText + ": any-order tables are for MX (e8m0) scales; nvfp4 takes one tree");
      ModelConfig c{fa, fb, spec, Tree::seq(int(k)), scale};
      c.anyOrder = fanIn;
      return c;
    }
    Tree t = Tree::parse(treeText, int(k));
    return ModelConfig{fa, fb, spec, t, scale};
  } catch (const TreeError &e) {
    throw UsageError(std::string("--tree: ") + e.what());
  }
}

Placement parsePlacementOpt(const Args &args, const std::string &name, Placement dflt) {
  auto v = args.get(name);
  if (!v) return dflt;
  auto p = parsePlacement(*v);
  if (!p)
    throw UsageError("unknown placement '" + *v + "' for --" + name +
                     " (expected pre, post, dequant or post2)");
  return *p;
}

Relation parseRelationOpt(const Args &args) {
  std::string v = args.get("relation", "bitwise");
  auto r = parseRelation(v);
  if (!r) throw UsageError("unknown --relation '" + v + "' (expected bitwise or value)");
  return *r;
}

std::string parseSolverOpt(const Args &args) {
  std::string s = args.get("solver", "cvc5");
  if (s != "cvc5" && s != "z3") throw UsageError("unknown --solver '" + s + "' (expected cvc5 or z3)");
  return s;
}

double parseSecondsOpt(const Args &args, const std::string &name, double dflt) {
  auto v = args.get(name);
  if (!v) return dflt;
  char *end = nullptr;
  double t = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || !(t > 0) || t > 1e6)
    throw UsageError("--" + name + ": expected a positive number of seconds, got '" + *v + "'");
  return t;
}

int parseJobsOpt(const Args &args, int dflt, const char *what) {
  auto j = args.get("jobs");
  if (!j) return dflt;
  const std::string &s = *j;
  if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos || std::stoi(s) < 1)
    throw UsageError(std::string("--jobs: expected a number of ") + what + ", 1..999, got '" + oneLine(s) + "'");
  return std::stoi(s);
}

int defaultJobs() {
  // The processors this process may run on (a Slurm task's or taskset's share), else all.
  cpu_set_t set;
  CPU_ZERO(&set);
  const unsigned n = ::sched_getaffinity(0, sizeof set, &set) == 0 ? unsigned(CPU_COUNT(&set))
                                                                  : std::thread::hardware_concurrency();
  return int(std::clamp(n, 1u, 8u));
}

Progress::Progress(const Args &args, std::string what, std::string unit)
    : what_(std::move(what)), unit_(std::move(unit)), start_(std::chrono::steady_clock::now()), last_(start_) {
  tty_ = ::isatty(2) == 1;
  enabled_ = !args.flag("quiet") && (args.flag("progress") || tty_);
}

Progress::~Progress() {
  if (shown_ && tty_) std::fputs("\n", stderr);  // leave the last in-place line standing
}

void Progress::update(long done, long total) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  const double sinceLast = std::chrono::duration<double>(now - last_).count();
  if (shown_ && sinceLast < (tty_ ? 0.25 : 1.0)) return;
  if (!shown_ && std::chrono::duration<double>(now - start_).count() < (tty_ ? 0.5 : 0.0)) return;
  last_ = now;
  shown_ = true;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? double(done) / secs : 0;
  const std::string eta =
      done > 0 && done < total ? fmt::format(", about {:.0f} s left", secs * double(total - done) / double(done)) : "";
  fmt::print(stderr, "{}mxcert: {}: {}/{} {} ({:.0f}%), {:.1f}/s, {:.1f} s{}{}", tty_ ? "\r" : "", what_, done, total,
             unit_, 100.0 * double(done) / double(total), rate, secs, eta, tty_ ? "\x1b[K" : "\n");
  std::fflush(stderr);
}

smt::Budget parseBudget(const Args &args, double dfltTimeout) {
  size_t maxTerms = kDefaultMaxTerms;
  if (auto v = args.get("max-terms")) {
    try {
      maxTerms = size_t(parseIntIn(*v, 1000, 2000000000L, "--max-terms"));
    } catch (const ValueError &e) {
      throw UsageError(e.what());
    }
  }
  const double t = parseSecondsOpt(args, "timeout", dfltTimeout);
  if (t > 0) return smt::Budget::after(t, maxTerms);
  smt::Budget b;
  b.setMaxTerms(maxTerms);
  return b;
}

std::string describe(const ModelConfig &cfg) {
  return "a=" + cfg.a.name + " b=" + cfg.b.name + " acc=" + cfg.acc.fmt.name +
         " round=" + toString(cfg.acc.rounding) + " subnormals=" + toString(cfg.acc.subnormals) +
         " k=" + std::to_string(cfg.k()) + " tree=" + treeText(cfg) +
         (cfg.nvfp4() ? std::string(" scale=") + toString(cfg.scale) : std::string());
}

void emit(const Args &args, const std::string &text) {
  if (auto out = args.get("o"))
    writeFileAtomic(*out, text);
  else
    writeStdout(text);
}

void writeFileAtomic(const std::string &path, const std::string &text) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string tmpl = dir + "/.mxcert-tmp-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw UsageError("cannot write '" + commentSafe(path) + "': " + std::strerror(errno));
  const std::string tmp = tmpl;
  bool open = true;
  // Every failure: close (if still open), remove the temporary file, name the step.
  auto fail = [&](const char *what) {
    const int err = errno;
    if (open) ::close(fd);
    ::unlink(tmp.c_str());
    throw UsageError("cannot write '" + commentSafe(path) + "': " + what + ": " + std::strerror(err));
  };
  {
    // Ignoring SIGXFSZ (for the writes only) turns a file-size limit into an error we report
    // and clean up after.
    struct IgnoreXfsz {
      struct sigaction old {};
      IgnoreXfsz() {
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGXFSZ, &ign, &old);
      }
      ~IgnoreXfsz() { ::sigaction(SIGXFSZ, &old, nullptr); }
    } guard;
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("write");
      done += size_t(n);
    }
  }
  if (::fsync(fd) != 0) fail("fsync");
  const mode_t um = ::umask(0);
  ::umask(um);
  ::fchmod(fd, 0666 & ~um);
  open = false;
  if (::close(fd) != 0) fail("close");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename");
}

void writeStdout(const std::string &text) {
  std::cout << text;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    throw UsageError(std::string("cannot write standard output: ") + std::strerror(errno ? errno : EIO));
}

namespace {
/// `s` with every byte that `keep` rejects written as \xNN.
template <class Keep> std::string escapeBytes(const std::string &s, Keep keep) {
  std::string o;
  for (unsigned char ch : s) {
    if (keep(ch))
      o += char(ch);
    else
      o += fmt::format("\\x{:02x}", ch);
  }
  return o;
}
}  // namespace

std::string oneLine(const std::string &s) {
  return escapeBytes(s, [](unsigned char ch) { return ch >= 0x20 && ch != 0x7F; });
}

std::string commentSafe(const std::string &s) {
  return escapeBytes(s, [](unsigned char ch) { return ch >= 0x20 && ch < 0x7F && ch != '\\'; });
}

}  // namespace mxcert::cli
