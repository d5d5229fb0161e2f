// A model expression as the parser takes it: its text with where it stands in the file, the
// names it may use, and the limits on its size. What expression.hpp's parse_expression and
// its first pass (parser_input.hpp) share.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <memory>
#include <string>

#include "base/diagnostics.hpp"
#include "model/tables.hpp"

namespace dualrate {

struct ExpressionScope {
  std::map<std::string, GiNaC::ex> allowed;                    // usable names and what they stand for
  std::map<std::string, std::string> forbidden;                // existing names that may not be used here, and why
  std::map<std::string, std::shared_ptr<const Table>> tables;  // callable tables
  const GiNaC::ex* time = nullptr;                             // symbol for `t`, when time may be used
  // A call of a tunable table stays a call even at numbers (a parameter's value derived from
  // the table follows its calibration); otherwise a call at numbers is the table's value.
  bool hold_tunable_tables = false;
  std::string what;  // what is being parsed, for messages
};

struct ExpressionText {
  std::string text;
  SourceLoc loc;      // where the text starts in the file
  bool exact = true;  // whether column offsets inside `text` map to columns in the file
  SourceLoc at(std::size_t offset) const { return exact ? loc.shifted(static_cast<int>(offset)) : loc; }
};

constexpr std::size_t kMaxExpressionLength = 20000;
constexpr int kMaxNesting = 64;

}  // namespace dualrate
