#include "schemes/prk25/prk25.hpp"

#include <tuple>

#include "ir/counted_arithmetic.hpp"
#include "ir/function_cost.hpp"

#include <dualrate/schemes/prk.hpp>

namespace dualrate {

namespace {

std::vector<double> row_sums(const std::vector<std::vector<double>>& a) {
  std::vector<double> c;
  for (const auto& row : a) {
    double s = 0;
    for (double v : row) s += v;
    c.push_back(s);
  }
  return c;
}

template <class T>
PrkTableau from_runtime() {
  PrkTableau t;
  t.stages = T::kStages;
  for (int i = 0; i < T::kStages; ++i) {
    t.a.emplace_back(T::a[i], T::a[i] + T::kStages);
    t.a_fast.emplace_back(T::a_fast[i], T::a_fast[i] + T::kStages);
  }
  t.b.assign(T::b, T::b + T::kStages);
  t.b_fast.assign(T::b_fast, T::b_fast + T::kStages);
  return t;
}

bool used(const std::vector<std::vector<double>>& a, const std::vector<double>& b, std::size_t i) {
  bool u = b[i] != 0;
  for (std::size_t k = i + 1; k < b.size(); ++k) u = u || a[k][i] != 0;
  return u;
}

double dot(const std::vector<double>& u, const std::vector<double>& v) {
  double s = 0;
  for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
  return s;
}

std::vector<double> times(const std::vector<std::vector<double>>& a, const std::vector<double>& v) {
  std::vector<double> r;
  r.reserve(a.size());
  for (const auto& row : a) r.push_back(dot(row, v));
  return r;
}

}  // namespace

std::vector<double> PrkTableau::c() const { return row_sums(a); }
std::vector<double> PrkTableau::c_fast() const { return row_sums(a_fast); }
bool PrkTableau::slow_used(std::size_t i) const { return used(a, b, i); }
bool PrkTableau::fast_used(std::size_t i) const { return used(a_fast, b_fast, i); }

const PrkTableau& prk25_tableau() {
  static const PrkTableau t = from_runtime<Prk25Tableau>();
  return t;
}

std::vector<TableauCondition> prk25_conditions(const PrkTableau& t) {
  const std::vector<double> ones(static_cast<std::size_t>(t.stages), 1.0);
  const std::vector<double> c = t.c(), ch = t.c_fast();
  std::vector<TableauCondition> r = {
      {"sum b = 1", dot(t.b, ones), 1.0},
      {"b.c = 1/2", dot(t.b, c), 0.5},
      {"sum b_fast = 1", dot(t.b_fast, ones), 1.0},
      {"b_fast.c_fast = 1/2", dot(t.b_fast, ch), 0.5},
      {"b.c_fast = 1/2 (coupling)", dot(t.b, ch), 0.5},
      {"b_fast.c = 1/2 (coupling)", dot(t.b_fast, c), 0.5},
  };
  // Table 5, s = 5: beta3 = 3/16, beta4 = 1/32, beta5 = 1/128.
  const double beta[] = {3.0 / 16, 1.0 / 32, 1.0 / 128};
  std::vector<double> v = ch;
  for (int k = 3; k <= 5; ++k) {
    v = times(t.a_fast, v);
    r.push_back({"b_fast A_fast^" + std::to_string(k - 2) + " c_fast = beta" + std::to_string(k), dot(t.b_fast, v),
                 beta[k - 3]});
  }
  return r;
}

std::complex<double> stability_function(const std::vector<std::vector<double>>& a, const std::vector<double>& b,
                                        std::complex<double> z) {
  // Stage values of y' = y from y0 = 1 with step z: Y_i = 1 + z sum_j a_ij Y_j (explicit).
  std::vector<std::complex<double>> y;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::complex<double> s = 1;
    for (std::size_t j = 0; j < i; ++j) s += z * a[i][j] * y[j];
    y.push_back(s);
  }
  std::complex<double> r = 1;
  for (std::size_t i = 0; i < b.size(); ++i) r += z * b[i] * y[i];
  return r;
}

namespace {

// prk_reference_step in the arithmetic of S with stage times in Time, as dualrate::Prk computes
// it: the stage coefficients h w (in S from the tableau's doubles) and times t + c h (t itself
// where c = 0), a partition's right-hand side only at the stages that use it and a term only for
// a non-zero coefficient. rates.slow(t, stage, d) and rates.fast(t, stage, d) write one
// partition's derivatives into d's rows of that partition.
template <class S, class Time, class Rates>
std::vector<S> prk_step_in(const PrkTableau& t, const Rates& rates, std::size_t slow, Time time, S h,
                           const std::vector<S>& x) {
  const auto s = static_cast<std::size_t>(t.stages);
  const std::vector<double> c = t.c(), ch = t.c_fast();
  // The terms (h w) k of a stage's slow (`a` for n < slow) and fast rows added to `to`.
  const auto add = [&x, slow, h](std::vector<S>& to, double w_slow, double w_fast, const std::vector<S>& k) {
    for (const auto& [w, first, end] : {std::tuple{w_slow, std::size_t{0}, slow}, std::tuple{w_fast, slow, x.size()}}) {
      if (w == 0) continue;
      const S hw = h * S(w);
      for (std::size_t n = first; n < end; ++n) to[n] = to[n] + hw * k[n];
    }
  };
  const auto at = [time, h](double abscissa) { return abscissa == 0 ? time : time + Time(S(abscissa) * h); };
  std::vector<std::vector<S>> k(s, std::vector<S>(x.size()));  // stage derivatives: slow rows F_i, fast rows G_i
  for (std::size_t i = 0; i < s; ++i) {
    if (!t.slow_used(i) && !t.fast_used(i)) continue;
    std::vector<S> stage = x;
    for (std::size_t j = 0; j < i; ++j) add(stage, t.a[i][j], t.a_fast[i][j], k[j]);
    if (t.slow_used(i)) rates.slow(at(c[i]), stage, k[i]);
    if (t.fast_used(i)) rates.fast(at(ch[i]), stage, k[i]);
  }
  std::vector<S> next = x;
  for (std::size_t i = 0; i < s; ++i) add(next, t.b[i], t.b_fast[i], k[i]);
  return next;
}

// A model's right-hand side in T, one partition at a time (prk_step_in's rates).
template <class T>
struct PartitionRates {
  const RightHandSideIn<T>& f;
  std::size_t split;
  void slow(double t, const std::vector<T>& x, std::vector<T>& d) const { rows(t, x, d, 0, split); }
  void fast(double t, const std::vector<T>& x, std::vector<T>& d) const { rows(t, x, d, split, x.size()); }
  void rows(double t, const std::vector<T>& x, std::vector<T>& d, std::size_t from, std::size_t to) const {
    std::vector<T> rate;
    f(t, x, rate);
    std::copy(rate.begin() + static_cast<long>(from), rate.begin() + static_cast<long>(to),
              d.begin() + static_cast<long>(from));
  }
};

// The runtime's partition rates at their emitted cost (slow_derivatives, fast_derivatives), and
// the held inputs evaluated at a stage time past the step's start: prk_step_cost starts the step
// at a time that counts nowhere, so those are the times that carry a count.
struct CountedRates {
  const Model& model;
  StepCost& cost;
  void slow(const CountedScalar& t, const std::vector<CountedScalar>&, std::vector<CountedScalar>&) const {
    evaluate(t, Rows::kSlow);
  }
  void fast(const CountedScalar& t, const std::vector<CountedScalar>&, std::vector<CountedScalar>&) const {
    evaluate(t, Rows::kFast);
  }
  void evaluate(const CountedScalar& t, Rows rows) const {
    cost.add_work(derivative_ops(model, rows));
    if (t.ops()) cost.ops += held_input_evaluation_ops(model);
  }
};

}  // namespace

std::vector<double> prk_reference_step(const PrkTableau& t, const RightHandSide& f, std::size_t slow, double time,
                                       double h, const std::vector<double>& x) {
  return prk_step_in(t, PartitionRates<double>{f, slow}, slow, time, h, x);
}

StepCost prk_step_cost(const PrkTableau& t, const Model& model) {
  StepCost c;
  c.ops += held_input_ops(model, 0);  // the held inputs' polynomials, formed before the step
  const CountedScalar h(c.ops);
  prk_step_in(t, CountedRates{model, c}, model.slow_count, CountedScalar(), h,
              std::vector<CountedScalar>(model.states.size(), h));
  return c;
}

SchemeInfo prk25_scheme() {
  // 2 slow and 5 fast evaluations: counted as 5 full ones for the float tolerance.
  SchemeInfo s;
  s.identity.name = "prk25";
  s.identity.runtime_class = "dualrate::Prk25";
  s.identity.header = "dualrate/schemes/prk.hpp";
  s.traits.order = 2;
  s.identity.summary = "dual-rate partitioned Runge-Kutta, 2-stage slow and 5-stage fast tableau, seed 003";
  s.traits.evaluations = 5;
  s.traits.held_inputs = true;  // each partition's stages take them at their own abscissae
  s.traits.hold_degree = 1;     // second order: a linear hold keeps it
  s.hooks.reference_step = [](const ReferenceSetup& setup, double) -> ReferenceStep {
    return [slow = setup.slow](const RightHandSide& f, double t, double h, const std::vector<double>& x) {
      return prk_reference_step(prk25_tableau(), f, slow, t, h, x);
    };
  };
  s.hooks.float_reference = [](const ReferenceSetup& setup, double) -> FloatStep {
    return [slow = setup.slow](const FloatModel& m, double t, float h, const std::vector<float>& x) {
      return prk_step_in(prk25_tableau(), PartitionRates<float>{m.f, slow}, slow, t, h, x);
    };
  };
  s.hooks.cost = [](const Model& model, const GenerateRequest&, const SchemeDesign&) {
    return prk_step_cost(prk25_tableau(), model);
  };
  return s;
}

}  // namespace dualrate
