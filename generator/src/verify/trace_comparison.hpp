// The comparison of a run's trace with a reference trace column by column, and the user's error
// tolerance (model/model.hpp ErrorTolerance) resolved per column of states and outputs: what
// verify's accuracy check and design's search judge a run by.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/trace.hpp"
#include "model/model.hpp"

namespace dualrate {

struct ColumnTolerance {
  double value = 0;       // 0: the column is measured, not judged
  bool absolute = false;  // |a - b| in the column's unit; else |a - b| / max(1, max_t |b|)
};

// One per state of m, then one per output.
std::vector<ColumnTolerance> column_tolerances(const Model& m, const ErrorTolerance& t);

// `given`'s tolerance over `file`'s: its relative one where it has one, its absolute ones by name.
ErrorTolerance merged(const ErrorTolerance& file, const ErrorTolerance& given);

// Whether t gives the state or output `name` an absolute tolerance.
bool has_absolute(const ErrorTolerance& t, const std::string& name);
// The tolerance of the state or output `name`: its absolute one, else the relative one (0: none).
double tolerance_of(const ErrorTolerance& t, const std::string& name);

// Where the tolerance of the state or output `name` comes from: "--absolute-tolerance",
// "simulation.absolute_tolerance", "--tolerance" or "simulation.tolerance" (`given`'s over `file`'s).
std::string tolerance_source(const ErrorTolerance& file, const ErrorTolerance& given, const std::string& name);

// As in "1e-03 relative; absolute V_t 0.001, SOC 1e-06" (empty: none).
std::string tolerance_text(const ErrorTolerance& t);

struct Comparison {
  double max_error = 0;          // the worst column's error, in its measure
  std::size_t worst_column = 0;  // 1-based (column 0 is time)
  double worst_time = 0;
  // The largest error / tolerance of a judged column (<= 1: within); compare_traces(a, b, n):
  // max_error.
  double share = 0;
  std::vector<double> errors;  // each column's largest, in its measure
  std::vector<double> times;   // where it is
  std::vector<double> scale;   // what each column's error is divided by: max(1, max_t |b|), or 1 if absolute
};

// Columns 1..tolerances.size() of two traces with as many rows and those columns (column 0 is
// time; the columns after them are not compared), `b` the reference, each measured as its
// tolerance says; a NaN is infinitely far. The worst column is
// the judged one with the largest share of its tolerance (none judged: the largest error).
// Throws std::runtime_error when the shapes differ.
Comparison compare_traces(const Trace& a, const Trace& b, const std::vector<ColumnTolerance>& tolerances);
// Columns 1..columns, each relative with tolerance 1.
Comparison compare_traces(const Trace& a, const Trace& b, std::size_t columns);

}  // namespace dualrate
