// smt/backend.cpp — backend registry.
#include "smt/backend.h"

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
  if (solver == "cvc5") return makeCvc5Backend();
  if (solver == "z3") return makeZ3Backend();
  return nullptr;
}

}  // namespace mxcert::smt
