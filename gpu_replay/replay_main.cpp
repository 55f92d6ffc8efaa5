// gpu_replay/replay_main.cpp — the mxcert-replay command (see docs/replay.md).
//
//   mxcert-replay TABLE.json [--device auto|cuda|hip|host] [--exhaustive] [--tensor-cores]
//                 [--json] [--max-pairs N] [--max-work N] [--only GUARD] [--samples N]
//                 [--tc-random N] [--tc-dump FILE] [--threads N] [--progress | --quiet]
//   mxcert-replay TABLE.json --tc-from-dump FILE [--json]
//   mxcert-replay --backend-info cuda|hip|host
//
// Exit codes (SPEC §8): 0 the device agrees with the model everywhere (and every claim checked
// holds); 1 a disagreement (the first one is printed in full); 2 bad usage or bad input, with
// one line "mxcert-replay: error: ..." on stderr and nothing on stdout.
#include "certs/certificate.h"
#include "gpu_replay/host_backend.h"
#include "gpu_replay/replay_core.h"
#include "gpu_replay/tensor_cores.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

/// The last line of a tensor-core report. The verdict is the post placement at the witness
/// code pairs; how the hardware's own accumulation compares with post over the tree is a
/// measurement, reported above it.
std::string tensorCoreVerdict(const mxreplay::TensorCoreReport &r) {
  if (!r.ok())
    return "result: FAILED — the hardware's post differs from the model's at a witness code pair (first case "
           "above; exit 1)\n";
  long inputs = 0, differ = 0;
  for (const auto &k : r.results)
    if (k.run) inputs += k.inputs, differ += k.inputs - k.treeMatches;
  return std::string("result: OK — the hardware's post equals the model's at every witness code pair") +
         (differ ? "; its accumulation differs from post over the certificate's tree on " + std::to_string(differ) +
                       " of " + std::to_string(inputs) + " inputs (measured above, not a failure)\n"
                 : "; its accumulation equals post over the certificate's tree on every input\n");
}

const char *kUsage =
    "usage: mxcert-replay TABLE.json [--device auto|cuda|hip|host] [--exhaustive] [--tensor-cores]\n"
    "                     [--json] [--max-pairs N] [--max-work N] [--only GUARD] [--samples N]\n"
    "                     [--tc-random N] [--tc-dump FILE] [--threads N] [--progress | --quiet]\n"
    "       mxcert-replay TABLE.json --tc-from-dump FILE [--json]\n"
    "       mxcert-replay --backend-info cuda|hip|host\n"
    "Replays a certified guard table (mxcert certificate) with binary32 device arithmetic and\n"
    "compares every result with the reference evaluator.\n"
    "  (default)        replay every witness at every code pair it claims to refute\n"
    "  --exhaustive     every input: the placements must differ exactly outside the agree set\n"
    "  --tensor-cores   run the inputs through the NVIDIA tensor cores (MMA) and compare with\n"
    "                   the post placement; characterizes the hardware's accumulation\n"
    "  --device         auto (default: cuda, else hip, else host), cuda, hip or host\n"
    "  --max-pairs N    replay at most N code pairs per witness (deterministic sample)\n"
    "  --max-work N     exhaustive: limit on tuples x scale points (host default 4e10)\n"
    "  --only GUARD     exhaustive: only these scale codes (guard syntax, e.g. 'e:100..130')\n"
    "  --samples N      exhaustive: random device-vs-model comparisons (default 2000)\n"
    "  --tc-random N    tensor cores: random inputs besides the witnesses (default 4096)\n"
    "  --tc-dump FILE   tensor cores: every input and the hardware's result, a JSON line each\n"
    "  --tc-from-dump F the tensor-core report from results recorded by --tc-dump (no device)\n"
    "  --threads N      host backend worker threads (default: all hardware threads)\n"
    "  --progress       exhaustive: a progress line on stderr even when it is not a terminal\n"
    "  --quiet          no progress line (shown by default when stderr is a terminal)\n"
    "  --backend-info K what this build holds for backend K (plugin, compiled targets); no\n"
    "                   device is opened; exit 2 when the build has no such backend\n"
    "Exit: 0 agrees everywhere, 1 a disagreement (printed in full), 2 bad usage or input.\n";

struct UsageFail {
  std::string msg;
};

[[noreturn]] void fail(const std::string &m) { throw UsageFail{m}; }

/// The one-line error of exit code 2.
void printError(std::string m) {
  for (char &ch : m)
    if (ch == '\n' || ch == '\r') ch = ' ';
  std::fprintf(stderr, "mxcert-replay: error: %s\n", m.c_str());
}

/// The progress line of --exhaustive on stderr: "mxcert-replay: exhaustive: DONE/TOTAL scale
/// points (P%), S s, about T s left". On a terminal it is rewritten in place at most four times
/// a second; otherwise (--progress) one line a second at most, and the last one always.
class ProgressLine {
public:
  explicit ProgressLine(bool tty) : tty_(tty), start_(std::chrono::steady_clock::now()) {}
  ~ProgressLine() {
    if (shown_ && tty_) std::fputs("\n", stderr);
  }
  /// Reports `done` of `total` scale points.
  void operator()(long done, long total) {
    const auto now = std::chrono::steady_clock::now();
    const bool last = done >= total;
    if (shown_ && !last && now - last_ < std::chrono::milliseconds(tty_ ? 250 : 1000)) return;
    last_ = now;
    shown_ = true;
    const double secs = std::chrono::duration<double>(now - start_).count();
    char eta[48] = "";
    if (done > 0 && !last) std::snprintf(eta, sizeof eta, ", about %.0f s left", secs * double(total - done) / double(done));
    std::fprintf(stderr, "%smxcert-replay: exhaustive: %ld/%ld scale points (%.0f%%), %.1f s%s%s", tty_ ? "\r" : "",
                 done, total, total > 0 ? 100.0 * double(done) / double(total) : 100.0, secs, eta,
                 tty_ ? "\x1b[K" : "\n");
    std::fflush(stderr);
  }

private:
  bool tty_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

long parseLong(const std::string &opt, const std::string &v, long lo, long hi) {
  char *end = nullptr;
  errno = 0;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || errno || x < lo || x > hi)
    fail(opt + " expects an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + v + "'");
  return x;
}

double parseWork(const std::string &opt, const std::string &v) {
  char *end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(x >= 1) || x > 1e19) fail(opt + " expects a number >= 1, got '" + v + "'");
  return x;
}

}  // namespace

int main(int argc, char **argv) {
  using namespace mxreplay;
  std::string file, device = "auto";
  bool exhaustive = false, json = false, tensorCores = false, progressFlag = false, quiet = false;
  long maxPairs = 0, samples = 2000, tcRandom = 4096;
  std::string tcDump, tcFromDump;
  bool deviceGiven = false;
  double maxWork = 0;
  std::optional<mxcert::Guard> only;
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string &a = args[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) fail(a + " needs a value");
        return args[++i];
      };
      if (a == "--help" || a == "-h") {
        std::cout << kUsage;
        return 0;
      } else if (a == "--version") {
        std::cout << "mxcert-replay " << MXCERT_VERSION << "\n";
        return 0;
      } else if (a == "--backend-info") {
        const std::string kind = value();
        if (i + 1 != args.size()) fail("--backend-info takes no further arguments");
        std::cout << Backend::describeBuild(kind) << "\n";
        return 0;
      } else if (a == "--device") {
        device = value();
        deviceGiven = true;
        if (device != "auto" && device != "cuda" && device != "hip" && device != "host")
          fail("unknown --device '" + device + "' (expected auto, cuda, hip or host)");
      } else if (a == "--exhaustive") {
        exhaustive = true;
      } else if (a == "--tensor-cores") {
        tensorCores = true;
      } else if (a == "--json") {
        json = true;
      } else if (a == "--progress") {
        progressFlag = true;
      } else if (a == "--quiet") {
        quiet = true;
      } else if (a == "--max-pairs") {
        maxPairs = parseLong(a, value(), 1, 1L << 30);
      } else if (a == "--max-work") {
        maxWork = parseWork(a, value());
      } else if (a == "--samples") {
        samples = parseLong(a, value(), 0, 10000000);
      } else if (a == "--tc-random") {
        tcRandom = parseLong(a, value(), 0, 10000000);
      } else if (a == "--tc-dump") {
        tcDump = value();
      } else if (a == "--tc-from-dump") {
        tcFromDump = value();
      } else if (a == "--threads") {
        setHostThreads(int(parseLong(a, value(), 1, 256)));
      } else if (a == "--only") {
        const std::string g = value();
        try {
          only = mxcert::Guard::parse(g);
        } catch (const std::exception &e) {
          fail("--only: " + std::string(e.what()));
        }
      } else if (!a.empty() && a[0] == '-') {
        fail("unknown option '" + a + "'");
      } else if (file.empty()) {
        file = a;
      } else {
        fail("more than one table given ('" + file + "', '" + a + "')");
      }
    }
    if (file.empty()) fail("no table given (usage: mxcert-replay TABLE.json [--device cuda|hip|host] ...)");
    if (exhaustive && tensorCores) fail("--exhaustive and --tensor-cores are separate modes");
    if (!tcDump.empty() && !tensorCores) fail("--tc-dump needs --tensor-cores");
    if (!tcFromDump.empty()) {
      if (exhaustive || !tcDump.empty() || deviceGiven)
        fail("--tc-from-dump analyses recorded results: no --exhaustive, --tc-dump or --device with it");
      tensorCores = true;
    }
    if (only && !exhaustive) fail("--only applies to --exhaustive");

    const mxcert::certs::Certificate cert = mxcert::certs::readCertificate(file);
    // The configuration is checked before any device is opened (unsupported: exit 2).
    makeProblem(cert.config, cert.lhs, cert.rhs, cert.relation);
    if (tensorCores && cert.config.nvfp4())
      fail("--tensor-cores: nvfp4 (e4m3 scales) is not supported (the tensor-core mode runs e4m3/e5m2 MMAs with e8m0 scales); replay it without --tensor-cores");
    if (tensorCores && device != "cuda" && device != "auto")
      fail("--tensor-cores needs --device cuda (tensor-core MMA is NVIDIA only)");

    std::unique_ptr<Backend> be;
    std::string autoNote;
    if (!tcFromDump.empty()) {
      // Recorded tensor-core results: nothing is run, no device is opened.
    } else if (device == "auto") {
      for (const char *kind : {"cuda", "hip"}) {
        try {
          be = Backend::open(kind);
          break;
        } catch (const UsageError &e) {
          autoNote += std::string(autoNote.empty() ? "" : "; ") + e.what();
        }
      }
      if (!be) {
        if (tensorCores) fail(autoNote.substr(0, autoNote.find(';')));
        be = Backend::open("host");
      }
    } else {
      be = Backend::open(device);
    }
    if (be && tensorCores && be->kind() != "cuda") fail("--tensor-cores needs --device cuda (tensor-core MMA is NVIDIA only)");

    // Versioned like mxcert's --json documents (docs/cli.md): a removed or renamed key
    // increments schema_version.
    const std::string backendKind = be ? be->kind() : "recorded", deviceName = be ? be->deviceName() : tcFromDump;
    nlohmann::json out{{"schema", "mxcert-replay"}, {"schema_version", 1}, {"file", file}, {"backend", backendKind}, {"device", deviceName},
                       {"config", describeConfig(cert)}};
    std::string text = "mxcert-replay: " + file + "\nconfig: " + describeConfig(cert) + "\ndevice: " +
                       backendKind + " — " + deviceName + "\n";
    if (!autoNote.empty() && backendKind == "host") text += "note: --device auto fell back to the host (" + autoNote + ")\n";
    bool ok = true;
    if (tensorCores) {
      TensorCoreOptions o;
      o.randomInputs = tcRandom;
      o.dumpPath = tcDump;
      const TensorCoreReport r = be ? replayTensorCores(cert, *be, o) : analyzeRecordedTensorCores(cert, tcFromDump);
      out["result"] = toJson(r, cert);
      text += toText(r, cert);
      ok = r.ok();
      text += tensorCoreVerdict(r);
    } else if (exhaustive) {
      ExhaustiveOptions o;
      o.maxWork = maxWork;
      o.only = only;
      o.modelSamples = samples;
      const bool tty = ::isatty(2) == 1;
      std::optional<ProgressLine> line;
      if (!quiet && (progressFlag || tty)) {
        line.emplace(tty);
        o.progress = [&line](long done, long total) { (*line)(done, total); };
      }
      const ExhaustiveReport r = replayExhaustive(cert, *be, o);
      out["result"] = toJson(r, cert);
      text += toText(r, cert);
      ok = r.ok();
    } else {
      const WitnessReport r = replayWitnesses(cert, *be, maxPairs);
      out["result"] = toJson(r, cert);
      text += toText(r, cert);
      ok = r.ok();
    }
    out["ok"] = ok;
    if (!tensorCores)
      text += ok ? "result: OK — the device agrees with the model everywhere\n"
               : "result: FAILED — the device disagrees with the model, or a claim of the certificate does not hold on it (first case above; exit 1)\n";
    if (json)
      std::cout << out.dump(2) << "\n";
    else
      std::cout << text;
    std::cout.flush();
    return ok ? 0 : 1;
  } catch (const UsageFail &e) {
    printError(e.msg);
  } catch (const std::bad_alloc &) {
    // A resource limit (exit 3, as for mxcert), not bad input.
    std::fprintf(stderr, "mxcert-replay: unknown: out of memory (a resource limit)\n");
    return 3;
  } catch (const std::exception &e) {  // SchemaError, UsageError, runtime errors
    printError(e.what());
  }
  return 2;
}
