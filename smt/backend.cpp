// smt/backend.cpp — backend registry.
#include "smt/backend.h"
#include "smt/isolated.h"

namespace mxcert::smt {

const char *toString(Verdict v) {
  switch (v) {
  case Verdict::Sat: return "sat";
  case Verdict::Unsat: return "unsat";
  case Verdict::Unknown: return "unknown";
  }
  return "?";
}

std::unique_ptr<Backend> makeCvc5Backend();
std::unique_ptr<Backend> makeZ3Backend();

std::vector<std::string> availableSolvers() { return {"cvc5", "z3"}; }

std::unique_ptr<Backend> makeBackend(const std::string &solver) {
  // Every check runs in a child process (smt/isolated.h): the limit holds even where the
  // solver ignores it, and a solver crash (out of memory) is unknown, not a crash of mxcert.
  if (solver == "cvc5") return isolate(makeCvc5Backend());
  if (solver == "z3") return isolate(makeZ3Backend());
  return nullptr;
}

}  // namespace mxcert::smt
