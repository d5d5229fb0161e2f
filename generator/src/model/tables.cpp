#include "model/tables.hpp"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "model/functions.hpp"

namespace dualrate {

DECLARE_FUNCTION_3P(dr_table1)
DECLARE_FUNCTION_4P(dr_table2)
DECLARE_FUNCTION_5P(dr_table3)
DECLARE_FUNCTION_6P(dr_table4)

using GiNaC::ex;
using GiNaC::exvector;

template <class T>
T Table::evaluate_as_generated(const T* args, unsigned slope) const {
  const std::size_t n_axes = axes();
  std::size_t index[kMaxTableAxes], stride[kMaxTableAxes];
  T fraction[kMaxTableAxes], inverse_width[kMaxTableAxes];
  std::size_t s = 1;
  for (std::size_t d = n_axes; d-- > 0;) {
    stride[d] = s;
    s *= breakpoints[d].size();
  }
  const bool clamp = extrapolation == Extrapolation::kClamp || interpolation == Interpolation::kFlat;
  for (std::size_t d = 0; d < n_axes; ++d) {
    T x = args[d];
    if (std::isnan(x)) return x;
    const auto b = [this, d](std::size_t i) { return static_cast<T>(breakpoints[d][i]); };
    const std::size_t last = breakpoints[d].size() - 1;
    bool held = false;
    if (clamp && (x < b(0) || x > b(last))) {
      x = x < b(0) ? b(0) : b(last);
      held = true;
    }
    std::size_t i = 0;
    while (i + 1 < last && x >= b(i + 1)) ++i;
    index[d] = i;
    const T width = b(i + 1) - b(i);
    fraction[d] = interpolation == Interpolation::kFlat ? (x >= b(i + 1) ? T(1) : T(0)) : (x - b(i)) / width;
    inverse_width[d] = held || interpolation == Interpolation::kFlat ? T(0) : T(1) / width;
  }
  const auto weight = [&](std::size_t d, bool upper) {
    if ((slope >> d) & 1u) return upper ? inverse_width[d] : -inverse_width[d];
    return upper ? fraction[d] : T(1) - fraction[d];
  };
  return corner_sum<T>(n_axes, index, stride, weight,
                       [this](std::size_t offset) { return static_cast<T>(values.at(offset)); });
}

template float Table::evaluate_as_generated<float>(const float*, unsigned) const;
template double Table::evaluate_as_generated<double>(const double*, unsigned) const;

double Table::evaluate(const double* args, unsigned slope) const { return evaluate_as_generated(args, slope); }

namespace {

// The id or slope mask of a call: an integer, which GiNaC's evalf hands over as a float.
unsigned integer_operand(const ex& e) {
  return static_cast<unsigned>(std::lround(GiNaC::ex_to<GiNaC::numeric>(e).to_double()));
}

// Tables by id, while a model holds them. Not thread-safe: models are loaded on one thread.
std::map<int, std::weak_ptr<const Table>>& registry() {
  static std::map<int, std::weak_ptr<const Table>> tables;
  return tables;
}

std::shared_ptr<const Table> table_of(const ex& id) {
  const int key = static_cast<int>(integer_operand(id));
  const auto it = registry().find(key);
  std::shared_ptr<const Table> t = it == registry().end() ? nullptr : it->second.lock();
  if (!t) throw std::logic_error("table call of a table no longer loaded (id " + std::to_string(key) + ")");
  return t;
}

unsigned serial_of(std::size_t axes) {
  const unsigned serials[] = {dr_table1_SERIAL::serial, dr_table2_SERIAL::serial, dr_table3_SERIAL::serial,
                              dr_table4_SERIAL::serial};
  return serials[axes - 1];
}

// The value when every argument is a number; the call, held, otherwise.
ex eval_call(const exvector& operands) {
  for (std::size_t k = 2; k < operands.size(); ++k)
    if (!is_real_number(operands[k])) return GiNaC::function(serial_of(operands.size() - 2), operands).hold();
  std::vector<double> x;
  for (std::size_t k = 2; k < operands.size(); ++k) x.push_back(GiNaC::ex_to<GiNaC::numeric>(operands[k]).to_double());
  const double v = table_of(operands[0])->evaluate(x.data(), integer_operand(operands[1]));
  if (!std::isfinite(v)) throw std::domain_error("a table's value is not finite there");
  return GiNaC::numeric(v);
}

// d/d(argument k): the slope in that argument; 0 in the id and mask, for a flat table, and
// for a second derivative in the same argument.
ex derivative(const exvector& operands, unsigned param) {
  if (param < 2) return 0;
  const std::shared_ptr<const Table> t = table_of(operands[0]);
  const unsigned mask = integer_operand(operands[1]);
  const unsigned bit = 1u << (param - 2);
  if (t->interpolation == Table::Interpolation::kFlat || (mask & bit)) return 0;
  exvector slope = operands;
  slope[1] = mask | bit;
  return GiNaC::function(serial_of(t->axes()), slope);
}

ex eval1(const ex& i, const ex& m, const ex& a) { return eval_call({i, m, a}); }
ex eval2(const ex& i, const ex& m, const ex& a, const ex& b) { return eval_call({i, m, a, b}); }
ex eval3(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c) { return eval_call({i, m, a, b, c}); }
ex eval4(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c, const ex& d) {
  return eval_call({i, m, a, b, c, d});
}
ex deriv1(const ex& i, const ex& m, const ex& a, unsigned p) { return derivative({i, m, a}, p); }
ex deriv2(const ex& i, const ex& m, const ex& a, const ex& b, unsigned p) { return derivative({i, m, a, b}, p); }
ex deriv3(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c, unsigned p) {
  return derivative({i, m, a, b, c}, p);
}
ex deriv4(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c, const ex& d, unsigned p) {
  return derivative({i, m, a, b, c, d}, p);
}

// A real function of real arguments: GiNaC's real and imaginary parts of a call.
ex real1(const ex& i, const ex& m, const ex& a) { return dr_table1(i, m, a).hold(); }
ex real2(const ex& i, const ex& m, const ex& a, const ex& b) { return dr_table2(i, m, a, b).hold(); }
ex real3(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c) { return dr_table3(i, m, a, b, c).hold(); }
ex real4(const ex& i, const ex& m, const ex& a, const ex& b, const ex& c, const ex& d) {
  return dr_table4(i, m, a, b, c, d).hold();
}
ex zero3(const ex&, const ex&, const ex&) { return 0; }
ex zero4(const ex&, const ex&, const ex&, const ex&) { return 0; }
ex zero5(const ex&, const ex&, const ex&, const ex&, const ex&) { return 0; }
ex zero6(const ex&, const ex&, const ex&, const ex&, const ex&, const ex&) { return 0; }

}  // namespace

REGISTER_FUNCTION(dr_table1, eval_func(eval1)
                                 .evalf_func(eval1)
                                 .derivative_func(deriv1)
                                 .real_part_func(real1)
                                 .imag_part_func(zero3)
                                 .conjugate_func(real1))
REGISTER_FUNCTION(dr_table2, eval_func(eval2)
                                 .evalf_func(eval2)
                                 .derivative_func(deriv2)
                                 .real_part_func(real2)
                                 .imag_part_func(zero4)
                                 .conjugate_func(real2))
REGISTER_FUNCTION(dr_table3, eval_func(eval3)
                                 .evalf_func(eval3)
                                 .derivative_func(deriv3)
                                 .real_part_func(real3)
                                 .imag_part_func(zero5)
                                 .conjugate_func(real3))
REGISTER_FUNCTION(dr_table4, eval_func(eval4)
                                 .evalf_func(eval4)
                                 .derivative_func(deriv4)
                                 .real_part_func(real4)
                                 .imag_part_func(zero6)
                                 .conjugate_func(real4))

std::shared_ptr<const Table> register_table(Table table) {
  static int next_id = 0;
  auto& tables = registry();
  for (auto it = tables.begin(); it != tables.end();) it = it->second.expired() ? tables.erase(it) : std::next(it);
  table.id = next_id++;
  auto shared = std::make_shared<const Table>(std::move(table));
  tables[shared->id] = shared;
  return shared;
}

bool is_table_call(const ex& e) {
  if (!GiNaC::is_a<GiNaC::function>(e)) return false;
  const unsigned serial = GiNaC::ex_to<GiNaC::function>(e).get_serial();
  for (std::size_t axes = 1; axes <= kMaxTableAxes; ++axes)
    if (serial == serial_of(axes)) return true;
  return false;
}

std::vector<ex> table_calls(const ex& e) {
  std::set<ex, GiNaC::ex_is_less> calls;
  for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node)
    if (is_table_call(*node)) calls.insert(*node);
  return {calls.begin(), calls.end()};
}

TableCall table_call_of(const ex& e) {
  if (!is_table_call(e)) throw std::logic_error("not a table call");
  TableCall c{table_of(e.op(0)), integer_operand(e.op(1)), {}};
  for (std::size_t k = 2; k < e.nops(); ++k) c.args.push_back(e.op(k));
  return c;
}

ex with_table_calls_to(const ex& e, int from, int to) {
  struct Retarget : GiNaC::map_function {
    int from, to;
    Retarget(int f, int t) : from(f), to(t) {}
    ex operator()(const ex& x) override {
      if (!is_table_call(x) || static_cast<int>(integer_operand(x.op(0))) != from) return x.map(*this);
      exvector operands{to, x.op(1)};
      for (std::size_t k = 2; k < x.nops(); ++k) operands.push_back((*this)(x.op(k)));
      return GiNaC::function(GiNaC::ex_to<GiNaC::function>(x).get_serial(), operands).hold();
    }
  } retarget(from, to);
  return retarget(e);
}

std::string table_call_name(std::size_t axes) { return "drtable" + std::to_string(axes); }

const GiNaC::prototype_table& table_call_prototypes() {
  using V = exvector;
  static const GiNaC::prototype_table table = {
      {{"drtable1", 2}, [](const V& a) -> ex { return dr_table1(a[0], 0, a[1]); }},
      {{"drtable2", 3}, [](const V& a) -> ex { return dr_table2(a[0], 0, a[1], a[2]); }},
      {{"drtable3", 4}, [](const V& a) -> ex { return dr_table3(a[0], 0, a[1], a[2], a[3]); }},
      {{"drtable4", 5}, [](const V& a) -> ex { return dr_table4(a[0], 0, a[1], a[2], a[3], a[4]); }},
  };
  return table;
}

}  // namespace dualrate
