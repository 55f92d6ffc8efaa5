// tests/certs/fuzz_reader.cpp — fuzzing the certificate reader, the guard-table reader (what
// the MLIR pass and GPU replay read: a certificate or a compact table) and the checker's
// solver-free claims (coverage, witness replay, proof coverage, bound, query regeneration).
//
// The property: on ANY input each reader either returns its result or throws SchemaError,
// and the checker (re-proofs off) returns a report; nothing else is thrown, nothing crashes
// (run it in the sanitizer build to catch memory errors too).
//
// Two drivers share LLVMFuzzerTestOneInput:
//  * built with -fsanitize=fuzzer (clang, MXCERT_LIBFUZZER): libFuzzer's own main;
//  * otherwise a bounded random mutator (the ctest): `fuzz_reader [--iterations N]
//    [--seed S] SEED.json...` applies N random mutations to the seeds (byte flips, inserts,
//    deletions, truncation, duplicated chunks, extreme numbers in place of numbers, deep
//    nesting) and runs the target on each. Deterministic for a given seed.
#include "certs/certificate.h"
#include "src/check/checker.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// Counts of outcomes of the bounded driver.
struct Counts {
  long inputs = 0, schemaErrors = 0, accepted = 0, held = 0, guardTables = 0;
} gCounts;

/// The guard-table reader's property on one input; false (after printing) on a violation.
bool runGuardTable(const std::string &text) {
  using namespace mxcert;
  try {
    certs::GuardTable t = certs::guardTableFromJson(certs::parseStrict(text, "input"));
    ++gCounts.guardTables;
    (void)t.agree.toSet();  // the guard a consumer evaluates must be usable
  } catch (const certs::SchemaError &) {
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_reader: the guard-table reader threw something other than SchemaError: %s\n", e.what());
    return false;
  }
  return true;
}

/// The property for one input; returns false (after printing) on a violation.
bool runOne(const std::string &text) {
  using namespace mxcert;
  ++gCounts.inputs;
  if (!runGuardTable(text)) return false;
  certs::Certificate c;
  try {
    c = certs::certificateFromJson(certs::parseStrict(text, "input"));
  } catch (const certs::SchemaError &) {
    ++gCounts.schemaErrors;
    return true;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_reader: the reader threw something other than SchemaError: %s\n", e.what());
    return false;
  }
  ++gCounts.accepted;
  try {
    check::CheckOptions opt;
    opt.solver = check::SolverChoice::None;
    check::CheckReport rep = check::checkCertificate(c, opt);
    if (!rep.firstFalse()) ++gCounts.held;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_reader: the checker threw on an accepted certificate: %s\n", e.what());
    return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!runOne(std::string(reinterpret_cast<const char *>(data), size))) std::abort();
  return 0;
}

#ifndef MXCERT_LIBFUZZER
namespace {

/// One random mutation of `s`.
std::string mutate(std::string s, std::mt19937_64 &rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
  static const char *kNumbers[] = {"0", "-1", "1", "254", "255", "256", "-254", "-255", "64", "65", "1e400",
                                   "-1e400", "99999999999999999999", "-99999999999999999999", "1.5", "2147483648",
                                   "9223372036854775808", "18446744073709551616", "true", "null", "\"x\"", "[]", "{}"};
  switch (rng() % 8) {
  case 0:  // flip a byte
    if (!s.empty()) s[pick(s.size())] ^= char(1u << (rng() % 8));
    break;
  case 1:  // insert a random byte
    s.insert(s.begin() + long(pick(s.size() + 1)), char(rng() % 256));
    break;
  case 2:  // delete a chunk
    if (!s.empty()) {
      size_t at = pick(s.size());
      s.erase(at, 1 + pick(16));
    }
    break;
  case 3:  // truncate
    s.resize(pick(s.size() + 1));
    break;
  case 4: {  // duplicate a chunk elsewhere
    if (s.empty()) break;
    size_t at = pick(s.size()), len = 1 + pick(64);
    std::string chunk = s.substr(at, len);
    s.insert(pick(s.size() + 1), chunk);
    break;
  }
  case 5:
  case 6: {  // replace a number by an extreme value (structure-aware: keeps the JSON valid)
    std::vector<size_t> starts;
    for (size_t i = 0; i < s.size(); ++i)
      if ((std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '-') &&
          (i == 0 || !(std::isdigit(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '.' || s[i - 1] == '-')))
        starts.push_back(i);
    if (starts.empty()) break;
    size_t at = starts[pick(starts.size())], end = at + 1;
    while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.' || s[end] == 'e'))
      ++end;
    std::string rep = rng() % 2 ? kNumbers[pick(sizeof kNumbers / sizeof *kNumbers)]
                                : std::to_string(long(rng() % 600) - 300);
    s.replace(at, end - at, rep);
    break;
  }
  case 7: {  // deep nesting somewhere
    size_t at = pick(s.size() + 1), depth = 1 + pick(200);
    s.insert(at, std::string(depth, '[') + std::string(depth, ']'));
    break;
  }
  }
  return s;
}

std::string readFile(const char *path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char **argv) {
  long iterations = 2000;
  uint64_t seed = 1;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
      iterations = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else
      seeds.push_back(readFile(argv[i]));
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "usage: fuzz_reader [--iterations N] [--seed S] SEED.json...\n");
    return 2;
  }
  std::mt19937_64 rng(seed);
  for (const std::string &s : seeds)
    if (!runOne(s)) return 1;
  for (long it = 0; it < iterations; ++it) {
    std::string s = seeds[size_t(rng() % seeds.size())];
    const int rounds = 1 + int(rng() % 4);
    for (int r = 0; r < rounds; ++r) s = mutate(s, rng);
    if (!runOne(s)) {
      std::fprintf(stderr, "fuzz_reader: failing input (iteration %ld, seed %llu) follows\n%s\n", it,
                   (unsigned long long)seed, s.substr(0, 4000).c_str());
      return 1;
    }
  }
  std::printf("fuzz_reader: %ld inputs: %ld schema errors, %ld accepted (%ld with every solver-free claim holding); "
              "%ld read as guard tables\n",
              gCounts.inputs, gCounts.schemaErrors, gCounts.accepted, gCounts.held, gCounts.guardTables);
  return 0;
}
#endif
