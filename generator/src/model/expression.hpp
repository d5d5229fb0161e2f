// Model expressions: text -> GiNaC expression.
//
// A first pass (parser_input.hpp) checks the text token by token and renames every user name
// to an internal symbol before GiNaC's parser sees it, so user names (I, E, D, Pi, gamma,
// beta, lambda, eps, ...) can never collide with GiNaC's built-in constants and functions,
// unknown names and functions are reported at their exact column, and nesting is bounded
// before the recursive parser runs (deep nesting would otherwise overflow its stack).
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <memory>
#include <string>

#include "base/diagnostics.hpp"
#include "model/tables.hpp"

namespace dualrate {

struct ExpressionScope {
  std::map<std::string, GiNaC::ex> allowed;        // usable names and what they stand for
  std::map<std::string, std::string> forbidden;    // existing names that may not be used here, and why
  std::map<std::string, std::shared_ptr<const Table>> tables;  // callable tables
  const GiNaC::ex* time = nullptr;                 // symbol for `t`, when time may be used
  // A call of a tunable table stays a call even at numbers (a parameter's value derived from
  // the table follows its calibration); otherwise a call at numbers is the table's value.
  bool hold_tunable_tables = false;
  std::string what;                                // what is being parsed, for messages
};

struct ExpressionText {
  std::string text;
  SourceLoc loc;        // where the text starts in the file
  bool exact = true;    // whether column offsets inside `text` map to columns in the file
  SourceLoc at(std::size_t offset) const {
    return exact ? loc.shifted(static_cast<int>(offset)) : loc;
  }
};

constexpr std::size_t kMaxExpressionLength = 20000;
constexpr int kMaxNesting = 64;

// Throws ModelError on any problem.
GiNaC::ex parse_expression(const ExpressionText& source, const ExpressionScope& scope);

}  // namespace dualrate
