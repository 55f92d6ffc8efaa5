// smt/isolated.cpp — see isolated.h.
#include "smt/isolated.h"
#include "smt/budget.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mxcert::smt {
namespace {

using Clock = std::chrono::steady_clock;

/// The answer as text: "V <0|1|2>\nR <reason>\nS <seconds>\n" then "M <name> <value>\n" per
/// model entry and "E\n" at the end (a missing E means the child died while writing).
std::string serialize(const CheckResult &r) {
  std::string reason = r.reason;
  for (char &c : reason)
    if (c == '\n' || c == '\r') c = ' ';
  std::ostringstream o;
  o << "V " << int(r.verdict) << "\nR " << reason << "\nS " << r.seconds << "\nX " << int(r.exhausted) << "\nP "
    << r.phase << "\n";
  for (const auto &[name, value] : r.model) o << "M " << name << " " << value.str() << "\n";
  o << "E\n";
  return o.str();
}

/// Parses serialize()'s text; false when it is incomplete or malformed.
bool deserialize(const std::string &text, CheckResult &r) {
  std::istringstream in(text);
  std::string line;
  bool end = false, haveV = false;
  while (std::getline(in, line)) {
    if (line == "E") {
      end = true;
      break;
    }
    if (line.size() < 2 || line[1] != ' ') return false;
    const std::string rest = line.substr(2);
    switch (line[0]) {
    case 'V': {
      const int v = std::atoi(rest.c_str());
      if (v < 0 || v > 2) return false;
      r.verdict = Verdict(v);
      haveV = true;
      break;
    }
    case 'R': r.reason = rest; break;
    case 'S': break;  // the parent measures the wall time itself
    case 'X': r.exhausted = rest == "1"; break;
    case 'P': r.phase = std::atoi(rest.c_str()); break;
    case 'M': {
      const auto sp = rest.find(' ');
      if (sp == std::string::npos) return false;
      try {
        r.model[rest.substr(0, sp)] = Integer::parse(rest.substr(sp + 1));
      } catch (const std::exception &) {
        return false;
      }
      break;
    }
    default: return false;
    }
  }
  return end && haveV;
}

/// Why a child killed at its limit (plus the grace period) has no answer.
std::string killedReason(double timeoutSec) {
  char why[128];
  std::snprintf(why, sizeof why, "timeout: the solver did not stop within its %.3g s limit and was killed", timeoutSec);
  return why;
}

CheckResult &unknown(CheckResult &r, Clock::time_point t0, const std::string &why) {
  r.verdict = Verdict::Unknown;
  r.reason = why;
  r.model.clear();
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

class IsolatedBackend : public Backend {
public:
  IsolatedBackend(std::unique_ptr<Backend> inner, int jobs) : inner_(std::move(inner)), jobs_(std::max(jobs, 1)) {}
  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  CheckResult check(const TermStore &store, double timeoutSec) override {
    if (constantFalseQuery(store)) return inner_->check(store, timeoutSec);
    if (!factsSideBySide(store)) return runIsolated([&] { return inner_->check(store, timeoutSec); }, timeoutSec);
    const int factPhases = store.phaseCount() - 1;
    // The goal's phase first, in a child of its own (a model there is a counterexample
    // candidate: it must be the answer, whatever the facts say), then the facts side by side.
    const auto t0 = Clock::now();
    CheckResult goal = runIsolated([&] { return inner_->checkPhase(store, 0, timeoutSec); }, timeoutSec);
    if (goal.verdict != Verdict::Unsat) {
      goal.phase = 0;
      return goal;
    }
    double left = timeoutSec;
    if (timeoutSec > 0) left = std::max(0.001, timeoutSec - std::chrono::duration<double>(Clock::now() - t0).count());
    const int n = std::min(jobs_, factPhases);
    std::vector<std::function<CheckResult()>> works;
    for (int i = 0; i < n; ++i)
      works.push_back([this, &store, left, i, n, factPhases]() {
        std::vector<int> phases;
        for (int p = 1 + i; p <= factPhases; p += n) phases.push_back(p);
        return checkPhases(phases, left, [&](int p, double l) { return inner_->checkPhase(store, p, l); });
      });
    CheckResult facts = eachIsolated(works, left).back();
    facts.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return facts;
  }
  CheckResult checkPhase(const TermStore &store, int phase, double timeoutSec) override {
    return runIsolated([&] { return inner_->checkPhase(store, phase, timeoutSec); }, timeoutSec);
  }
  std::vector<CheckResult> checkAll(const std::vector<const TermStore *> &stores, double timeoutSec) override {
    // Side by side only beside a large query: small queries are checked in about the time a
    // child of their own costs.
    size_t largest = 0;
    for (const TermStore *st : stores) largest = std::max(largest, st->size());
    if (jobs_ <= 1 || stores.size() <= 1 || largest < kMinParallelQueryTerms) return Backend::checkAll(stores, timeoutSec);
    // Each query in a child of its own, as check() would (its fact phases side by side in
    // children of that child where it has many).
    std::vector<std::function<CheckResult()>> works;
    for (const TermStore *st : stores)
      works.push_back([this, st, timeoutSec]() {
        return factsSideBySide(*st) ? check(*st, timeoutSec) : inner_->check(*st, timeoutSec);
      });
    return eachIsolated(works, timeoutSec);
  }

private:
  /// Whether check() shares the store's fact phases among `jobs_` children.
  bool factsSideBySide(const TermStore &store) const {
    return jobs_ > 1 && store.phaseCount() - 1 >= kMinParallelFactPhases && !constantFalseQuery(store);
  }

  std::unique_ptr<Backend> inner_;
  int jobs_ = 1;  ///< processes for the fact phases of one query, and for checkAll
};

}  // namespace

bool constantFalseQuery(const TermStore &store) {
  if (!store.trivallyFalse() && !(store.goalFalse() && store.phaseCount() == 1)) return false;
  // The backend translates every live term before the solver sees `false`: only a small
  // query runs here (kInProcessMaxTerms), a large one keeps its child and its limits.
  return store.reached(store.live(-1).assertions).size() <= kInProcessMaxTerms;
}

bool writeAll(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

namespace {

/// One started entrant: its child process, the read end of its pipe and what it sent so far.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::string text;
};

/// Forks a child that runs `work` and writes its serialized answer to a pipe; pid -1 on
/// failure (`why` says why).
Child startChild(const std::function<CheckResult()> &work, std::string &why) {
  Child c;
  int fds[2];
  if (::pipe(fds) != 0) {
    why = std::string("cannot create a pipe: ") + std::strerror(errno);
    return c;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    why = std::string("cannot fork the solver process: ") + std::strerror(errno);
    return c;
  }
  if (pid == 0) {
    // Child: run the check, send the answer, leave without running destructors or atexit
    // handlers of the parent's state. It dies with its parent (a raced entrant's parent is
    // itself a child that may be killed at its limit).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(fds[0]);
    // The solver's own diagnostics (an abort message on exhaustion) would break mxcert's
    // one-line error contract: the parent reports the outcome instead.
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2);
    std::string text;
    try {
      text = serialize(work());
    } catch (const std::bad_alloc &) {
      CheckResult r;
      r.reason = "the solver ran out of memory";
      r.exhausted = true;
      text = serialize(r);
    } catch (const std::exception &e) {
      CheckResult r;
      r.reason = std::string("the solver failed: ") + e.what();
      r.exhausted = r.reason.find("memory") != std::string::npos;  // Z3: "out of memory"
      text = serialize(r);
    } catch (...) {
      CheckResult r;
      r.reason = "the solver failed";
      text = serialize(r);
    }
    ::_exit(writeAll(fds[1], text) ? 0 : 1);
  }
  ::close(fds[1]);
  c.pid = pid;
  c.fd = fds[0];
  return c;
}

/// Waits for a finished (or killed) child and turns what it sent into an answer.
CheckResult finishChild(Child &c, bool killed, double timeoutSec, Clock::time_point t0) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  if (killed) ::kill(c.pid, SIGKILL);
  int status = 0;
  while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
  }
  CheckResult out;
  if (killed) {
    const std::string why = killedReason(timeoutSec);
    return unknown(out, t0, why);  // a timeout: a smaller query may well finish
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    unknown(out, t0, std::string("the solver process died of signal ") + std::to_string(sig) + " (" +
                         strsignal(sig) + "; a resource limit such as memory?)");
    out.exhausted = true;
    return out;
  }
  if (!deserialize(c.text, out)) {
    out = CheckResult{};
    return unknown(out, t0, "the solver process exited without an answer (status " +
                                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  return out;
}

/// Waits at most `waitMs` for output from the running children and reads what arrived.
/// Returns the indices of the children whose pipe has ended (they are done: finishChild), in
/// order; none when the wait was interrupted by a signal. A failed wait sets `error`.
std::vector<size_t> readChildren(std::vector<Child> &running, long long waitMs, std::string &error) {
  std::vector<size_t> done;
  std::vector<pollfd> ps;
  for (const Child &c : running) ps.push_back(pollfd{c.fd, POLLIN, 0});
  const int pr = ::poll(ps.data(), ps.size(), int(waitMs));
  if (pr < 0) {
    if (errno != EINTR) error = std::string("cannot wait for the solver process: ") + std::strerror(errno);
    return done;
  }
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!(ps[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[65536];
    const ssize_t n = ::read(running[i].fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0)
      running[i].text.append(buf, size_t(n));
    else
      done.push_back(i);  // EOF (or an error): this child is done
  }
  return done;
}

}  // namespace

CheckResult runIsolated(const std::function<CheckResult()> &work, double timeoutSec) {
  return raceIsolated({Entrant{0.0, work}}, timeoutSec);
}

CheckResult raceIsolated(const std::vector<Entrant> &entrants, double timeoutSec) {
  const auto t0 = Clock::now();
  CheckResult out;
  if (entrants.empty()) return unknown(out, t0, "nothing to run");
  const bool limited = timeoutSec > 0;
  const auto killAt = t0 + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(timeoutSec + kIsolationGraceSec));
  const auto startAt = [&](size_t i) {
    return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(entrants[i].startAfterSec));
  };
  std::vector<Child> running;  // started and not yet finished
  size_t next = 0;             // the first entrant not yet started
  bool haveUnknown = false;    // `out` holds the first entrant's unknown answer
  const auto killAll = [&] {
    for (Child &c : running) finishChild(c, true, timeoutSec, t0);
    running.clear();
  };
  for (;;) {
    if (Budget::interrupted()) {  // Ctrl-C or SIGTERM: stop the solvers now
      killAll();
      return unknown(out, t0, Budget{}.stopReason());
    }
    // Start every entrant whose time has come, and the next one at once when none runs (an
    // entrant that ended unknown early hands over to the next).
    while (next < entrants.size() && (running.empty() || Clock::now() >= startAt(next))) {
      std::string why;
      Child c = startChild(entrants[next].work, why);
      ++next;
      if (c.pid < 0) {
        if (!haveUnknown) unknown(out, t0, why), haveUnknown = true;
        continue;
      }
      running.push_back(std::move(c));
    }
    if (running.empty()) break;  // every entrant ended without a decided answer
    long long waitMs = 200;  // wakes up to notice an interrupt
    const auto now = Clock::now();
    if (limited) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(killAt - now).count();
      if (left <= 0) {
        killAll();
        const std::string why = killedReason(timeoutSec);
        out = CheckResult{};
        return unknown(out, t0, why);  // a timeout: a smaller query may well finish
      }
      waitMs = std::min<long long>(left, waitMs);
    }
    if (next < entrants.size())
      waitMs = std::max<long long>(
          0, std::min<long long>(waitMs, std::chrono::duration_cast<std::chrono::milliseconds>(startAt(next) - now).count() + 1));
    std::string error;
    const std::vector<size_t> done = readChildren(running, waitMs, error);
    if (!error.empty()) {
      killAll();
      out = CheckResult{};
      return unknown(out, t0, error);
    }
    for (size_t i : done) {
      CheckResult r = finishChild(running[i], false, timeoutSec, t0);
      running[i].pid = -1;
      if (r.verdict != Verdict::Unknown) {  // decided: the race is over
        for (Child &c : running)
          if (c.pid >= 0) finishChild(c, true, timeoutSec, t0);
        running.clear();
        r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return r;
      }
      if (!haveUnknown) out = r, haveUnknown = true;
    }
    running.erase(std::remove_if(running.begin(), running.end(), [](const Child &c) { return c.pid < 0; }),
                  running.end());
  }
  if (Budget::interrupted()) return unknown(out, t0, Budget{}.stopReason());
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

std::vector<CheckResult> eachIsolated(const std::vector<std::function<CheckResult()>> &works, double timeoutSec) {
  const auto t0 = Clock::now();
  std::vector<std::optional<CheckResult>> res(works.size());
  size_t need = works.size();  // the works before the first one known not to be unsat
  const bool limited = timeoutSec > 0;
  const auto killAt = t0 + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(timeoutSec + kIsolationGraceSec));
  std::vector<Child> running;
  std::vector<size_t> index;  // running[i] runs works[index[i]]
  // Work i answered r: a work after the first that is not unsat is no longer needed.
  auto settle = [&](size_t i, CheckResult r) {
    const bool fails = r.verdict != Verdict::Unsat;
    res[i] = std::move(r);
    if (fails && i < need) need = i;
  };
  // Ends every running child (killed) and answers `why` for the needed ones.
  auto stopAll = [&](const std::string &why) {
    for (size_t c = 0; c < running.size(); ++c) {
      finishChild(running[c], true, timeoutSec, t0);
      if (index[c] < need) {
        CheckResult r;
        settle(index[c], unknown(r, t0, why));
      }
    }
    running.clear();
    index.clear();
  };
  for (size_t i = 0; i < works.size() && i < need; ++i) {
    std::string why;
    Child c = startChild(works[i], why);
    if (c.pid < 0) {
      CheckResult r;
      settle(i, unknown(r, t0, why));
      break;
    }
    running.push_back(std::move(c));
    index.push_back(i);
  }
  while (!running.empty()) {
    // The children of works no longer needed are killed.
    for (size_t c = 0; c < running.size(); ++c)
      if (index[c] >= need && running[c].pid >= 0) {
        finishChild(running[c], true, timeoutSec, t0);
        running[c].pid = -1;
      }
    for (size_t c = running.size(); c-- > 0;)
      if (running[c].pid < 0) {
        running.erase(running.begin() + long(c));
        index.erase(index.begin() + long(c));
      }
    if (running.empty()) break;
    if (Budget::interrupted()) {
      stopAll(Budget{}.stopReason());
      break;
    }
    long long waitMs = 200;  // wakes up to notice an interrupt
    if (limited) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(killAt - Clock::now()).count();
      if (left <= 0) {
        const std::string why = killedReason(timeoutSec);
        stopAll(why);
        break;
      }
      waitMs = std::min<long long>(left, waitMs);
    }
    std::string error;
    const std::vector<size_t> done = readChildren(running, waitMs, error);
    if (!error.empty()) {
      stopAll(error);
      break;
    }
    for (size_t c : done) {
      CheckResult r = finishChild(running[c], false, timeoutSec, t0);
      r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();  // from the start
      settle(index[c], std::move(r));
      running[c].pid = -1;
    }
  }
  // In order, up to the first answer that is not unsat.
  std::vector<CheckResult> out;
  for (size_t i = 0; i < works.size() && i <= need; ++i) {
    if (!res[i]) {  // cannot happen: every work before `need` was started and answered
      CheckResult r;
      res[i] = unknown(r, t0, "the solver process was not run");
    }
    out.push_back(std::move(*res[i]));
    if (out.back().verdict != Verdict::Unsat) break;
  }
  return out;
}

std::unique_ptr<Backend> isolate(std::unique_ptr<Backend> inner, int jobs) {
  if (!inner) return nullptr;
  return std::make_unique<IsolatedBackend>(std::move(inner), jobs);
}

}  // namespace mxcert::smt
