// The stability of a scheme at its step over the box of a model's tunable values
// (docs/calibration.md#stability-over-the-range): the one-step map's spectral radius at
// points of the box, searched for its largest.
//
// The points:
//  - the model's own values;
//  - the grid of the tunable parameters that the designs over the range take too
//    (tunable_box_points: min, centre and max of each up to 4 parameters, the corners and the
//    centre up to 6, the ends of each range with the others at their values beyond);
//  - each tunable table in the patterns that bound its slopes over its limits: its values,
//    all at min, all at max, and alternating min and max either way (a map's values by the
//    parity of the sum of their indices), at the model's values and at the grid's worst point
//    (all the tables' patterns together for up to two tables, else one table at a time);
//  - from the worst point of all and from the grid's four worst, a compass search over the
//    parameters: one step up and down each range, the step a quarter of the range, halved to
//    1/64 of it, moving to a worse point when one is found (an interior maximum that the grid's
//    points miss; several starts, as the radius has local maxima, e.g. 1 where a mode is 0).
// A point is judged by the map's spectral radius of the scheme's design there, or of the
// header's design where generated code keeps it over the range (below), except where the linearized model itself
// grows (growth_rate > 0): there the map is judged against the model's growth
// (MapJudgement::relative: a growing mode must grow in the map at half to one and a half times
// the model's rate). The search maximises the judged radius.
#pragma once

#include <cstddef>
#include <string>

#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

struct RangeStability {
  bool stable = true;          // at every point judged
  double spectral_radius = 0;  // the largest judged radius found (MapJudgement::relative)
  std::string where;           // its point: "Kt = 0.03, R = 2" (and "friction: alternating min/max")
  std::size_t points = 0;      // one-step maps computed
  std::size_t growing = 0;     // points at which the model itself grows
  double growth = 0;           // the fastest growth rate there, 1/s (growth_rate)
  std::string growth_where;    // its point
};

// Of `scheme` at step h (ratio r for a dual-rate scheme) over the tunable values of m (a model
// without any: its own values only). `design`: the header's (precompute_scheme's for m and the
// same request). Where generated code keeps it at every write (a scheme with a design_step_map
// whose design recomputes nothing on the target and has no schedule: smfe's h_s and N, sp_ll's
// constants when no tunable value reaches them), each point is judged with its map at that
// point's Jacobian; else (or null) with the scheme's own design at the point.
RangeStability stability_over_range(const Model& m, const std::string& scheme, double h, int ratio,
                                    const SchemeOptions& options, const SchemeDesign* design = nullptr);

}  // namespace dualrate
