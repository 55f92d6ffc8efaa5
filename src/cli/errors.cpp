// src/cli/errors.cpp — how an error that ends a command is reported (exit code, one line).
#include "src/cli/errors.h"

#include "certs/config_json.h"
#include "models/domain.h"
#include "smt/budget.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/engine/exhaustive.h"

#include <new>

namespace mxcert::cli {

Failure failureOf(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const UsageError &x) {
    return {kUsage, "error", x.what()};
  } catch (const certs::SchemaError &x) {
    return {kUsage, "error", x.what()};
  } catch (const NoAnyOrderProof &x) {
    return {kUnknown, "unknown", x.what()};
  } catch (const smt::BudgetExceeded &x) {
    // The command's deadline or term cap (a limit; nothing is reported as proven).
    return {kUnknown, "unknown", x.what()};
  } catch (const engine::ResourceLimit &x) {
    return {kUnknown, "unknown", x.what()};
  } catch (const EncodingLimit &x) {
    return {kUnknown, "unknown", std::string("the encoding is too large: ") + x.what() + " (choose a smaller region)"};
  } catch (const std::bad_alloc &) {
    return {kUnknown, "unknown", "out of memory (a resource limit)"};
  } catch (const std::exception &x) {
    return {70, "internal error", x.what()};
  } catch (...) {
    return {70, "internal error", "an exception of unknown type"};
  }
}

}  // namespace mxcert::cli
