// Look-up tables of a model file (its `tables:` section) in the IR.
//
// A call CX(a, b) is the GiNaC function dr_table2(id, 0, a, b): id names the table (Table::id),
// the second argument is the slope mask (bit d set: the partial derivative in argument d).
// Differentiating in argument d sets bit d; a second derivative in the same argument is 0 (the
// interpolant is linear in each argument on a cell), and every derivative of a flat table is 0.
// Numbers in, a number out: a call whose arguments are numbers evaluates to the table's value
// (Table::evaluate), which is how analysis evaluates Jacobians at a point.
//
// Semantics (those of runtime/include/dualrate/lookup.hpp, implemented here independently by a
// linear scan): the piecewise multilinear interpolant over the grid, a breakpoint belonging to
// the cell on its right; flat: the value at the cell's lower breakpoint (the last one from the
// last breakpoint on); clamp extrapolation holds the argument at the end breakpoints (slope 0
// outside), linear continues the end cell.
#pragma once

#include <ginac/ginac.h>

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostics.hpp"

namespace dualrate {

constexpr std::size_t kMaxTableAxes = 4;
constexpr std::size_t kMaxTableValues = std::size_t{1} << 20;  // per table: they go into the target's flash

struct Table {
  enum class Interpolation { kLinear, kFlat };
  enum class Extrapolation { kClamp, kLinear };

  std::string name;
  SourceLoc loc;                                 // of the name
  std::vector<std::vector<double>> breakpoints;  // per axis, strictly increasing, >= 2 points
  std::vector<double> values;                    // first axis outermost
  SourceLoc breakpoints_loc;                     // of the breakpoints' list
  std::string values_file;                       // as written in the model file, or empty
  Interpolation interpolation = Interpolation::kLinear;
  Extrapolation extrapolation = Extrapolation::kClamp;
  // Documentation only (the A2L file's conversions, reports): the values' unit, each axis's
  // unit (empty, or one per axis), and what the table is.
  std::string unit;
  std::vector<std::string> axis_units;
  std::string description;
  // Calibration: a tunable table's values may be changed on the running target, each within
  // [min, max]; its breakpoints stay fixed.
  bool tunable = false;
  double min{}, max{};    // tunable only
  SourceLoc range_loc{};  // tunable only: of its `min:`
  int id = -1;            // first argument of its calls; set by register_table

  std::size_t axes() const { return breakpoints.size(); }
  // T(args) or, with slope bit d set, its partial derivative in args[d], in T's arithmetic as
  // generated code computes it (runtime/include/dualrate/lookup.hpp): the breakpoints and values
  // rounded to T, each argument's cell found by a linear scan (the definition above written
  // out, not the runtime's search), its fraction (x - b_i) / (b_{i+1} - b_i), then the sum over
  // the 2^D corners, in the runtime's order (axis d at bit d), of the product of the axes'
  // weights times the value. The reference core's evaluation (Evaluator), so that verify's
  // exact step check covers tables.
  template <class T>
  T evaluate_as_generated(const T* args, unsigned slope) const;
  // evaluate_as_generated in double.
  double evaluate(const double* args, unsigned slope) const;
  static const char* to_string(Interpolation i) { return i == Interpolation::kLinear ? "linear" : "flat"; }
  static const char* to_string(Extrapolation e) { return e == Extrapolation::kClamp ? "clamp" : "linear"; }
};

// lookup::combine's sum over a cell's 2^D corners, in its order (axis d at bit d): the product
// of the axes' weights, weight(d, upper), times the value at the corner's offset. Shared by the
// tables' and the scheduled constants' transcriptions of the runtime (verify's exact step check).
template <class T, class Weight, class Value>
T corner_sum(std::size_t axes, const std::size_t* index, const std::size_t* stride, Weight weight, Value value) {
  T sum = 0;
  for (unsigned corner = 0; corner < (1u << axes); ++corner) {
    std::size_t offset = 0;
    T product = 1;
    for (std::size_t d = 0; d < axes; ++d) {
      const bool upper = ((corner >> d) & 1u) != 0;
      offset += (index[d] + (upper ? 1 : 0)) * stride[d];
      product *= weight(d, upper);
    }
    sum += product * value(offset);
  }
  return sum;
}

// Makes the table callable in expressions: gives it its id and keeps it while the returned
// pointer (held by the model) lives.
std::shared_ptr<const Table> register_table(Table table);

// Whether e is a table call; then its table, its slope mask and its arguments.
struct TableCall {
  std::shared_ptr<const Table> table;
  unsigned slope = 0;
  GiNaC::exvector args;
};
bool is_table_call(const GiNaC::ex& e);
TableCall table_call_of(const GiNaC::ex& e);
// The distinct table calls in e, nested ones included, in GiNaC's canonical order.
std::vector<GiNaC::ex> table_calls(const GiNaC::ex& e);

// e with every call of the table whose id is `from` calling the table with id `to` instead (the
// same slope mask and arguments; held, so that a call at numbers stays a call): a model
// calibrated with new table values (model/calibration.hpp) calls the table that holds them.
GiNaC::ex with_table_calls_to(const GiNaC::ex& e, int from, int to);

// The GiNaC parser's readers of the internal call names drtable1 ... drtable4, which the
// expression parser writes for a table call: drtableN(id, x0, ..., x(N-1)).
const GiNaC::prototype_table& table_call_prototypes();
std::string table_call_name(std::size_t axes);

}  // namespace dualrate
