// certs/sha256.h — SHA-256 (FIPS 180-4), for fingerprints of solver queries in certificates.
#pragma once

#include <string>

namespace mxcert::certs {

/// The SHA-256 digest of `data` as 64 lowercase hex digits.
std::string sha256Hex(const std::string &data);

}  // namespace mxcert::certs
