// The emitted form of a scheme's constants (the SchemeConstants struct's members) and of the
// axes of tables and schedules; cpp_emitter.cpp assembles the header from them.
#pragma once

#include <string>
#include <vector>

#include "ir/linear_map.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// `static Eigen::Matrix<Scalar, rows, 1> NAME(const Schedule& s_, const Eigen::Matrix<Scalar,
// cols, 1>& v_)` returning M v, written over M's nonzeros (an entry with an index read from s_:
// scheduled, or following the calibration),
// after a comment on what M is and its structure.
std::string matrix_function(const LinearMap& m);

// `static constexpr dualrate::lookup::Axis<...> name{...};` for strictly increasing breakpoints
// b. An axis is uniform (cell by index arithmetic) when its breakpoints in Scalar lie within
// 1e-6 of the spacing from equal spacing (lookup.hpp corrects the index by comparison, which is
// exact while they lie within a quarter of it).
std::string axis_definition(const std::string& name, const std::vector<double>& b, ScalarType scalar);
// The first i with b[i - 1] and b[i] equal once rounded to Scalar, or 0.
std::size_t equal_in_scalar(const std::vector<double>& b, ScalarType scalar);

// SchemeConstants' Schedule and schedule(t, x, u) (dualrate/schedule.hpp): the empty
// dualrate::Unscheduled when the constants are constant; else the grid, each scheduled entry's
// and real's (design.reals) values at its points, their interpolation at a step's scheduling
// values, and whether these lay outside the grid (Schedule::outside, for Data's count). `maps`
// are design.matrices as emitted.
std::string schedule_definitions(const SchemeDesign& design, ScalarType scalar, const std::vector<LinearMap>& maps);

}  // namespace dualrate
