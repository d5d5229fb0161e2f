// The pass over a model expression's text before GiNaC's parser reads it (expression.hpp's
// parse_expression, the only user): a lexer, a syntax check that reports each error at its
// exact column, and the renaming of every user name and number to an internal symbol.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <vector>

#include "model/expression_source.hpp"

namespace dualrate {

// The text GiNaC's parser reads for an expression, each user name and number replaced by an
// internal symbol, so that user names never mean GiNaC's constants and functions.
// numbers: GiNaC's parser sees each number of the text as a symbol, as it would evaluate exact
// powers of numbers while parsing (9^(9^9) took 15 s and 800 MB); parse_expression puts them
// back with a bound on such powers.
struct ParserInput {
  // A name of `text` and what it stands for.
  struct Alias {
    std::string internal;  // text handed to GiNaC
    std::string user;      // text as written
  };
  std::string text;
  std::vector<Alias> aliases;
  std::map<std::string, GiNaC::ex> symbols;                        // internal name -> symbolic value
  std::map<GiNaC::ex, GiNaC::numeric, GiNaC::ex_is_less> numbers;  // placeholder symbol -> number
};

// `source` checked token by token in the order written (tokens, syntax, the names and
// functions of `scope`) and translated; throws ModelError at the first problem.
ParserInput parser_input(const ExpressionText& source, const ExpressionScope& scope);

}  // namespace dualrate
