#include "model/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <vector>

#include "model/functions.hpp"

namespace dualrate {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

struct Token {
  std::string internal;  // text handed to GiNaC
  std::string user;      // text as written
};

// numbers: GiNaC's parser sees each number of the text as a symbol, as it would evaluate exact
// powers of numbers while parsing (9^(9^9) took 15 s and 800 MB); restore() puts them back
// with a bound on such powers.
struct Renamed {
  std::string text;
  std::vector<Token> tokens;
  std::map<std::string, GiNaC::ex> symbols;  // internal name -> symbolic value
  std::map<GiNaC::ex, GiNaC::numeric, GiNaC::ex_is_less> numbers;  // placeholder symbol -> number
};

// One level of nesting: a parenthesis, a function call, or the parentheses put around a sign
// that follows a binary operator (GiNaC would apply that sign to the rest of the expression,
// reading 2*-3+4 as 2*(-3+4)).
struct Level {
  enum Kind { kTop, kParen, kCall, kSign } kind = kTop;
  std::size_t open = 0;                    // offset of the '(' (of the sign for kSign)
  std::string function{};                  // for a call: the function's or table's name
  int arity = 0;                           // and its number of arguments
  std::size_t name = 0;                    // offset of the function name
  int commas = 0;
  bool power = false;                      // a '^' applies at this level (GiNaC rejects a^b^c)
};

std::vector<std::string> names_of(const ExpressionScope& scope) {
  std::vector<std::string> names;
  for (const auto& [name, value] : scope.allowed) names.push_back(name);
  if (scope.time) names.emplace_back("t");
  names.emplace_back("pi");
  return names;
}

std::string join_names(const std::map<std::string, std::shared_ptr<const Table>>& tables) {
  std::string s;
  for (const auto& [name, t] : tables) s += (s.empty() ? "" : " ") + name;
  return s;
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
      const std::size_t digits = j;
      while (j < s.size() && is_digit(s[j])) ++j;
      // GiNaC computes 10^exponent exactly: 1e22222222222222 would take all memory.
      const std::size_t first = std::min(s.find_first_not_of('0', digits), j);
      if (j - first > 4)
        throw ModelError(src.at(start), "number out of range: '" + s.substr(start, j - start) + "'",
                         "a decimal exponent has at most 4 digits; doubles reach 1.8e308 and 4.9e-324");
      i = j;
    } else {
      throw ModelError(src.at(start), "malformed number '" + s.substr(start, j - start) + "'",
                       "an exponent needs digits, as in 1.5e-3");
    }
  }
  if (i < s.size() && s[i] == '.') {
    std::size_t j = i;
    while (j < s.size() && (is_name_char(s[j]) || s[j] == '.')) ++j;
    throw ModelError(src.at(start), "malformed number '" + s.substr(start, j - start) + "'",
                     "a number has at most one decimal point, as in 1.5e-3");
  }
  if (i < s.size() && is_name_start(s[i])) {
    std::size_t j = i;
    while (j < s.size() && is_name_char(s[j])) ++j;
    throw ModelError(src.at(start), "malformed expression: '" + s.substr(start, j - start) + "'",
                     "write a product with '*', as in 2*x");
  }
  return i;
}

// The character at s[i] for a message: character 'c' when printable ASCII, else its code point
// (a no-break space looks like a space), or the byte when it does not start valid UTF-8.
std::string describe_character(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c >= 0x20 && c < 0x7F) return std::string("character '") + s[i] + "'";
  const std::size_t more = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
  bool utf8 = c < 0x80 || more > 0;
  unsigned long code = more ? c & (0x7F >> (more + 1)) : c;
  for (std::size_t k = 1; utf8 && k <= more; ++k) {
    utf8 = i + k < s.size() && (byte(i + k) & 0xC0) == 0x80;
    if (utf8) code = code << 6 | (byte(i + k) & 0x3F);
  }
  char text[32];
  if (utf8) std::snprintf(text, sizeof text, "character U+%04lX", code);
  else std::snprintf(text, sizeof text, "byte 0x%02X", static_cast<unsigned>(c));
  return text;
}

// Checks the syntax (GiNaC's parser reports no positions and crashes on f()), renames user
// names and bounds the nesting.
Renamed rename(const ExpressionText& src, const ExpressionScope& scope) {
  const std::string& s = src.text;
  if (s.size() > kMaxExpressionLength)
    throw ModelError(src.at(0), scope.what + " is too long (" + std::to_string(s.size()) +
                                    " characters, at most " + std::to_string(kMaxExpressionLength) + ")",
                     "split it into intermediate variables");
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ModelError(src.at(0), scope.what + " is empty", "write a number or an expression");
  Renamed out;
  std::vector<Level> levels(1);
  bool operand_next = true;    // an operand or a sign must come next
  bool after_binary = false;   // the last token is a binary operator
  bool after_open = false;     // the last token is '('
  int operator_run = 0;        // consecutive operators (unary chains nest in the parser)
  std::size_t last_operator = 0;
  const auto close_signs = [&] {
    while (levels.back().kind == Level::kSign) {
      out.text += ')';
      levels.pop_back();
    }
  };
  const auto push = [&](const Level& level, std::size_t at) {
    levels.push_back(level);
    if (static_cast<int>(levels.size()) - 1 > kMaxNesting)
      throw ModelError(src.at(at), scope.what + " nests deeper than " + std::to_string(kMaxNesting) + " levels",
                       "split it into intermediate variables");
  };
  const auto operand = [&](std::size_t at, const std::string& what) {
    if (!operand_next)
      throw ModelError(src.at(at), "malformed expression: missing operator before " + what + " in " + scope.what,
                       "write a product with '*', as in 2*x");
    operand_next = after_binary = after_open = false;
    operator_run = 0;
  };
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
      operand(i, "'" + s.substr(i, end - i) + "'");
      const std::string internal = "n" + std::to_string(out.numbers.size());
      const GiNaC::symbol placeholder(internal);
      out.numbers.emplace(placeholder, GiNaC::numeric(s.substr(i, end - i).c_str()));
      out.symbols[internal] = placeholder;
      out.text += ' ' + internal + ' ';
      out.tokens.push_back({internal, s.substr(i, end - i)});
      i = end;
      continue;
    }
    if (is_name_start(c)) {
      std::size_t end = i;
      while (end < s.size() && is_name_char(s[end])) ++end;
      const std::string name = s.substr(i, end - i);
      std::size_t next = end;
      while (next < s.size() && std::isspace(static_cast<unsigned char>(s[next]))) ++next;
      if (next < s.size() && s[next] == '(') {
        const FunctionInfo* f = find_model_function(name);
        const auto table = scope.tables.find(name);
        if (!f && table == scope.tables.end() &&
            (scope.allowed.count(name) || (name == "t" && scope.time) || name == "pi"))
          throw ModelError(src.at(i), "'" + name + "' is not a function",
                           "write a product with '*', as in " + name + "*(...)");
        if (!f && table == scope.tables.end()) {
          std::vector<std::string> callable = model_function_names();
          for (const auto& [table_name, t] : scope.tables) callable.push_back(table_name);
          std::string hint = did_you_mean(name, callable);
          if (hint.empty()) {
            hint = "known functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log sqrt abs sign min max pow step";
            if (!scope.tables.empty()) hint += "; tables: " + join_names(scope.tables);
          }
          throw ModelError(src.at(i), (scope.tables.empty() ? "unknown function '" : "unknown function or table '") + name + "'",
                           hint);
        }
        operand(i, "'" + name + "'");
        if (f) {
          push({Level::kCall, next, f->name, f->arity, i}, next);
          out.text += name + '(';
        } else {
          // drtableN(id, args): the table's id as a number the parser passes through.
          const Table& t = *table->second;
          push({Level::kCall, next, name, static_cast<int>(t.axes()), i}, next);
          const std::string id = "v" + std::to_string(out.symbols.size());
          out.symbols[id] = t.id;
          out.text += table_call_name(t.axes()) + "(" + id + ", ";
        }
        operand_next = after_open = true;
        i = next + 1;
        continue;
      }
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
      } else if (auto t = scope.tables.find(name); t != scope.tables.end()) {
        throw ModelError(src.at(i), "table '" + name + "' used without arguments",
                         "call it with one argument per axis (" + std::to_string(t->second->axes()) + "), as in " +
                             name + "(" + (t->second->axes() == 1 ? "x" : "x, y") + (t->second->axes() > 2 ? ", ..." : "") + ")");
      } else {
        throw ModelError(src.at(i), "undefined name '" + name + "' in " + scope.what,
                         did_you_mean(name, names_of(scope), "define it under parameters, inputs, states or variables"));
      }
      operand(i, "'" + name + "'");
      const std::string internal = "v" + std::to_string(out.symbols.size());
      out.symbols[internal] = value;
      out.text += ' ' + internal + ' ';
      out.tokens.push_back({internal, name});
      i = end;
      continue;
    }
    switch (c) {
      case '(':
        operand(i, "'('");
        operand_next = true;
        push({Level::kParen, i}, i);
        after_open = true;
        break;
      case ')': {
        auto inner = levels.rbegin();
        while (inner->kind == Level::kSign) ++inner;
        if (inner->kind == Level::kTop) throw ModelError(src.at(i), "unmatched ')' in " + scope.what);
        if (operand_next && !(after_open && inner->kind == Level::kCall))
          throw ModelError(src.at(i), after_open ? "empty parentheses in " + scope.what
                                                 : "malformed expression: missing operand before ')' in " + scope.what);
        close_signs();
        if (const Level& call = levels.back(); call.kind == Level::kCall && call.commas + !after_open != call.arity)
          throw ModelError(src.at(call.name),
                           (scope.tables.count(call.function) ? "table '" : "function '") + call.function + "' takes " +
                               std::to_string(call.arity) + " argument" + (call.arity == 1 ? "" : "s") + ", not " +
                               std::to_string(call.commas + !after_open),
                           scope.tables.count(call.function) ? "a table takes one argument per axis of its breakpoints"
                                                             : "");
        levels.pop_back();
        operand_next = after_binary = after_open = false;
        operator_run = 0;
        break;
      }
      case '+': case '-': case '*': case '/': case '^':
        if (++operator_run > 8)
          throw ModelError(src.at(i), "malformed expression: too many operators in a row in " + scope.what);
        if (operand_next && c != '+' && c != '-')
          throw ModelError(src.at(i), std::string("malformed expression: missing operand before '") + c + "' in " + scope.what,
                           c == '*' && i > 0 && s[i - 1] == '*' ? "write a power with '^', as in x^2" : "");
        if (operand_next && after_binary) {
          push({Level::kSign, i}, i);
          out.text += '(';
        } else if (!operand_next && c == '^') {
          if (levels.back().power)
            throw ModelError(src.at(i), "ambiguous power in " + scope.what, "write a^(b^c) or (a^b)^c");
          levels.back().power = true;
        } else if (!operand_next) {
          close_signs();
          levels.back().power = false;
        }
        after_binary = !operand_next;
        operand_next = true;
        after_open = false;
        last_operator = i;
        break;
      case ',':
        if (operand_next)
          throw ModelError(src.at(i), "malformed expression: missing operand before ',' in " + scope.what);
        close_signs();
        if (levels.back().kind != Level::kCall)
          throw ModelError(src.at(i), "unexpected ',' in " + scope.what, "commas separate the arguments of a function call");
        ++levels.back().commas;
        levels.back().power = false;
        operand_next = true;
        after_binary = false;
        operator_run = 0;
        break;
      default:
        throw ModelError(src.at(i), "unexpected " + describe_character(s, i) + " in " + scope.what,
                         "expressions use numbers, names, + - * / ^, parentheses and function calls");
    }
    out.text += c;
    ++i;
  }
  if (operator_run > 0)
    throw ModelError(src.at(last_operator), std::string("malformed expression: missing operand after '") +
                                                s[last_operator] + "' in " + scope.what);
  close_signs();
  if (levels.size() > 1) throw ModelError(src.at(levels.back().open), "unclosed '(' in " + scope.what);
  return out;
}

// GiNaC's message without its prefix (parser position or C++ function) and source trailer,
// internal names put back.
std::string user_message(std::string msg, const Renamed& r) {
  static const std::regex prefix("^(GiNaC: parse error at line [0-9]+, column [0-9]+|[A-Za-z_:]+\\(\\)): ");
  msg = std::regex_replace(msg, prefix, "");
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.erase(nl);
  for (const auto& tok : r.tokens) {
    const std::string quoted = "\"" + tok.internal + "\"";
    if (auto p = msg.find(quoted); p != std::string::npos) msg.replace(p, quoted.size(), "'" + tok.user + "'");
  }
  return msg;
}

// The parsed expression with its numbers back, evaluated bottom-up; a power of numbers b^x is
// refused before GiNaC computes it when it would have more than kMaxPowerBits bits: exact
// b^(p/q), |p| times the bits of b's numerator and denominator; in floating point, |x log2 |b||.
// No double is that precise or large, and such powers take GiNaC minutes and all memory.
constexpr long kMaxPowerBits = 1L << 20;

GiNaC::ex restore(const GiNaC::ex& e, const Renamed& r, const ExpressionText& src, const ExpressionScope& scope) {
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto number = r.numbers.find(e);
    return number == r.numbers.end() ? e : number->second;
  }
  if (e.nops() == 0) return e;
  if (GiNaC::is_a<GiNaC::power>(e)) {
    const GiNaC::ex base = restore(e.op(0), r, src, scope), exponent = restore(e.op(1), r, src, scope);
    if (GiNaC::is_exactly_a<GiNaC::numeric>(base) && GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) {
      const auto& b = GiNaC::ex_to<GiNaC::numeric>(base);
      const auto& x = GiNaC::ex_to<GiNaC::numeric>(exponent);
      // GiNaC throws on these after allocating the power, which it then never frees.
      if (b.is_zero() && !GiNaC::real(x).is_positive())
        throw ModelError(src.at(0), "cannot evaluate " + scope.what + ": " + (x.is_zero() ? "0^0 is undefined" : "division by zero"));
      const auto bits = [](const GiNaC::numeric& n) { return static_cast<double>(GiNaC::abs(n).int_length()); };
      // Floating-point powers too: CLN raises its precision with the exponent
      // (0.82^(-1.5e21) asked for a 2^59-byte number).
      const double estimate =
          b.is_rational() && x.is_rational()
              ? (bits(x.numer()) > 62 ? HUGE_VAL : std::fabs(x.numer().to_double()) * (bits(b.numer()) + bits(b.denom())))
              : std::fabs(GiNaC::real(x).to_double()) * std::fabs(std::log2(std::fabs(GiNaC::abs(b).to_double())));
      if (!(estimate <= static_cast<double>(kMaxPowerBits)) && !b.is_zero() && GiNaC::abs(b) != 1)
        throw ModelError(src.at(0), "number out of range in " + scope.what + ": a power of numbers with more than " +
                                        std::to_string(kMaxPowerBits) + " bits",
                         "constants must be finite in double precision");
    } else if (GiNaC::is_exactly_a<GiNaC::numeric>(exponent) && GiNaC::ex_to<GiNaC::numeric>(exponent).is_rational()) {
      // GiNaC takes a number out of the base of a rational power and raises it: a product's
      // coefficient c ((2 x)^n = 2^n x^n), a sum's integer content (1/6 of x/6 + y/2).
      GiNaC::numeric c = 1;
      if (GiNaC::is_a<GiNaC::mul>(base)) {
        for (const auto& f : base)
          if (GiNaC::is_exactly_a<GiNaC::numeric>(f)) c *= GiNaC::ex_to<GiNaC::numeric>(f);
      } else if (GiNaC::is_a<GiNaC::add>(base)) {
        c = base.integer_content();
      }
      const auto& x = GiNaC::ex_to<GiNaC::numeric>(exponent);
      const auto bits = [](const GiNaC::numeric& n) { return static_cast<double>(GiNaC::abs(n).int_length()); };
      const double estimate = c.is_rational() && GiNaC::abs(c) != 1 && !c.is_zero()
                                  ? std::fabs(x.numer().to_double()) * (bits(c.numer()) + bits(c.denom()))
                                  : 0.0;
      if (!(estimate <= static_cast<double>(kMaxPowerBits))) {
        std::ostringstream power;
        power << x;
        throw ModelError(src.at(0),
                         "number out of range in " + scope.what + ": a power with exponent " + power.str() +
                             " of a base with a numeric factor other than 1 (more than " + std::to_string(kMaxPowerBits) +
                             " bits)",
                         "an exponent that large has no value in double precision; check the expression");
      }
    }
    return GiNaC::pow(base, exponent);
  }
  struct Restore : GiNaC::map_function {
    const Renamed& r;
    const ExpressionText& src;
    const ExpressionScope& scope;
    Restore(const Renamed& r_, const ExpressionText& s_, const ExpressionScope& sc) : r(r_), src(s_), scope(sc) {}
    GiNaC::ex operator()(const GiNaC::ex& x) override { return restore(x, r, src, scope); }
  } map(r, src, scope);
  return e.map(map);
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

GiNaC::ex parse_expression(const ExpressionText& source, const ExpressionScope& scope) {
  const Renamed renamed = rename(source, scope);
  GiNaC::symtab table;
  for (const auto& [internal, value] : renamed.symbols) table[internal] = value;
  GiNaC::prototype_table functions = model_function_table();
  if (!scope.tables.empty()) functions.insert(table_call_prototypes().begin(), table_call_prototypes().end());
  GiNaC::parser parser(table, true, functions);
  GiNaC::ex result;
  try {
    result = restore(parser(renamed.text), renamed, source, scope);
  } catch (const ModelError&) {
    throw;
  } catch (const GiNaC::parse_error& e) {
    throw ModelError(source.at(0), "malformed expression in " + scope.what + ": " + user_message(e.what(), renamed));
  } catch (const std::exception& e) {
    throw ModelError(source.at(0), "cannot evaluate " + scope.what + ": " + user_message(e.what(), renamed));
  }
  check_numbers_finite(result, source, scope);
  return result;
}

}  // namespace dualrate
