// mlir_pass/TableCheck.cpp — runs `mxcert check` on guard tables, with an in-process and an
// on-disk cache keyed by the table's SHA-256 and the checker's identity.
//
// The identity of a checker is its real path, size and modification time (nanoseconds): no
// subprocess is needed to compute it, and rebuilding or replacing the binary changes it. A
// cache entry is the file DIR/<sha256 of its own text>, whose text names the table's SHA-256,
// the checker's identity, the command and the result; it exists only for tables that passed.
// An entry is used only when its text is exactly the expected one. Entries are written to a
// unique temporary file in DIR and renamed into place, so concurrent runs never see half an
// entry.
#include "mlir_pass/TableCheck.h"

#include "certs/certificate.h"
#include "certs/sha256.h"
#include "mlir_pass/InstallLayout.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

namespace mxcert::mlir_pass {

namespace {

/// The version of the cache entries' text (part of the text, hence of the key).
constexpr int kCacheVersion = 1;

/// What one run of the checker said (kept per cache key for the rest of the process).
struct Outcome {
  enum Kind { Holds, Exit, CannotRun, Changed } kind = Holds;
  int exitCode = 0;    ///< for Exit: the checker's exit status (1, 2, 3 or another)
  std::string detail;  ///< the checker's first relevant line, or why it could not run
};

/// Process-wide state, guarded by `mu`: outcomes by cache key, and the cache directories a
/// warning was already given for.
struct SharedState {
  std::mutex mu;
  std::map<std::string, Outcome> outcomes;
  std::set<std::string> warnedDirs;
};

SharedState &shared() {
  static SharedState s;
  return s;
}

/// The value of an environment variable, or "".
std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

/// The real path of `p`, or "" when it has none.
std::string realPath(const std::string &p) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(p, out)) return "";
  return out.str().str();
}

/// The text of a file, or "" (for the checker's output: at most 1 MiB is read).
std::string slurp(llvm::StringRef path) {
  try {
    return certs::readRegularFile(path.str(), size_t(1) << 20);
  } catch (const std::exception &) {
    return "";
  }
}

/// The line of the checker's output that says what failed: its first `mxcert: ...` line on
/// stderr without the `mxcert: ` and `check failed: ` / `error: ` / `unknown: ` prefixes,
/// else the first FALSE or unknown claim on stdout, else the first non-empty line.
std::string firstRelevantLine(const std::string &err, const std::string &out) {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(err).split(lines, '\n', -1, false);
  for (llvm::StringRef l : lines) {
    l = l.trim();
    if (!l.consume_front("mxcert: ")) continue;
    for (llvm::StringRef p : {"check failed: ", "error: ", "unknown: "})
      if (l.consume_front(p)) break;
    return l.str();
  }
  llvm::SmallVector<llvm::StringRef> outLines;
  llvm::StringRef(out).split(outLines, '\n', -1, false);
  for (llvm::StringRef l : outLines) {
    llvm::StringRef t = l.trim();
    if (t.starts_with("FALSE ") || t.starts_with("unknown ")) return t.drop_until([](char c) { return c == ' '; }).trim().str();
  }
  for (llvm::StringRef l : lines)
    if (!l.trim().empty()) return l.trim().str();
  return "(no output)";
}

/// Runs `checker check path`; the outcome (Holds for exit 0).
Outcome runChecker(const std::string &checker, const std::string &path) {
  Outcome o;
  llvm::SmallString<128> outPath, errPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("mxcert-check", "out", outPath)) {
    o.kind = Outcome::CannotRun;
    o.detail = "cannot create a temporary file: " + ec.message();
    return o;
  }
  llvm::FileRemover removeOut(outPath);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("mxcert-check", "err", errPath)) {
    o.kind = Outcome::CannotRun;
    o.detail = "cannot create a temporary file: " + ec.message();
    return o;
  }
  llvm::FileRemover removeErr(errPath);
  llvm::StringRef args[] = {checker, "check", path};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  std::string errMsg;
  bool failedToStart = false;
  int rc = llvm::sys::ExecuteAndWait(checker, args, std::nullopt, redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &errMsg, &failedToStart);
  if (failedToStart || rc == -1) {
    o.kind = Outcome::CannotRun;
    o.detail = errMsg.empty() ? "it could not be started" : errMsg;
    return o;
  }
  if (rc < 0) {
    o.kind = Outcome::CannotRun;
    o.detail = "it crashed" + (errMsg.empty() ? std::string() : ": " + errMsg);
    return o;
  }
  if (rc == 0) return o;
  o.kind = Outcome::Exit;
  o.exitCode = rc;
  o.detail = firstRelevantLine(slurp(errPath), slurp(outPath));
  return o;
}

/// Writes `text` to DIR/NAME atomically (unique temporary file, then rename); "" or why not.
std::string writeEntry(const std::string &dir, const std::string &name, const std::string &text) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) return ec.message();
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(dir + "/" + name + ".tmp-%%%%%%%%", fd, tmp))
    return ec.message();
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return why;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, dir + "/" + name)) {
    llvm::sys::fs::remove(tmp);
    return ec.message();
  }
  return "";
}

}  // namespace

std::string TableChecker::findChecker(std::string &error) const {
  // An explicit choice (option, then environment) is used as given; a bare name is looked up
  // on PATH.
  for (auto [value, what] : {std::pair{options_.checker, std::string("checker=")},
                             std::pair{env("MXCERT_CHECKER"), std::string("MXCERT_CHECKER")}}) {
    if (value.empty()) continue;
    if (value.find('/') != std::string::npos) return value;
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(value)) return *p;
    error = "the checker '" + value + "' (" + what + ") is not on PATH";
    return "";
  }
  // Next to the running mxcert-opt, or in <prefix>/bin of an installed pass plugin.
  const CodeFile self = codeFile();
  const std::string tools = toolsDir(self);
  if (!tools.empty()) {
    llvm::SmallString<256> sibling(tools);
    llvm::sys::path::append(sibling, "mxcert");
    if (llvm::sys::fs::is_regular_file(sibling) && llvm::sys::fs::can_execute(sibling)) return sibling.str().str();
  }
#if defined(MXCERT_BUILD_CHECKER) && defined(MXCERT_BUILD_OPT) && defined(MXCERT_BUILD_PLUGIN)
  // The build tree's checker, only for the build tree's own mxcert-opt or pass plugin.
  if (!self.path.empty() && (self.path == realPath(MXCERT_BUILD_OPT) || self.path == realPath(MXCERT_BUILD_PLUGIN)) &&
      llvm::sys::fs::can_execute(MXCERT_BUILD_CHECKER))
    return MXCERT_BUILD_CHECKER;
#endif
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("mxcert")) return *p;
  error = "no checker found (no mxcert next to this executable or plugin, in its build tree or on PATH); pass "
          "checker=PATH (the `mxcert` binary) or set MXCERT_CHECKER";
  return "";
}

std::string TableChecker::cacheDirectory() const {
  for (const std::string &v : {options_.cacheDir, env("MXCERT_CHECK_CACHE")}) {
    if (v.empty()) continue;
    return v == "none" ? "" : v;
  }
  std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty() && llvm::sys::path::is_absolute(xdg)) return xdg + "/mxcert/checked";
  std::string home = env("HOME");
  if (!home.empty()) return home + "/.cache/mxcert/checked";
  return "";
}

CheckResult TableChecker::verify(const std::string &path, const std::string &sha256) {
  CheckResult res;
  const std::string table = "guard table '" + path + "'";
  if (!resolved_) {
    checker_ = findChecker(checkerError_);
    resolved_ = true;
  }
  if (checker_.empty()) {
    res.error = "cannot verify " + table + ": " + checkerError_;
    return res;
  }
  // The checker's identity: real path, size, modification time.
  std::string real = realPath(checker_);
  llvm::sys::fs::file_status st;
  if (real.empty() || llvm::sys::fs::status(real, st)) {
    res.error = "cannot run the checker '" + checker_ + "' to verify " + table + ": no such file";
    return res;
  }
  long long mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          st.getLastModificationTime().time_since_epoch())
                          .count();
  const std::string record = "mxcert-opt check cache " + std::to_string(kCacheVersion) +
                             "\ntable-sha256 " + sha256 + "\nchecker " + real + "\nchecker-size " +
                             std::to_string(st.getSize()) + "\nchecker-mtime-ns " + std::to_string(mtimeNs) +
                             "\ncommand check FILE\nresult exit 0\n";
  const std::string key = certs::sha256Hex(record);

  SharedState &s = shared();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.outcomes.find(key);
  if (it == s.outcomes.end()) {
    Outcome o;
    const std::string dir = cacheDirectory();
    bool hit = false;
    if (!dir.empty()) {
      llvm::SmallString<256> entry(dir);
      llvm::sys::path::append(entry, key);
      hit = llvm::sys::fs::is_regular_file(entry) && slurp(entry) == record;
    }
    if (!hit) {
      o = runChecker(checker_, path);
      if (o.kind == Outcome::Holds) {
        // The checker read the file itself: it must still be the file the caller parsed.
        std::string now;
        try {
          now = certs::sha256Hex(certs::readRegularFile(path, certs::kMaxFileBytes));
        } catch (const std::exception &) {
        }
        if (now != sha256) {
          o.kind = Outcome::Changed;
        } else if (!dir.empty()) {
          std::string why = writeEntry(dir, key, record);
          if (!why.empty() && s.warnedDirs.insert(dir).second)
            res.warning = "cannot write the check cache '" + dir + "': " + why +
                          "; tables are checked again in every run (check-cache=DIR chooses another "
                          "directory, check-cache=none turns the cache off)";
        }
      }
    }
    // A changed file is not remembered: the next run reads it again.
    if (o.kind == Outcome::Changed) {
      res.error = table + " changed while the checker was reading it";
      return res;
    }
    it = s.outcomes.emplace(key, o).first;
  }
  const Outcome &o = it->second;
  switch (o.kind) {
  case Outcome::Holds:
    res.ok = true;
    return res;
  case Outcome::CannotRun:
    res.error = "cannot run the checker '" + checker_ + "' to verify " + table + ": " + o.detail;
    return res;
  case Outcome::Exit:
    if (o.exitCode == 1)
      res.error = table + " is rejected by the checker (mxcert check exit 1): " + o.detail;
    else if (o.exitCode == 2)
      res.error = table + " is not a valid certificate (mxcert check exit 2): " + o.detail;
    else if (o.exitCode == 3)
      res.error = table + " is not verified: the checker could not finish (mxcert check exit 3): " + o.detail;
    else
      res.error = "cannot run the checker '" + checker_ + "' to verify " + table + ": it exited with " +
                  std::to_string(o.exitCode) + ": " + o.detail;
    return res;
  case Outcome::Changed:
    break;
  }
  res.error = table + " changed while the checker was reading it";
  return res;
}

}  // namespace mxcert::mlir_pass
