#include "reference/output_sensitivity.hpp"

#include <cmath>
#include <cstdlib>

namespace dualrate {

int output_operations(const GiNaC::ex& e) {
  int children = 0;
  for (std::size_t i = 0; i < e.nops(); ++i) children += output_operations(e.op(i));
  if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e)) return children + static_cast<int>(e.nops()) - 1;
  if (GiNaC::is_a<GiNaC::power>(e)) {
    const GiNaC::ex n = e.op(1);
    if (n.info(GiNaC::info_flags::integer)) {
      const long k = GiNaC::ex_to<GiNaC::numeric>(n).to_long();
      return output_operations(e.op(0)) + static_cast<int>(std::labs(k)) - 1 + (k < 0 ? 1 : 0);
    }
    return children + 2;
  }
  if (GiNaC::is_a<GiNaC::function>(e)) return children + 2;
  return children;
}

std::string output_exact_difference(const Model& model) {
  // The variables that are, or read, a solved acceleration (variables come in dependency order).
  std::vector<GiNaC::ex> solved;
  for (const auto& v : model.variables) {
    bool reads = v.solved;
    for (const auto& w : solved) reads = reads || v.expr.has(w);
    if (reads) solved.push_back(v.symbol);
  }
  for (const auto& y : model.outputs) {
    for (const auto& w : solved)
      if (y.expr.has(w))
        return "an output reads an acceleration the generated code solves at run time, which the reference "
               "core takes from the symbolic inverse";
  }
  return "";
}

OutputSensitivity::OutputSensitivity(const Model& model) : model_(model) {
  int slot = 0;
  slots_[model.time] = slot++;
  for (const auto& x : model.states) slots_[x.symbol] = slot++;
  for (const auto& u : model.inputs) slots_[u.symbol] = slot++;
  for (const auto& p : model.parameters) slots_[p.symbol] = slot++;
  const GiNaC::exmap variables = model.variable_definitions();
  for (const auto& y : model.outputs) {
    const GiNaC::ex e = y.expr.subs(variables);
    outputs_.emplace_back(e, slots_);
    operations_.push_back(output_operations(e));
    std::vector<Evaluator>& d_dx = d_dx_.emplace_back();
    for (const auto& x : model.states) d_dx.emplace_back(e.diff(GiNaC::ex_to<GiNaC::symbol>(x.symbol)), slots_);
    std::vector<Evaluator>& scaled = scaled_.emplace_back();
    const auto add = [&](const GiNaC::ex& v) {
      const GiNaC::ex rate = e.diff(GiNaC::ex_to<GiNaC::symbol>(v)) * v;
      if (!rate.is_zero()) scaled.emplace_back(rate, slots_);
    };
    for (const auto& u : model.inputs) add(u.symbol);
    for (const auto& p : model.parameters) add(p.symbol);
  }
}

OutputSensitivity::At OutputSensitivity::at(double t, const std::vector<double>& x,
                                            const std::vector<double>& u) const {
  std::vector<double> env{t};
  env.insert(env.end(), x.begin(), x.end());
  env.insert(env.end(), u.begin(), u.end());
  for (const auto& p : model_.parameters) env.push_back(p.value);
  const auto outputs = static_cast<Eigen::Index>(outputs_.size());
  const auto states = static_cast<Eigen::Index>(x.size());
  At a{Eigen::MatrixXd(outputs, states), Eigen::VectorXd(outputs)};
  for (Eigen::Index k = 0; k < outputs; ++k) {
    const auto ks = static_cast<std::size_t>(k);
    double terms = std::fabs(outputs_[ks](env.data()));
    for (Eigen::Index j = 0; j < states; ++j) {
      a.d_dx(k, j) = d_dx_[ks][static_cast<std::size_t>(j)](env.data());
      terms += std::fabs(a.d_dx(k, j) * x[static_cast<std::size_t>(j)]);
    }
    for (const Evaluator& s : scaled_[ks]) terms += std::fabs(s(env.data()));
    a.terms(k) = terms;
  }
  return a;
}

}  // namespace dualrate
