// certs/config_json.h — configurations and guards as JSON (shared by the CLI, certificates,
// the MLIR pass and GPU replay; depends on models only).
#pragma once

#include "models/guard.h"
#include "models/nvfp4.h"
#include "models/placement.h"

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>
#include <string>

namespace mxcert::certs {

/// A JSON document that does not follow the expected schema; the message names the field.
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// {"a": "e2m1", "b": "e2m1", "acc": "f32", "round": "rne", "subnormals": "keep", "k": 2,
///  "tree": "(0 1)"}, plus "scale": "e4m3" for NVFP4 (absent means e8m0)
nlohmann::json configToJson(const ModelConfig &cfg);
/// Inverse of configToJson; throws SchemaError naming the offending field.
ModelConfig configFromJson(const nlohmann::json &j);

/// Throws SchemaError for an NVFP4 (e4m3-scale) configuration: the guard-table consumers
/// (export, the MLIR pass, plots, the Python module) index e8m0 codes and do not read them yet.
void rejectNvfp4Table(const ModelConfig &cfg);

/// {"xa": [lo, hi], "xb": [lo, hi], "e": [lo, hi]}
nlohmann::json regionToJson(const Region &r);
/// An NVFP4 proof region: {"ma": M, "mb": M, "ja": [lo, hi], "jb": [lo, hi], "j": [lo, hi]}.
nlohmann::json nvRegionToJson(const Nvfp4Region &r);
/// Inverse of nvRegionToJson (all keys required; ma, mb classes: odd 1..15, 0 for the zero
/// scale, -1 for the NaN scale; binades in -64..64); throws SchemaError.
Nvfp4Region nvRegionFromJson(const nlohmann::json &j);
/// Inverse of regionToJson (all three keys required; bounds checked); throws SchemaError.
Region regionFromJson(const nlohmann::json &j);
/// A list of regions.
nlohmann::json guardToJson(const Guard &g);
Guard guardFromJson(const nlohmann::json &j);

/// Reads a required integer field in [lo, hi]; throws SchemaError.
long getInt(const nlohmann::json &j, const std::string &key, long lo, long hi);
/// Reads a required string field; throws SchemaError.
std::string getString(const nlohmann::json &j, const std::string &key);

/// Rejects an object with keys outside `allowed`, and a non-object (a typo or an injected
/// field is an error, not noise); the SchemaError starts with `where`.
void onlyKeys(const nlohmann::json &j, const std::set<std::string> &allowed, const std::string &where);
/// The required field `key` of the object `j`; SchemaError "WHERE: missing field 'KEY'".
const nlohmann::json &field(const nlohmann::json &j, const std::string &key, const std::string &where);
/// Reads a required placement field (pre, post, dequant, post2); throws SchemaError.
Placement placementField(const nlohmann::json &j, const std::string &key);
/// Reads the required field "relation" (bitwise or value); throws SchemaError.
Relation relationField(const nlohmann::json &j);
/// Reads the required field "config" of `j` (configFromJson, with no keys but a, b, acc,
/// round, subnormals, k, tree, scale); `where` names `j` in messages. Throws SchemaError.
ModelConfig configField(const nlohmann::json &j, const std::string &where);
/// Reads the required field "engine": solver or exhaustive. Throws SchemaError.
std::string engineField(const nlohmann::json &j);
/// Reads the required field "agree" (a guard), which the required field "agree_pairs" must
/// count (its number of code pairs). Throws SchemaError.
Guard agreeField(const nlohmann::json &j, const std::string &where);

}  // namespace mxcert::certs
