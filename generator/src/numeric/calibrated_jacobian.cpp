#include "numeric/calibrated_jacobian.hpp"

#include <fmt/format.h>

#include "numeric/linearization.hpp"

namespace dualrate {

GiNaC::matrix calibrated_jacobian(const Model& m, const std::vector<GiNaC::ex>& wrt) {
  const GiNaC::exmap vars = m.variable_definitions(), fixed = fixed_parameter_values(m);
  std::vector<GiNaC::ex> rhs;
  for (const auto& x : m.states) rhs.push_back(x.rhs.subs(vars).subs(fixed));
  GiNaC::matrix j(static_cast<unsigned>(rhs.size()), static_cast<unsigned>(wrt.size()));
  for (unsigned r = 0; r < rhs.size(); ++r)
    for (unsigned c = 0; c < wrt.size(); ++c) j(r, c) = rhs[r].diff(GiNaC::ex_to<GiNaC::symbol>(wrt[c]));
  return j;
}

GiNaC::matrix calibrated_jacobian(const Model& m) {
  std::vector<GiNaC::ex> states;
  for (const auto& x : m.states) states.push_back(x.symbol);
  return calibrated_jacobian(m, states);
}

GiNaC::exmap design_point(const Model& m) {
  GiNaC::exmap point;
  const InitialPoint p = initial_point(m);
  point[m.time] = GiNaC::numeric(0);
  for (std::size_t i = 0; i < m.states.size(); ++i) point[m.states[i].symbol] = GiNaC::numeric(p.x[i]);
  for (std::size_t i = 0; i < m.inputs.size(); ++i) point[m.inputs[i].symbol] = GiNaC::numeric(p.u[i]);
  return point;
}

std::vector<GiNaC::ex> calibrated_block(const Model& m, const GiNaC::matrix& j, const JacobianBlock& b,
                                        const GiNaC::exmap& point, const std::string& scheme) {
  std::vector<GiNaC::ex> entries;
  for (std::size_t r = b.row0; r < b.row0 + b.rows; ++r)
    for (std::size_t c = b.col0; c < b.col0 + b.cols; ++c) {
      const GiNaC::ex e =
          j(static_cast<unsigned>(r), static_cast<unsigned>(c)).subs(point, GiNaC::subs_options::no_pattern);
      if (const Table* t = called_tunable_table(e))
        throw ModelError(t->range_loc,
                         fmt::format("{}'s {} depends on tunable table '{}' (through the equation of '{}'): "
                                     "generated code cannot recompute it on the target",
                                     scheme, b.name, t->name, m.states[r].name),
                         "make the table fixed, or use an explicit scheme (euler, rk2, rk4, prk25)");
      entries.push_back(e.evalf());
    }
  return entries;
}

bool follows_calibration(const Model& m, const std::vector<GiNaC::ex>& entries) {
  const std::vector<const Parameter*> calibrated = calibrated_parameters(m);
  for (const auto& e : entries)
    for (const Parameter* p : calibrated)
      if (e.has(p->symbol)) return true;
  return false;
}

Eigen::MatrixXd evaluate_block(const std::vector<GiNaC::ex>& entries, std::size_t rows, std::size_t cols,
                               const GiNaC::exmap& values) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const GiNaC::ex v = entries[k].subs(values, GiNaC::subs_options::no_pattern).evalf();
    out(static_cast<Eigen::Index>(k / cols), static_cast<Eigen::Index>(k % cols)) =
        GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  }
  return out;
}

}  // namespace dualrate
