// tests/install/consumer/main.cpp — the C++ API of an installed mxcert: read a certificate,
// look up its guard, evaluate the placements at one input.
//   consumer TABLE.json XA XB   ->  "agree" or "outside", the guard, and the table's config
#include "certs/certificate.h"
#include "models/eval.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: consumer TABLE.json XA XB\n");
    return 2;
  }
  try {
    const mxcert::certs::Certificate c = mxcert::certs::readCertificate(argv[1]);
    const mxcert::certs::GuardTable g = mxcert::certs::readGuardTable(argv[1]);
    const int xa = std::atoi(argv[2]), xb = std::atoi(argv[3]);
    std::printf("%s %s %s k=%d guard=%s\n", g.agree.contains(xa, xb) ? "agree" : "outside",
                c.config.a.name.c_str(), c.config.b.name.c_str(), c.config.k(), g.agree.str().c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
  return 0;
}
