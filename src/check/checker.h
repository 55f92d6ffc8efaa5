// src/check/checker.h — the independent checker of certificates (`mxcert check`).
//
// The checker confirms or rejects every claim of a certificate (docs/certificates.md) while
// trusting only the reference evaluator (models/eval.h), the query encoder (smt/encoder.h,
// smt/fp_encoder.h) and a solver of the user's choice. Nothing the file says is taken on
// trust: the agree set and the witnesses' refuted pairs are recomputed as sets of code pairs;
// every refuted pair is replayed in the evaluator; every proof's query is regenerated from
// the configuration and its region and compared with the stored fingerprint (and text); every
// query is re-proven; a recorded closed-form bound is recomputed. The reader (certs/) has
// already checked the schema; this is about whether the claims are TRUE.
#pragma once

#include "certs/certificate.h"
#include "smt/budget.h"

#include <functional>
#include <string>
#include <vector>

namespace mxcert::check {

/// Which solver re-proves the proof queries.
enum class SolverChoice {
  Other,  ///< per proof, the other solver than the one that produced it (default)
  Cvc5,   ///< always cvc5
  Z3,     ///< always z3
  Both,   ///< cvc5 and z3, each must answer unsat
  None    ///< no re-proofs (their claims are reported as unknown)
};

/// Parses "other", "cvc5", "z3", "both", "none"; false when unknown.
bool parseSolverChoice(const std::string &s, SolverChoice &out);

/// Options of a check.
struct CheckOptions {
  SolverChoice solver = SolverChoice::Other;
  double timeout = 300;        ///< per re-proof, seconds (a timeout is unknown, never a proof)
  /// The command's budget (deadline for the whole check, term cap of a regenerated query;
  /// not owned, null = unlimited). What is not checked when it runs out is unknown.
  const smt::Budget *budget = nullptr;
  std::string baseDir = ".";   ///< where relative `query_file` names are resolved
  size_t maxReported = 5;      ///< failures reported per claim before "... and N more"
  std::function<void(const std::string &)> log;  ///< progress lines (may be empty)
  /// Called before each re-proof with (proofs done, proofs): for a progress display.
  std::function<void(long, long)> progress;
  /// Parts of the check (the witness replay, each proof) run at the same time, each in a
  /// forked child process (1: all in this process, one after another). The report is the
  /// same whatever the number.
  int jobs = 1;
};

/// The status of one claim.
enum class Status { Holds, False, Unknown };

/// "holds", "FALSE", "unknown".
const char *toString(Status s);

/// The outcome for one claim (or one family of claims, e.g. all witnesses).
struct ClaimResult {
  std::string claim;   ///< what was claimed ("coverage", "witnesses", "proofs[2]", ...)
  Status status = Status::Holds;
  std::string detail;  ///< one line: what was verified, or why it fails
  double seconds = 0;  ///< time spent on this claim
};

/// The checker's report: one entry per claim, in the order they were checked.
struct CheckReport {
  std::vector<ClaimResult> claims;
  long pairsReplayed = 0;   ///< (witness, pair) replays
  long evaluations = 0;     ///< evaluator runs (fewer when placements depend on e alone)
  int reproofs = 0;         ///< solver calls made
  double seconds = 0;

  /// Whether every claim holds.
  bool holds() const;
  /// The first false claim, or nullptr.
  const ClaimResult *firstFalse() const;
  /// The first unknown claim, or nullptr.
  const ClaimResult *firstUnknown() const;
};

/// Checks every claim of `c` (see the header comment and docs/certificates.md).
CheckReport checkCertificate(const certs::Certificate &c, const CheckOptions &opt);

}  // namespace mxcert::check
