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
#include <string>

#include <fcntl.h>
#include <poll.h>
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

CheckResult &unknown(CheckResult &r, Clock::time_point t0, const std::string &why) {
  r.verdict = Verdict::Unknown;
  r.reason = why;
  r.model.clear();
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

class IsolatedBackend : public Backend {
public:
  explicit IsolatedBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  CheckResult check(const TermStore &store, double timeoutSec) override {
    return runIsolated([&] { return inner_->check(store, timeoutSec); }, timeoutSec);
  }

private:
  std::unique_ptr<Backend> inner_;
};

}  // namespace

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

CheckResult runIsolated(const std::function<CheckResult()> &work, double timeoutSec) {
  const auto t0 = Clock::now();
  CheckResult out;
  int fds[2];
  if (::pipe(fds) != 0) return unknown(out, t0, std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return unknown(out, t0, std::string("cannot fork the solver process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Child: run the check, send the answer, leave without running destructors or atexit
    // handlers of the parent's state.
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
  // Parent: read until EOF, the limit plus the grace period at most.
  const bool limited = timeoutSec > 0;
  const auto killAt = t0 + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(timeoutSec + kIsolationGraceSec));
  std::string text;
  bool killed = false, interrupted = false;
  char buf[65536];
  for (;;) {
    if (Budget::interrupted()) {  // Ctrl-C or SIGTERM: stop the solver now
      killed = interrupted = true;
      break;
    }
    int waitMs = 200;  // wakes up to notice an interrupt
    if (limited) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(killAt - Clock::now()).count();
      if (left <= 0) {
        killed = true;
        break;
      }
      waitMs = int(std::min<long long>(left, 200));
    }
    pollfd p{fds[0], POLLIN, 0};
    const int pr = ::poll(&p, 1, waitMs);
    if (pr < 0 && errno == EINTR) continue;
    if (pr < 0) break;
    if (pr == 0) continue;  // re-evaluates the time left
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF (or an error): the child is done
    text.append(buf, size_t(n));
  }
  ::close(fds[0]);
  if (killed) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (interrupted || Budget::interrupted()) return unknown(out, t0, Budget{}.stopReason());
  if (killed) {
    char why[128];
    std::snprintf(why, sizeof why, "timeout: the solver did not stop within its %.3g s limit and was killed",
                  timeoutSec);
    return unknown(out, t0, why);  // a timeout: a smaller query may well finish
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    unknown(out, t0, std::string("the solver process died of signal ") + std::to_string(sig) + " (" +
                         strsignal(sig) + "; a resource limit such as memory?)");
    out.exhausted = true;
    return out;
  }
  if (!deserialize(text, out)) {
    out = CheckResult{};
    return unknown(out, t0, "the solver process exited without an answer (status " +
                                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

std::unique_ptr<Backend> isolate(std::unique_ptr<Backend> inner) {
  if (!inner) return nullptr;
  return std::make_unique<IsolatedBackend>(std::move(inner));
}

}  // namespace mxcert::smt
