// src/cli/errors.h — how an error that ends a command is reported: its exit code and one line
// (the `mxcert` command prints "mxcert: KIND: MESSAGE"; the Python module raises the matching
// exception with MESSAGE).
#pragma once

#include <exception>
#include <string>

namespace mxcert::cli {

/// The report of an exception that ended a command.
struct Failure {
  int exit = 70;                     ///< 2 bad usage or input, 3 unknown (a limit), 70 an internal error
  std::string kind = "internal error";  ///< "error", "unknown" or "internal error"
  std::string message;               ///< what went wrong (may need oneLine() before printing)
};

/// Classifies `e` (spec §8 exit codes): UsageError and certs::SchemaError are bad input (2,
/// "error"); smt::BudgetExceeded and engine::ResourceLimit a limit (3, "unknown"), EncodingLimit
/// too ("the encoding is too large: ... (choose a smaller region)"), std::bad_alloc as "out of
/// memory (a resource limit)"; any other exception is an internal error (70).
Failure failureOf(std::exception_ptr e);

}  // namespace mxcert::cli
