#include "model/parser_input.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/functions.hpp"

namespace dualrate {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

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
  if (utf8)
    std::snprintf(text, sizeof text, "character U+%04lX", code);
  else
    std::snprintf(text, sizeof text, "byte 0x%02X", static_cast<unsigned>(c));
  return text;
}

// A token of expression text: its kind and where it is.
struct Token {
  enum Kind { kSpace, kNumber, kName, kCall, kOpen, kClose, kOperator, kComma } kind;
  std::size_t begin = 0, end = 0;  // offsets of its text (of a call: of the function's name)
  std::size_t paren = 0;           // of a call: the offset of its '('
};

// Splits expression text into tokens, one at a time so that errors come in the order of the
// text: a malformed number or a character no expression uses is reported at its position.
class Lexer {
 public:
  // Throws when the text is too long or empty.
  Lexer(const ExpressionText& src, const std::string& what);

  // The next token; none at the end of the text.
  std::optional<Token> next();

 private:
  const ExpressionText& src_;
  const std::string& what_;
  std::size_t i_ = 0;
};

Lexer::Lexer(const ExpressionText& src, const std::string& what) : src_(src), what_(what) {
  const std::string& s = src.text;
  if (s.size() > kMaxExpressionLength)
    throw ModelError(src.at(0),
                     what + " is too long (" + std::to_string(s.size()) + " characters, at most " +
                         std::to_string(kMaxExpressionLength) + ")",
                     "split it into intermediate variables");
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ModelError(src.at(0), what + " is empty", "write a number or an expression");
}

std::optional<Token> Lexer::next() {
  const std::string& s = src_.text;
  if (i_ >= s.size()) return std::nullopt;
  const std::size_t begin = i_;
  const char c = s[i_];
  if (is_space(c)) {
    while (i_ < s.size() && is_space(s[i_])) ++i_;
    return Token{Token::kSpace, begin, i_};
  }
  if (is_digit(c) || (c == '.' && i_ + 1 < s.size() && is_digit(s[i_ + 1]))) {
    i_ = scan_number(s, i_, src_);
    return Token{Token::kNumber, begin, i_};
  }
  if (is_name_start(c)) {
    std::size_t end = i_;
    while (end < s.size() && is_name_char(s[end])) ++end;
    std::size_t paren = end;
    while (paren < s.size() && is_space(s[paren])) ++paren;
    if (paren < s.size() && s[paren] == '(') {
      i_ = paren + 1;
      return Token{Token::kCall, begin, end, paren};
    }
    i_ = end;
    return Token{Token::kName, begin, end};
  }
  ++i_;
  switch (c) {
    case '(':
      return Token{Token::kOpen, begin, i_};
    case ')':
      return Token{Token::kClose, begin, i_};
    case '+':
    case '-':
    case '*':
    case '/':
    case '^':
      return Token{Token::kOperator, begin, i_};
    case ',':
      return Token{Token::kComma, begin, i_};
    default:
      throw ModelError(src_.at(begin), "unexpected " + describe_character(s, begin) + " in " + what_,
                       "expressions use numbers, names, + - * / ^, parentheses and function calls");
  }
}

// One level of nesting: a parenthesis, a function call, or the parentheses put around a sign
// that follows a binary operator (GiNaC would apply that sign to the rest of the expression,
// reading 2*-3+4 as 2*(-3+4)).
struct Level {
  enum Kind { kTop, kParen, kCall, kSign } kind = kTop;
  std::size_t open = 0;    // offset of the '(' (of the sign for kSign)
  std::string function{};  // for a call: the function's or table's name
  int arity = 0;           // and its number of arguments
  std::size_t name = 0;    // offset of the function name
  int commas = 0;
  bool power = false;  // a '^' applies at this level (GiNaC rejects a^b^c)
};

// The syntax of an expression, token by token (GiNaC's parser reports no positions and
// crashes on f()): operands and operators alternate, parentheses match, a call has its
// function's number of arguments, and nesting is bounded (deep nesting would overflow the
// parser's stack). Each step returns the parentheses the parser needs before the token:
// those that close the parentheses put around a sign, or open one.
class SyntaxChecker {
 public:
  SyntaxChecker(const ExpressionText& src, const ExpressionScope& scope) : src_(src), scope_(scope) {}

  // A number or a name at offset `at`; `what` is it quoted, for messages.
  void operand(std::size_t at, const std::string& what);
  // A call of `function` with `arity` arguments, its name at offset `name` and '(' at `paren`.
  void call(const std::string& function, int arity, std::size_t name, std::size_t paren);
  void open(std::size_t at);
  std::string close(std::size_t at);
  std::string binary_or_sign(char c, std::size_t at);
  std::string comma(std::size_t at);
  // After the last token.
  std::string end();

 private:
  void push(const Level& level, std::size_t at);
  std::string close_signs();
  void check_arity(const Level& call) const;

  const ExpressionText& src_;
  const ExpressionScope& scope_;
  std::vector<Level> levels_ = std::vector<Level>(1);
  bool operand_next_ = true;   // an operand or a sign must come next
  bool after_binary_ = false;  // the last token is a binary operator
  bool after_open_ = false;    // the last token is '('
  int operator_run_ = 0;       // consecutive operators (unary chains nest in the parser)
  std::size_t last_operator_ = 0;
};

void SyntaxChecker::push(const Level& level, std::size_t at) {
  levels_.push_back(level);
  if (static_cast<int>(levels_.size()) - 1 > kMaxNesting)
    throw ModelError(src_.at(at), scope_.what + " nests deeper than " + std::to_string(kMaxNesting) + " levels",
                     "split it into intermediate variables");
}

std::string SyntaxChecker::close_signs() {
  std::string closing;
  while (levels_.back().kind == Level::kSign) {
    closing += ')';
    levels_.pop_back();
  }
  return closing;
}

void SyntaxChecker::operand(std::size_t at, const std::string& what) {
  if (!operand_next_)
    throw ModelError(src_.at(at), "malformed expression: missing operator before " + what + " in " + scope_.what,
                     "write a product with '*', as in 2*x");
  operand_next_ = after_binary_ = after_open_ = false;
  operator_run_ = 0;
}

void SyntaxChecker::call(const std::string& function, int arity, std::size_t name, std::size_t paren) {
  operand(name, "'" + function + "'");
  push({Level::kCall, paren, function, arity, name}, paren);
  operand_next_ = after_open_ = true;
}

void SyntaxChecker::open(std::size_t at) {
  operand(at, "'('");
  operand_next_ = true;
  push({Level::kParen, at}, at);
  after_open_ = true;
}

void SyntaxChecker::check_arity(const Level& call) const {
  if (call.kind != Level::kCall || call.commas + !after_open_ == call.arity) return;
  const bool table = scope_.tables.count(call.function) > 0;
  throw ModelError(src_.at(call.name),
                   (table ? "table '" : "function '") + call.function + "' takes " + std::to_string(call.arity) +
                       " argument" + (call.arity == 1 ? "" : "s") + ", not " +
                       std::to_string(call.commas + !after_open_),
                   table ? "a table takes one argument per axis of its breakpoints" : "");
}

std::string SyntaxChecker::close(std::size_t at) {
  auto inner = levels_.rbegin();
  while (inner->kind == Level::kSign) ++inner;
  if (inner->kind == Level::kTop) throw ModelError(src_.at(at), "unmatched ')' in " + scope_.what);
  if (operand_next_ && !(after_open_ && inner->kind == Level::kCall))
    throw ModelError(src_.at(at), after_open_ ? "empty parentheses in " + scope_.what
                                              : "malformed expression: missing operand before ')' in " + scope_.what);
  std::string closing = close_signs();
  check_arity(levels_.back());
  levels_.pop_back();
  operand_next_ = after_binary_ = after_open_ = false;
  operator_run_ = 0;
  return closing;
}

std::string SyntaxChecker::binary_or_sign(char c, std::size_t at) {
  if (++operator_run_ > 8)
    throw ModelError(src_.at(at), "malformed expression: too many operators in a row in " + scope_.what);
  if (operand_next_ && c != '+' && c != '-')
    throw ModelError(src_.at(at),
                     std::string("malformed expression: missing operand before '") + c + "' in " + scope_.what,
                     c == '*' && at > 0 && src_.text[at - 1] == '*' ? "write a power with '^', as in x^2" : "");
  std::string before;
  if (operand_next_ && after_binary_) {
    push({Level::kSign, at}, at);
    before = "(";
  } else if (!operand_next_ && c == '^') {
    if (levels_.back().power)
      throw ModelError(src_.at(at), "ambiguous power in " + scope_.what, "write a^(b^c) or (a^b)^c");
    levels_.back().power = true;
  } else if (!operand_next_) {
    before = close_signs();
    levels_.back().power = false;
  }
  after_binary_ = !operand_next_;
  operand_next_ = true;
  after_open_ = false;
  last_operator_ = at;
  return before;
}

std::string SyntaxChecker::comma(std::size_t at) {
  if (operand_next_)
    throw ModelError(src_.at(at), "malformed expression: missing operand before ',' in " + scope_.what);
  std::string closing = close_signs();
  if (levels_.back().kind != Level::kCall)
    throw ModelError(src_.at(at), "unexpected ',' in " + scope_.what,
                     "commas separate the arguments of a function call");
  ++levels_.back().commas;
  levels_.back().power = false;
  operand_next_ = true;
  after_binary_ = false;
  operator_run_ = 0;
  return closing;
}

std::string SyntaxChecker::end() {
  if (operator_run_ > 0)
    throw ModelError(src_.at(last_operator_), std::string("malformed expression: missing operand after '") +
                                                  src_.text[last_operator_] + "' in " + scope_.what);
  std::string closing = close_signs();
  if (levels_.size() > 1) throw ModelError(src_.at(levels_.back().open), "unclosed '(' in " + scope_.what);
  return closing;
}

// The value of the name `name`, written at offset `at`.
GiNaC::ex value_of(const std::string& name, std::size_t at, const ExpressionText& src, const ExpressionScope& scope) {
  if (auto it = scope.allowed.find(name); it != scope.allowed.end()) return it->second;
  if (name == "t" && scope.time) return *scope.time;
  if (name == "pi") return GiNaC::Pi;
  if (auto f = scope.forbidden.find(name); f != scope.forbidden.end())
    throw ModelError(src.at(at), "'" + name + "' cannot be used in " + scope.what, f->second);
  if (name == "t")
    throw ModelError(src.at(at), "time 't' cannot be used in " + scope.what,
                     "only variables, equations, outputs and input signals depend on time");
  if (find_model_function(name))
    throw ModelError(src.at(at), "function '" + name + "' used without arguments", "call it, as in " + name + "(x)");
  if (auto t = scope.tables.find(name); t != scope.tables.end())
    throw ModelError(src.at(at), "table '" + name + "' used without arguments",
                     "call it with one argument per axis (" + std::to_string(t->second->axes()) + "), as in " + name +
                         "(" + (t->second->axes() == 1 ? "x" : "x, y") + (t->second->axes() > 2 ? ", ..." : "") + ")");
  throw ModelError(src.at(at), "undefined name '" + name + "' in " + scope.what,
                   did_you_mean(name, names_of(scope), "define it under parameters, inputs, states or variables"));
}

// What a call calls: a model function or a table.
struct Callee {
  const FunctionInfo* function = nullptr;
  const Table* table = nullptr;
  int arity() const { return function ? function->arity : static_cast<int>(table->axes()); }
};

// The function or table called `name`, written at offset `at`.
Callee callee(const std::string& name, std::size_t at, const ExpressionText& src, const ExpressionScope& scope) {
  if (const FunctionInfo* f = find_model_function(name)) return {f, nullptr};
  if (const auto table = scope.tables.find(name); table != scope.tables.end()) return {nullptr, table->second.get()};
  if (scope.allowed.count(name) || (name == "t" && scope.time) || name == "pi")
    throw ModelError(src.at(at), "'" + name + "' is not a function",
                     "write a product with '*', as in " + name + "*(...)");
  std::vector<std::string> callable = model_function_names();
  for (const auto& [table_name, t] : scope.tables) callable.push_back(table_name);
  std::string hint = did_you_mean(name, callable);
  if (hint.empty()) {
    hint = "known functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log sqrt abs sign min max pow step";
    if (!scope.tables.empty()) hint += "; tables: " + join_names(scope.tables);
  }
  throw ModelError(src.at(at),
                   (scope.tables.empty() ? "unknown function '" : "unknown function or table '") + name + "'", hint);
}

// Appends a number, a name with its value, or a call's name and '(' to `out`.
void add_number(ParserInput& out, const std::string& written) {
  const std::string internal = "n" + std::to_string(out.numbers.size());
  const GiNaC::symbol placeholder(internal);
  out.numbers.emplace(placeholder, GiNaC::numeric(written.c_str()));
  out.symbols[internal] = placeholder;
  out.text += ' ' + internal + ' ';
  out.aliases.push_back({internal, written});
}

void add_name(ParserInput& out, const std::string& written, const GiNaC::ex& value) {
  const std::string internal = "v" + std::to_string(out.symbols.size());
  out.symbols[internal] = value;
  out.text += ' ' + internal + ' ';
  out.aliases.push_back({internal, written});
}

void add_call(ParserInput& out, const std::string& written, const Callee& callee) {
  if (callee.function) {
    out.text += written + '(';
    return;
  }
  // drtableN(id, args): the table's id as a number the parser passes through.
  const std::string id = "v" + std::to_string(out.symbols.size());
  out.symbols[id] = callee.table->id;
  out.text += table_call_name(callee.table->axes()) + "(" + id + ", ";
}

}  // namespace

ParserInput parser_input(const ExpressionText& source, const ExpressionScope& scope) {
  Lexer lexer(source, scope.what);
  SyntaxChecker syntax(source, scope);
  ParserInput out;
  while (const std::optional<Token> token = lexer.next()) {
    const std::string written = source.text.substr(token->begin, token->end - token->begin);
    switch (token->kind) {
      case Token::kSpace:
        out.text.append(written.size(), ' ');
        break;
      case Token::kNumber:
        syntax.operand(token->begin, "'" + written + "'");
        add_number(out, written);
        break;
      case Token::kName: {
        const GiNaC::ex value = value_of(written, token->begin, source, scope);
        syntax.operand(token->begin, "'" + written + "'");
        add_name(out, written, value);
        break;
      }
      case Token::kCall: {
        const Callee called = callee(written, token->begin, source, scope);
        syntax.call(written, called.arity(), token->begin, token->paren);
        add_call(out, written, called);
        break;
      }
      case Token::kOpen:
        syntax.open(token->begin);
        out.text += '(';
        break;
      case Token::kClose:
        out.text += syntax.close(token->begin) + ')';
        break;
      case Token::kOperator:
        out.text += syntax.binary_or_sign(written[0], token->begin) + written;
        break;
      case Token::kComma:
        out.text += syntax.comma(token->begin) + ',';
        break;
    }
  }
  out.text += syntax.end();
  return out;
}

}  // namespace dualrate
