#include "model/functions.hpp"

#include <cmath>
#include <map>

namespace dualrate {

using GiNaC::ex;
using GiNaC::numeric;

bool is_real_number(const ex& e) { return GiNaC::is_exactly_a<numeric>(e) && GiNaC::ex_to<numeric>(e).is_real(); }

namespace {

const numeric& num(const ex& x) { return GiNaC::ex_to<numeric>(x); }

ex abs_eval(const ex& x) {
  if (is_real_number(x)) return GiNaC::abs(num(x));
  return dr_abs(x).hold();
}
ex abs_deriv(const ex& x, unsigned) { return dr_sign(x); }

ex sign_eval(const ex& x) {
  if (is_real_number(x)) return num(x).is_positive() ? 1 : (num(x).is_negative() ? -1 : 0);
  return dr_sign(x).hold();
}
ex sign_deriv(const ex&, unsigned) { return 0; }

ex step_eval(const ex& x) {
  if (is_real_number(x)) return num(x).is_negative() ? 0 : 1;
  return dr_step(x).hold();
}
ex step_deriv(const ex&, unsigned) { return 0; }

ex min_eval(const ex& a, const ex& b) {
  if (is_real_number(a) && is_real_number(b)) return num(a) <= num(b) ? a : b;
  if (a.is_equal(b)) return a;
  return dr_min(a, b).hold();
}
ex min_deriv(const ex& a, const ex& b, unsigned param) {
  const ex first = dr_step(b - a);
  return param == 0 ? first : 1 - first;
}

ex max_eval(const ex& a, const ex& b) {
  if (is_real_number(a) && is_real_number(b)) return num(a) >= num(b) ? a : b;
  if (a.is_equal(b)) return a;
  return dr_max(a, b).hold();
}
ex max_deriv(const ex& a, const ex& b, unsigned param) {
  const ex first = dr_step(a - b);
  return param == 0 ? first : 1 - first;
}

ex time_eval(const ex& x) {
  if (GiNaC::is_exactly_a<numeric>(x)) return x;
  return dr_time(x).hold();
}
ex time_deriv(const ex&, unsigned) { return 1; }

}  // namespace

REGISTER_FUNCTION(dr_abs, eval_func(abs_eval).evalf_func(abs_eval).derivative_func(abs_deriv))
REGISTER_FUNCTION(dr_sign, eval_func(sign_eval).evalf_func(sign_eval).derivative_func(sign_deriv))
REGISTER_FUNCTION(dr_step, eval_func(step_eval).evalf_func(step_eval).derivative_func(step_deriv))
REGISTER_FUNCTION(dr_min, eval_func(min_eval).evalf_func(min_eval).derivative_func(min_deriv))
REGISTER_FUNCTION(dr_max, eval_func(max_eval).evalf_func(max_eval).derivative_func(max_deriv))
REGISTER_FUNCTION(dr_time, eval_func(time_eval).evalf_func(time_eval).derivative_func(time_deriv))

bool is_time_term(const ex& e) { return is_ex_the_function(e, dr_time); }

const std::vector<FunctionInfo>& model_functions() {
  static const std::vector<FunctionInfo> functions = {{"sin", 1},  {"cos", 1},   {"tan", 1},  {"asin", 1}, {"acos", 1},
                                                      {"atan", 1}, {"atan2", 2}, {"sinh", 1}, {"cosh", 1}, {"tanh", 1},
                                                      {"exp", 1},  {"log", 1},   {"sqrt", 1}, {"abs", 1},  {"sign", 1},
                                                      {"min", 2},  {"max", 2},   {"pow", 2},  {"step", 1}};
  return functions;
}

std::string cpp_function(const std::string& ginac_name) {
  static const std::map<std::string, std::string> own = {{"dr_abs", "std::abs"},
                                                         {"dr_sign", "dualrate::math::sign"},
                                                         {"dr_step", "dualrate::math::heaviside"},
                                                         {"dr_min", "dualrate::math::min"},
                                                         {"dr_max", "dualrate::math::max"}};
  const auto it = own.find(ginac_name);
  return it != own.end() ? it->second : "dualrate::math::" + ginac_name;
}

const FunctionInfo* find_model_function(const std::string& name) {
  for (const auto& f : model_functions())
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<std::string> model_function_names() {
  std::vector<std::string> names;
  for (const auto& f : model_functions()) names.emplace_back(f.name);
  return names;
}

const GiNaC::prototype_table& model_function_table() {
  using V = GiNaC::exvector;
  static const GiNaC::prototype_table table = {
      {{"sin", 1}, [](const V& a) -> ex { return GiNaC::sin(a[0]); }},
      {{"cos", 1}, [](const V& a) -> ex { return GiNaC::cos(a[0]); }},
      {{"tan", 1}, [](const V& a) -> ex { return GiNaC::tan(a[0]); }},
      {{"asin", 1}, [](const V& a) -> ex { return GiNaC::asin(a[0]); }},
      {{"acos", 1}, [](const V& a) -> ex { return GiNaC::acos(a[0]); }},
      {{"atan", 1}, [](const V& a) -> ex { return GiNaC::atan(a[0]); }},
      {{"atan2", 2}, [](const V& a) -> ex { return GiNaC::atan2(a[0], a[1]); }},
      {{"sinh", 1}, [](const V& a) -> ex { return GiNaC::sinh(a[0]); }},
      {{"cosh", 1}, [](const V& a) -> ex { return GiNaC::cosh(a[0]); }},
      {{"tanh", 1}, [](const V& a) -> ex { return GiNaC::tanh(a[0]); }},
      {{"exp", 1}, [](const V& a) -> ex { return GiNaC::exp(a[0]); }},
      {{"log", 1}, [](const V& a) -> ex { return GiNaC::log(a[0]); }},
      {{"sqrt", 1}, [](const V& a) -> ex { return GiNaC::sqrt(a[0]); }},
      {{"abs", 1}, [](const V& a) -> ex { return dr_abs(a[0]); }},
      {{"sign", 1}, [](const V& a) -> ex { return dr_sign(a[0]); }},
      {{"min", 2}, [](const V& a) -> ex { return dr_min(a[0], a[1]); }},
      {{"max", 2}, [](const V& a) -> ex { return dr_max(a[0], a[1]); }},
      {{"pow", 2}, [](const V& a) -> ex { return GiNaC::pow(a[0], a[1]); }},
      {{"step", 1}, [](const V& a) -> ex { return dr_step(a[0]); }},
  };
  return table;
}

void init_symbolic() { GiNaC::Digits = 40; }

}  // namespace dualrate
