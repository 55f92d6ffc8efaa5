// smt/text_solver.cpp — deciding SMT-LIB2 text (see text_solver.h).
#include "smt/text_solver.h"
#include "smt/isolated.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace mxcert::smt {

namespace {

CheckResult viaZ3(const std::string &script, double timeoutSec) {
  CheckResult res;
  z3::context ctx;
  z3::solver slv(ctx);
  if (timeoutSec > 0) {
    z3::params p(ctx);
    p.set("timeout", std::max(1u, unsigned(timeoutSec * 1000)));  // never 0 (= no limit)
    slv.set(p);
  }
  slv.from_string(script.c_str());
  auto t0 = std::chrono::steady_clock::now();
  z3::check_result r = slv.check();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.verdict = r == z3::unsat ? Verdict::Unsat : r == z3::sat ? Verdict::Sat : Verdict::Unknown;
  if (res.verdict == Verdict::Unknown) res.reason = "z3 returned unknown (" + slv.reason_unknown() + ")";
  return res;
}

CheckResult viaCvc5Binary(const std::string &script, double timeoutSec) {
  CheckResult res;
  char path[] = "/tmp/mxcert-query-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  {
    std::ofstream f(path);
    f << script;
  }
  close(fd);
  std::string cmd = "cvc5 --lang smt2";
  // cvc5's default FP solver handles Float32 and Float64 only; other sorts need --fp-exp.
  if (script.find("(_ FloatingPoint 8 8)") != std::string::npos ||
      script.find("(_ FloatingPoint 5 11)") != std::string::npos)
    cmd += " --fp-exp";
  if (timeoutSec > 0) {
    // cvc5's --tlimit is advisory: coreutils' timeout kills it 0.25 s after the limit.
    char kill[64];
    std::snprintf(kill, sizeof kill, "timeout -s KILL %.3f ", timeoutSec + kIsolationGraceSec);
    cmd = kill + cmd + " --tlimit=" + std::to_string(std::max(1L, long(timeoutSec * 1000)));
  }
  cmd += " " + std::string(path) + " 2>&1";
  auto t0 = std::chrono::steady_clock::now();
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) {
    std::remove(path);
    throw std::runtime_error("cannot run cvc5");
  }
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  int status = pclose(p);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::remove(path);
  if (out.rfind("unsat", 0) == 0)
    res.verdict = Verdict::Unsat;
  else if (out.rfind("sat", 0) == 0)
    res.verdict = Verdict::Sat;
  else {
    res.verdict = Verdict::Unknown;
    std::string first = out.substr(0, out.find('\n'));
    res.reason = "cvc5 binary: " + (first.empty() ? "exit status " + std::to_string(status) : first);
  }
  return res;
}

}  // namespace

CheckResult solveText(const std::string &solver, const std::string &script, double timeoutSec) {
  // Z3 runs in this process's library: isolate it (a hard limit, and no crash on exhaustion).
  if (solver == "z3") return runIsolated([&] { return viaZ3(script, timeoutSec); }, timeoutSec);
  if (solver == "cvc5") return viaCvc5Binary(script, timeoutSec);
  throw std::invalid_argument("unknown solver '" + solver + "'");
}

}  // namespace mxcert::smt
