// mlir_pass/TableCheck.h — verifying a guard table before `--mx-scale-placement` uses it.
//
// The pass trusts no table file: before a certificate's agree set decides anything, the
// certificate must pass the independent checker, `mxcert check FILE` (exit 0). The checker
// links the solvers, which this library must not (mlir_pass links models and certs only), so
// it runs as a subprocess. Outcomes are cached by content: within the process (each table
// checked once per run) and, optionally, on disk (one file per (table bytes, checker) pair
// that passed), so a pipeline pays for each table once.
#pragma once

#include <string>

namespace mxcert::mlir_pass {

/// Where the checker and the cache are (the pass options `checker=` and `check-cache=`).
struct CheckOptions {
  /// The checker: a path, or a program name looked up on PATH. Empty: the MXCERT_CHECKER
  /// environment variable, else `mxcert` next to the running executable (for the pass
  /// plugin: in <prefix>/bin of its install, InstallLayout.h), else the build tree's `mxcert`
  /// (only when this executable or plugin is the build tree's own), else `mxcert` on PATH.
  std::string checker;
  /// The persistent cache directory. Empty: MXCERT_CHECK_CACHE, else
  /// $XDG_CACHE_HOME/mxcert/checked, else $HOME/.cache/mxcert/checked. "none" (here or in
  /// MXCERT_CHECK_CACHE) turns the persistent cache off.
  std::string cacheDir;
};

/// The outcome of verifying one table.
struct CheckResult {
  bool ok = false;      ///< the checker accepted the table (exit 0), now or in a cached run
  std::string error;    ///< when !ok: why, one line, naming the table
  std::string warning;  ///< one line, when the result could not be cached (never fatal)
};

/// Runs the checker on table files, with the caches described above. One per pass run;
/// the process-wide state behind it (in-process outcomes, checker identities) is guarded by
/// a mutex, so instances on different threads are safe. Checks themselves are serialized.
class TableChecker {
public:
  explicit TableChecker(CheckOptions options) : options_(std::move(options)) {}

  /// Verifies the table file `path`, whose contents the caller read and parsed and whose
  /// SHA-256 is `sha256` (64 lowercase hex digits): returns ok when `mxcert check path` exits
  /// 0 and the file still has that hash afterwards, or when a cache says the same checker
  /// accepted the same bytes. Exit 1 (a false claim), 2 (not a valid certificate), 3
  /// (unknown), a checker that cannot be found or run, or a crash give !ok with a one-line
  /// error naming the table and quoting the checker's first diagnostic line.
  CheckResult verify(const std::string &path, const std::string &sha256);

  /// The checker the options select (see CheckOptions::checker), or "" with `error` set.
  std::string findChecker(std::string &error) const;
  /// The persistent cache directory the options select, or "" when it is off.
  std::string cacheDirectory() const;

private:
  CheckOptions options_;
  std::string checker_;       ///< resolved on first use
  std::string checkerError_;  ///< why none was found (then checker_ is empty)
  bool resolved_ = false;
};

}  // namespace mxcert::mlir_pass
