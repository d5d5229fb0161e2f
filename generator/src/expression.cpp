#include "expression.hpp"

#include <cctype>
#include <cmath>
#include <regex>
#include <vector>

#include "functions.hpp"

namespace dualrate {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

struct Token {
  std::string internal;  // text handed to GiNaC
  std::string user;      // text as written
  std::size_t offset;    // in the user's text
};

struct Renamed {
  std::string text;
  std::vector<Token> tokens;
  std::map<std::string, GiNaC::ex> symbols;  // internal name -> symbolic value
};

std::vector<std::string> names_of(const ExpressionScope& scope) {
  std::vector<std::string> names;
  for (const auto& [name, value] : scope.allowed) names.push_back(name);
  if (scope.time) names.emplace_back("t");
  names.emplace_back("pi");
  return names;
}

std::size_t scan_number(const std::string& s, std::size_t i, const ExpressionText& src) {
  const std::size_t start = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && is_digit(s[j])) {
      while (j < s.size() && is_digit(s[j])) ++j;
      i = j;
    } else {
      throw ModelError(src.at(start), "malformed number '" + s.substr(start, j - start) + "'",
                       "an exponent needs digits, as in 1.5e-3");
    }
  }
  if (i < s.size() && is_name_start(s[i])) {
    std::size_t j = i;
    while (j < s.size() && is_name_char(s[j])) ++j;
    throw ModelError(src.at(start), "malformed expression: '" + s.substr(start, j - start) + "'",
                     "write a product with '*', as in 2*x");
  }
  return i;
}

Renamed rename(const ExpressionText& src, const ExpressionScope& scope) {
  const std::string& s = src.text;
  if (s.size() > kMaxExpressionLength)
    throw ModelError(src.at(0), scope.what + " is too long (" + std::to_string(s.size()) +
                                    " characters, at most " + std::to_string(kMaxExpressionLength) + ")",
                     "split it into intermediate variables");
  Renamed out;
  std::vector<std::size_t> open;  // offsets of unclosed '('
  int operator_run = 0;           // consecutive operators (unary chains nest in the parser)
  bool any_operand = false;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      out.text += ' ';
      ++i;
      continue;
    }
    if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      const std::size_t end = scan_number(s, i, src);
      out.text += s.substr(i, end - i);
      i = end;
      operator_run = 0;
      any_operand = true;
      continue;
    }
    if (is_name_start(c)) {
      std::size_t end = i;
      while (end < s.size() && is_name_char(s[end])) ++end;
      const std::string name = s.substr(i, end - i);
      std::size_t next = end;
      while (next < s.size() && std::isspace(static_cast<unsigned char>(s[next]))) ++next;
      if (next < s.size() && s[next] == '(') {
        if (!find_model_function(name)) {
          std::string hint = did_you_mean(name, model_function_names());
          if (hint.empty()) hint = "known functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log sqrt abs sign min max pow step";
          throw ModelError(src.at(i), "unknown function '" + name + "'", hint);
        }
        out.text += name;
        out.tokens.push_back({name, name, i});
      } else {
        std::string internal;
        GiNaC::ex value;
        if (auto it = scope.allowed.find(name); it != scope.allowed.end()) {
          value = it->second;
        } else if (name == "t" && scope.time) {
          value = *scope.time;
        } else if (name == "pi") {
          value = GiNaC::Pi;
        } else if (auto f = scope.forbidden.find(name); f != scope.forbidden.end()) {
          throw ModelError(src.at(i), "'" + name + "' cannot be used in " + scope.what, f->second);
        } else if (name == "t") {
          throw ModelError(src.at(i), "time 't' cannot be used in " + scope.what,
                           "only variables, equations, outputs and input signals depend on time");
        } else if (find_model_function(name)) {
          throw ModelError(src.at(i), "function '" + name + "' used without arguments",
                           "call it, as in " + name + "(x)");
        } else {
          throw ModelError(src.at(i), "undefined name '" + name + "' in " + scope.what,
                           did_you_mean(name, names_of(scope), "define it under parameters, inputs, states or variables"));
        }
        internal = "v" + std::to_string(out.symbols.size());
        out.symbols[internal] = value;
        out.text += ' ' + internal + ' ';
        out.tokens.push_back({internal, name, i});
      }
      i = end;
      operator_run = 0;
      any_operand = true;
      continue;
    }
    switch (c) {
      case '(':
        open.push_back(i);
        if (static_cast<int>(open.size()) > kMaxNesting)
          throw ModelError(src.at(i), scope.what + " nests deeper than " + std::to_string(kMaxNesting) + " levels",
                           "split it into intermediate variables");
        operator_run = 0;
        break;
      case ')':
        if (open.empty()) throw ModelError(src.at(i), "unmatched ')' in " + scope.what);
        open.pop_back();
        operator_run = 0;
        break;
      case '+': case '-': case '*': case '/': case '^':
        if (++operator_run > 8)
          throw ModelError(src.at(i), "malformed expression: too many operators in a row in " + scope.what);
        break;
      case ',':
        operator_run = 0;
        break;
      default:
        throw ModelError(src.at(i), std::string("unexpected character '") + c + "' in " + scope.what,
                         "expressions use numbers, names, + - * / ^, parentheses and function calls");
    }
    out.text += c;
    ++i;
  }
  if (!open.empty()) throw ModelError(src.at(open.back()), "unclosed '(' in " + scope.what);
  if (!any_operand) throw ModelError(src.at(0), scope.what + " is empty", "write a number or an expression");
  return out;
}

// GiNaC's message without its prefix and source trailer, internal names put back.
std::string user_message(std::string msg, const Renamed& r) {
  static const std::regex prefix("^GiNaC: parse error at line [0-9]+, column [0-9]+: ");
  msg = std::regex_replace(msg, prefix, "");
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.erase(nl);
  for (const auto& tok : r.tokens) {
    const std::string quoted = "\"" + tok.internal + "\"";
    if (auto p = msg.find(quoted); p != std::string::npos) msg.replace(p, quoted.size(), "'" + tok.user + "'");
  }
  return msg;
}

void check_numbers_finite(const GiNaC::ex& e, const ExpressionText& src, const ExpressionScope& scope) {
  for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (GiNaC::is_exactly_a<GiNaC::numeric>(*it)) {
      const auto& n = GiNaC::ex_to<GiNaC::numeric>(*it);
      if (!n.is_real())
        throw ModelError(src.at(0), scope.what + " evaluates to a complex number");
      if (!std::isfinite(n.to_double()))
        throw ModelError(src.at(0), "number out of range in " + scope.what,
                         "constants must be finite in double precision");
    }
  }
}

}  // namespace

GiNaC::ex parse_expression(const ExpressionText& src, const ExpressionScope& scope) {
  const Renamed renamed = rename(src, scope);
  GiNaC::symtab table;
  for (const auto& [internal, value] : renamed.symbols) table[internal] = value;
  GiNaC::parser parser(table, true, model_function_table());
  GiNaC::ex result;
  try {
    result = parser(renamed.text);
  } catch (const GiNaC::parse_error& e) {
    std::string msg = user_message(e.what(), renamed);
    std::size_t offset = src.text.size();
    static const std::regex got("got: '([^']*)'");
    std::smatch m;
    if (std::regex_search(msg, m, got)) {
      for (const auto& tok : renamed.tokens)
        if (tok.user == m[1].str()) offset = tok.offset;
    }
    static const std::regex arity("no function [\"']([a-z0-9]+)[\"'] with ([0-9]+) arguments?");
    if (std::regex_search(msg, m, arity)) {
      const FunctionInfo* f = find_model_function(m[1].str());
      for (const auto& tok : renamed.tokens)
        if (tok.user == m[1].str()) offset = tok.offset;
      msg = "function '" + m[1].str() + "' takes " + std::to_string(f ? f->arity : 0) + " argument" +
            ((f && f->arity == 1) ? "" : "s") + ", not " + m[2].str();
    }
    throw ModelError(src.at(std::min(offset, src.text.size())), "malformed expression in " + scope.what + ": " + msg);
  } catch (const std::exception& e) {
    throw ModelError(src.at(0), "cannot evaluate " + scope.what + ": " + e.what());
  }
  check_numbers_finite(result, src, scope);
  return result;
}

}  // namespace dualrate
