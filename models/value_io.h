// models/value_io.h — reading and writing element values as text.
#pragma once

#include "models/formats.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace mxcert {

/// A malformed or unrepresentable value; the message names the problem in one line.
struct ValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parses one element value of format f and returns its code. Accepts an exact decimal
/// ("6", "-0.5", "1.5e1"), "-0", "inf"/"-inf" and "nan" where the format has them, and a
/// hex code ("0x7"). Throws ValueError when the text is not a number, or the value is not
/// exactly representable in f.
unsigned parseElement(const ElementFormat &f, const std::string &text);

/// Parses a list of element values separated by spaces and/or commas.
std::vector<unsigned> parseElementList(const ElementFormat &f, const std::string &text);

/// The exact decimal value of a code ("-0", "0.5", "nan", "inf").
std::string elementToString(const ElementFormat &f, unsigned code);

/// Parses an integer in [lo, hi] (decimal or 0x hex); throws ValueError naming `what`.
long parseIntIn(const std::string &text, long lo, long hi, const std::string &what);

}  // namespace mxcert
