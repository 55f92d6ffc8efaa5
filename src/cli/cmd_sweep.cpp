// src/cli/cmd_sweep.cpp — `mxcert sweep MANIFEST -o DIR`: every table of a manifest certified
// as one job (child `mxcert table` processes, --jobs at a time), resumable, shardable, with an
// index of the results (docs/sweeps.md).
#include "certs/certificate.h"
#include "certs/config_json.h"
#include "certs/sweep_index.h"
#include "smt/budget.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/sweep_manifest.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>
#include <fmt/core.h>

namespace mxcert::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The outcome of one entry for the index.
struct Outcome {
  std::string status;  ///< certified | unknown | failed
  json agree;          ///< the agree guard (certified), else null
  json agreePairs;     ///< its number of code pairs (certified), else null
  int exit = 0;        ///< the table command's exit code (failed)
};

/// The certified outcome of `path` when it holds a certificate of exactly entry `e`'s
/// configuration, placements, relation and engine (it parses and validates against the
/// certificate schema); nullopt otherwise.
std::optional<Outcome> certifiedOutcome(const std::string &path, const SweepEntry &e) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  try {
    const certs::Certificate c = certs::readCertificate(path);
    if (certs::configToJson(c.config) != certs::configToJson(e.config) || c.lhs != e.lhs || c.rhs != e.rhs ||
        c.relation != e.relation || c.engine != e.engine)
      return std::nullopt;
    return Outcome{"certified", certs::guardToJson(c.agree), json(c.agree.toSet().count()), 0};
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

/// Starts `mxcert table` for `e` writing `dir/NAME.json` (stdout discarded, stderr to
/// `dir/NAME.log`) with `--jobs threads`; returns the child's pid.
pid_t startTable(const SweepEntry &e, const std::string &dir, int threads) {
  std::vector<std::string> words = {"mxcert", "table"};
  for (const std::string &w : tableArgv(e)) words.push_back(w);
  words.insert(words.end(), {"--quiet", "--jobs", std::to_string(threads), "-o", dir + "/" + e.name + ".json"});
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string log = dir + "/" + e.name + ".log";
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out = open("/dev/null", O_WRONLY);
    const int err = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

int cmdSweep(int argc, char **argv) {
  Args args(argc, argv, 2, {"progress", "quiet"}, {"o", "jobs", "shard"});
  if (args.positional().size() != 1)
    throw UsageError(args.positional().empty() ? "missing MANIFEST (mxcert sweep MANIFEST -o DIR)"
                                               : "unexpected argument '" + oneLine(args.positional()[1]) + "'");
  if (!args.get("o")) throw UsageError("missing -o DIR, the output directory (mxcert sweep MANIFEST -o DIR)");
  const std::string dir = *args.get("o");
  const int jobs = parseJobsOpt(args, 1, "processes");
  // Each table's threads (mxcert table --jobs): the processors shared by the --jobs tables.
  const int threads = std::max(1, defaultJobs() / jobs);
  const auto [shardI, shardN] = args.get("shard") ? parseShard(*args.get("shard")) : std::pair<int, int>{0, 1};
  const Manifest m = readManifest(args.positional()[0]);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) throw UsageError("-o: cannot create the directory '" + oneLine(dir) + "'");

  std::vector<const SweepEntry *> mine;
  for (const SweepEntry &e : m.entries)
    if (e.index % shardN == shardI) mine.push_back(&e);
  std::map<int, Outcome> outcomes;
  std::vector<const SweepEntry *> pending;
  for (const SweepEntry *e : mine) {
    if (auto o = certifiedOutcome(dir + "/" + e->name + ".json", *e)) outcomes[e->index] = *o;
    else pending.push_back(e);
  }
  const size_t skipped = outcomes.size();

  std::map<pid_t, const SweepEntry *> running;
  size_t next = 0;
  {
    Progress progress(args, "sweep", "tables");
    auto show = [&] { if (progress.enabled()) progress.update(long(outcomes.size()), long(mine.size())); };
    show();
    while (next < pending.size() || !running.empty()) {
      if (smt::Budget::interrupted()) {
        // Each table writes its file atomically when complete: a killed one leaves nothing.
        for (const auto &[pid, e] : running) kill(pid, SIGTERM);
        for (const auto &[pid, e] : running) waitpid(pid, nullptr, 0);
        return kUnknown;  // main reports the interrupt (128 + the signal)
      }
      while (next < pending.size() && running.size() < size_t(jobs)) {
        const SweepEntry *e = pending[next++];
        running[startTable(*e, dir, threads)] = e;
      }
      bool reaped = false;
      for (auto it = running.begin(); it != running.end();) {
        int st = 0;
        if (waitpid(it->first, &st, WNOHANG) != it->first) {
          ++it;
          continue;
        }
        const SweepEntry &e = *it->second;
        const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        const std::string file = dir + "/" + e.name + ".json";
        std::optional<Outcome> o = rc == kOk ? certifiedOutcome(file, e) : std::nullopt;
        if (o) {
          fs::remove(dir + "/" + e.name + ".log", ec);
        } else if (smt::Budget::interrupted()) {
          it = running.erase(it);  // stopped by the interrupt (Ctrl-C reaches the children too): no outcome
          continue;
        } else {
          o = Outcome{rc == kUnknown ? "unknown" : "failed", json(), json(), rc};
          fmt::print(stderr, "mxcert: sweep: entry {} ({}): {} (exit {}; see {}.log)\n", e.index, e.name, o->status,
                     rc, commentSafe(dir + "/" + e.name));
        }
        outcomes[e.index] = *o;
        it = running.erase(it);
        reaped = true;
      }
      if (reaped) show();
      else std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  json index = {{"index", certs::kIndexName},
                {"version", certs::kIndexVersion},
                {"manifest", m.name},
                {"manifest_sha256", m.sha256},
                {"entries_total", m.entries.size()},
                {"shard", shardN == 1 ? json() : json(std::to_string(shardI) + "/" + std::to_string(shardN))},
                {"entries", json::array()}};
  size_t certified = 0, unknown = 0, failed = 0;
  for (const SweepEntry *e : mine) {
    const Outcome &o = outcomes.at(e->index);
    json r = indexEntryJson(*e);
    r["status"] = o.status;
    r["agree"] = o.agree;
    r["agree_pairs"] = o.agreePairs;
    if (o.status == "certified") ++certified;
    else (o.status == "unknown" ? unknown : failed) += 1;
    index["entries"].push_back(std::move(r));
  }
  const std::string indexFile =
      dir + "/" + (shardN == 1 ? std::string("index.json") : fmt::format("index-shard-{}-of-{}.json", shardI, shardN));
  writeFileAtomic(indexFile, index.dump(1) + "\n");
  if (!args.flag("quiet"))
    fmt::print(stderr, "mxcert: sweep: {} table(s): {} certified ({} already done, skipped), {} unknown, {} failed; index {}\n",
               mine.size(), certified, skipped, unknown, failed, commentSafe(indexFile));
  return certified == mine.size() ? kOk : kUnknown;
}

}  // namespace mxcert::cli
