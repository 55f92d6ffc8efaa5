// smt/smtlib.cpp — SMT-LIB2 printing of a TermStore (see smtlib.h).
#include "smt/smtlib.h"

#include <sstream>
#include <vector>

namespace mxcert::smt {

namespace {

std::string intLit(const Integer &v) {
  if (v.sign() < 0) return "(- " + (-v).str() + ")";
  return v.str();
}

bool isBoolOp(Op op) {
  return op == Op::BoolConst || op == Op::Le0 || op == Op::Eq0 || op == Op::Not || op == Op::And ||
         op == Op::Or || op == Op::IteB;
}

/// Declarations, definitions and assertions of one phase (-1: the whole query) onto o.
void printPhase(std::ostringstream &o, const TermStore &store, int phase) {
  const TermStore::Live live = store.live(phase);
  std::vector<char> reach(store.size(), 0);
  std::vector<uint32_t> stack;
  for (TermRef a : live.assertions) stack.push_back(a.id);
  for (TermRef v : live.variables) stack.push_back(v.id);
  while (!stack.empty()) {
    uint32_t id = stack.back();
    stack.pop_back();
    if (reach[id]) continue;
    reach[id] = 1;
    for (uint32_t a : store.node(TermRef{id}).args) stack.push_back(a);
  }
  auto ref = [&](uint32_t id) -> std::string {
    const Node &n = store.node(TermRef{id});
    if (n.op == Op::IntConst) return intLit(n.c);
    if (n.op == Op::BoolConst) return n.b ? "true" : "false";
    if (n.op == Op::IntVar) return n.name;
    return "t" + std::to_string(id);
  };
  for (TermRef v : live.variables) o << "(declare-fun " << store.node(v).name << " () Int)\n";
  for (uint32_t id = 0; id < store.size(); ++id) {
    if (!reach[id]) continue;
    const Node &n = store.node(TermRef{id});
    std::string body;
    switch (n.op) {
    case Op::IntConst:
    case Op::BoolConst:
    case Op::IntVar:
      continue;
    case Op::Lin: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < n.args.size(); ++i) {
        if (n.coefs[i] == Integer(1))
          parts.push_back(ref(n.args[i]));
        else
          parts.push_back("(* " + intLit(n.coefs[i]) + " " + ref(n.args[i]) + ")");
      }
      if (!n.c.isZero()) parts.push_back(intLit(n.c));
      if (parts.size() == 1) {
        body = parts[0];
      } else {
        body = "(+";
        for (auto &p : parts) body += " " + p;
        body += ")";
      }
      break;
    }
    case Op::Ite:
    case Op::IteB:
      body = "(ite " + ref(n.args[0]) + " " + ref(n.args[1]) + " " + ref(n.args[2]) + ")";
      break;
    case Op::Le0: body = "(<= " + ref(n.args[0]) + " 0)"; break;
    case Op::Eq0: body = "(= " + ref(n.args[0]) + " 0)"; break;
    case Op::Not: body = "(not " + ref(n.args[0]) + ")"; break;
    case Op::And:
    case Op::Or:
      body = n.op == Op::And ? "(and" : "(or";
      for (uint32_t a : n.args) body += " " + ref(a);
      body += ")";
      break;
    }
    o << "(define-fun t" << id << " () " << (isBoolOp(n.op) ? "Bool" : "Int") << " " << body << ")\n";
  }
  for (TermRef a : live.assertions) o << "(assert " << ref(a.id) << ")\n";
  if (store.trivallyFalse()) o << "(assert false)\n";
}

}  // namespace

std::string toSmtLib2(const TermStore &store, const std::string &comment) {
  std::ostringstream o;
  if (!comment.empty()) {
    std::istringstream c(comment);
    std::string line;
    while (std::getline(c, line)) o << "; " << line << "\n";
  }
  o << "(set-logic QF_LIA)\n";
  if (store.phaseCount() == 1) {
    printPhase(o, store, -1);
    o << "(check-sat)\n";
    return o.str();
  }
  // Every phase must be unsat: phase 0 is the goal, phases 1 .. F the facts.
  for (int p = 0; p < store.phaseCount(); ++p) {
    o << "; phase " << p << (p == store.goalPhase() ? ": the placements differ" : ": a fact of the analysis fails") << "\n";
    o << "(push 1)\n";
    printPhase(o, store, p);
    o << "(check-sat)\n(pop 1)\n";
  }
  return o.str();
}

}  // namespace mxcert::smt
