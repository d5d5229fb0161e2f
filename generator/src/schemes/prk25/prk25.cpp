#include "schemes/prk25/prk25.hpp"

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

// prk_reference_step in the arithmetic of S, as dualrate::Prk computes it: the stage
// coefficients h w (in S from the tableau's doubles) and times t + c h, a stage's right-hand
// side only where the tableau uses it and a term only for a non-zero coefficient.
template <class S>
std::vector<S> prk_step_in(const PrkTableau& t, const RightHandSideIn<S>& f, std::size_t slow, double time, S h,
                           const std::vector<S>& x) {
  const auto s = static_cast<std::size_t>(t.stages);
  const std::vector<double> c = t.c(), ch = t.c_fast();
  // The terms (h w) k of a stage's slow (`a` for n < slow) and fast rows added to `to`.
  const auto add = [&x, slow, h](std::vector<S>& to, double w_slow, double w_fast, const std::vector<S>& k) {
    for (std::size_t n = 0; n < x.size(); ++n) {
      const double w = n < slow ? w_slow : w_fast;
      if (w != 0) to[n] += h * S(w) * k[n];
    }
  };
  std::vector<std::vector<S>> k(s, std::vector<S>(x.size()));  // stage derivatives: slow rows F_i, fast rows G_i
  for (std::size_t i = 0; i < s; ++i) {
    if (!t.slow_used(i) && !t.fast_used(i)) continue;
    std::vector<S> stage = x;
    for (std::size_t j = 0; j < i; ++j) add(stage, t.a[i][j], t.a_fast[i][j], k[j]);
    std::vector<S> rate;
    if (t.slow_used(i)) {
      f(time + static_cast<double>(S(c[i]) * h), stage, rate);
      std::copy(rate.begin(), rate.begin() + static_cast<long>(slow), k[i].begin());
    }
    if (t.fast_used(i)) {
      f(time + static_cast<double>(S(ch[i]) * h), stage, rate);
      std::copy(rate.begin() + static_cast<long>(slow), rate.end(), k[i].begin() + static_cast<long>(slow));
    }
  }
  std::vector<S> next = x;
  for (std::size_t i = 0; i < s; ++i) add(next, t.b[i], t.b_fast[i], k[i]);
  return next;
}

}  // namespace

std::vector<double> prk_reference_step(const PrkTableau& t, const RightHandSide& f, std::size_t slow, double time,
                                       double h, const std::vector<double>& x) {
  return prk_step_in(t, f, slow, time, h, x);
}

StepCost prk_step_cost(const PrkTableau& t, const Model& model) {
  const long ns = static_cast<long>(model.slow_count);
  const long nf = static_cast<long>(model.fast_count());
  const OpCount slow_rate = derivative_ops(model, Rows::kSlow);
  const OpCount fast_rate = derivative_ops(model, Rows::kFast);
  // As dualrate::Prk computes it: per used stage i, its time t + c_i h (one add, one mul);
  // per non-zero coefficient w, h w (one mul) times a vector added to a partition.
  const auto term = [](long n) {
    OpCount c;
    c.add = n;
    c.mul = n + 1;
    return c;
  };
  StepCost c;
  const auto s = static_cast<std::size_t>(t.stages);
  const std::vector<double> c_slow = t.c(), c_fast = t.c_fast();
  int held_times = 0;  // stages past the step's start, where held inputs are evaluated
  for (std::size_t i = 0; i < s; ++i) {
    const bool slow_used = t.slow_used(i), fast_used = t.fast_used(i);
    if (slow_used || fast_used)
      for (std::size_t j = 0; j < i; ++j) {
        if (t.a[i][j] != 0) c.ops += term(ns);
        if (t.a_fast[i][j] != 0) c.ops += term(nf);
      }
    if (slow_used) {
      c.add_work(slow_rate);
      c.ops += arithmetic(1, 1, 0);
      if (c_slow[i] != 0) ++held_times;
    }
    if (fast_used) {
      c.add_work(fast_rate);
      c.ops += arithmetic(1, 1, 0);
      if (c_fast[i] != 0) ++held_times;
    }
    if (t.b[i] != 0) c.ops += term(ns);
    if (t.b_fast[i] != 0) c.ops += term(nf);
  }
  c.ops += held_input_ops(model, held_times);
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
      return prk_step_in(prk25_tableau(), m.f, slow, t, h, x);
    };
  };
  s.hooks.cost = [](const Model& model, const GenerateRequest&, const SchemeDesign&) {
    return prk_step_cost(prk25_tableau(), model);
  };
  return s;
}

}  // namespace dualrate
