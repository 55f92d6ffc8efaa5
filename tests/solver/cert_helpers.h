// tests/solver/cert_helpers.h — checks on certificates shared by the solver tests.
#pragma once

#include "certs/certificate.h"
#include "src/check/checker.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace mxtest {

/// The certificate `j` with `flag` ("no_inf", "inf_as_nan") erased from every proof's
/// invariant is refuted by the checker: the recorded queries no longer match the steps that
/// invariant makes.
inline void checkRefutedWithoutInvariantFlag(nlohmann::json j, const std::string &flag) {
  INFO("invariant flag " << flag << " dropped");
  for (auto &p : j["proofs"])
    if (p.contains("invariant")) p["invariant"].erase(flag);
  const mxcert::check::CheckReport bad =
      mxcert::check::checkCertificate(mxcert::certs::certificateFromJson(j), mxcert::check::CheckOptions{});
  CHECK_FALSE(bad.holds());
  REQUIRE(bad.firstFalse());
  CHECK(bad.firstFalse()->detail.find("does not match") != std::string::npos);
}

}  // namespace mxtest
