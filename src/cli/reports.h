// src/cli/reports.h — the results of `mxcert eval`, `table` and `check` computed from parsed
// arguments: the commands print them (`--json`), the Python module (python/) returns them, so
// both give the same JSON and report bad input with the same messages.
#pragma once

#include "certs/certificate.h"
#include "src/check/checker.h"
#include "src/cli/options.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace mxcert::cli {

/// The options of a command that its result depends on: flags and options with a value
/// (not --json, --progress, --quiet or -o, which only choose how the result is shown).
struct OptionSet {
  std::set<std::string> flags, valued;
};

/// A progress callback: (units done, units in all); may be empty.
using ProgressFn = std::function<void(long, long)>;

/// eval's options: the configuration, --xa, --xb, --a-vals, --b-vals, --placements, --relation.
const OptionSet &evalOptions();
/// What `mxcert eval --json` prints for `args` (parsed with evalOptions()); UsageError for a
/// bad or missing option.
nlohmann::json evalReport(const Args &args);

/// table's options: the configuration, --lhs, --rhs, --relation, --engine, --solver, the
/// limits, and the flags --no-collapse, --embed-queries, --verbose.
const OptionSet &tableOptions();
/// The outcome of a table: its certificate (complete or not) and what stayed undecided.
struct TableOutcome {
  certs::Certificate cert;
  bool complete = true;
  /// When incomplete: the lines `mxcert table` prints after "mxcert: unknown: " (the undecided
  /// pairs and at most 8 of their regions).
  std::vector<std::string> unknown;
  /// When incomplete: how many code pairs are undecided (neither proven nor refuted).
  long undecided = 0;
};
/// Runs the engine --engine names (solver by default) on the question of `args` (parsed with
/// tableOptions() and perhaps more); `progress` gets (done, total) while it runs. UsageError for
/// a bad option; engine::ResourceLimit when the exhaustive engine stops (deadline, state budget).
TableOutcome runTable(const Args &args, const ProgressFn &progress);

/// check's options: --solver, --timeout, --query-timeout, --max-terms, --verbose.
const OptionSet &checkOptions();
/// The checker's options from `args` for a certificate read from `path` (its directory resolves
/// relative query files; "" for the current directory). Sets `budget` from --timeout and
/// --max-terms; the options point to it. UsageError for a bad option.
check::CheckOptions checkOptionsOf(const Args &args, const std::string &path, smt::Budget &budget);
/// "HOLDS", "REJECTED" (a claim is false) or "UNKNOWN" (none is false, one is unknown).
const char *verdictOf(const check::CheckReport &rep);
/// What `mxcert check --json` prints (schema mxcert-check, version 1); `file` is the path as
/// given (or null for a certificate that came from no file).
nlohmann::json checkReport(const nlohmann::json &file, const certs::Certificate &cert, const check::CheckReport &rep);

}  // namespace mxcert::cli
