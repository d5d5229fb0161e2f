// The loader's second-order form: coordinates, mass, forces and small, lowered to the
// first-order states every scheme runs (loader.hpp, model.hpp's SecondOrder).
#include "model/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/functions.hpp"

namespace dualrate::loading {

namespace {

const char* const kMassFormHint =
    "give 'diagonal: [m1, m2, ...]' for a diagonal mass matrix or 'rows: [[m11, m12], [m21, m22]]' for a full "
    "one, in the order of the coordinates";

}  // namespace

// The first-order states of a second-order model: every coordinate's position, then the
// velocities (name q_dot) of the coordinates with large inertia (slow), then those of the
// small-inertia coordinates (fast). Initial values are the coordinates' position and velocity.
void Loader::second_order_states(const std::map<std::string, KeyValue>& top, std::vector<Entry>& slow,
                                 std::vector<Entry>& fast) {
  const KeyValue& section = top.at("coordinates");
  const auto coords = entries(section.second, "coordinates");
  if (coords.empty())
    throw ModelError(at(section.first), "the model has no coordinates",
                     "list each generalized coordinate with its initial values, as in 'x: {position: 0, velocity: 0}'");
  SecondOrder so;
  for (const auto& c : coords) so.coordinates.push_back(c.name);
  if (top.count("small")) read_small(top.at("small"), so);
  std::vector<Entry> velocities;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    const Entry& c = coords[i];
    const auto k = keys(c.value, kCoordinateKeys, "coordinate '" + c.name + "'", c.key);
    for (const auto& need : kCoordinateKeys)
      if (!k.count(need))
        throw ModelError(at(c.key), "coordinate '" + c.name + "' has no initial " + need,
                         "write '" + c.name + ": {position: 0, velocity: 0}' with its initial values");
    slow.push_back({c.name, c.key, k.at("position").second});
    Entry v{c.name + "_dot", c.key, k.at("velocity").second};
    (std::count(so.small.begin(), so.small.end(), i) ? fast : velocities).push_back(v);
  }
  slow.insert(slow.end(), velocities.begin(), velocities.end());
  model_.second_order = so;
  if (!top.count("states")) return;
  const auto states = keys(top.at("states").second, kStateKeys, "states", top.at("states").first);
  if (states.count("fast"))
    throw ModelError(at(states.at("fast").first), "fast first-order states in a second-order model",
                     "the fast states of a second-order model are the velocities of its small coordinates (small: "
                     "coordinates); list added first-order states under states: slow:");
  if (states.count("slow")) {
    const auto extra = entries(states.at("slow").second, "states.slow");
    slow.insert(slow.end(), extra.begin(), extra.end());
  }
}

void Loader::read_small(const KeyValue& section, SecondOrder& so) {
  const auto k = keys(section.second, kSmallKeys, "small", section.first);
  so.small_loc = at(section.first);
  const std::string hint = "list the coordinates whose inertia is small, as in 'coordinates: [zl, zr]'";
  if (!k.count("coordinates")) throw ModelError(at(section.first), "small has no coordinates", hint);
  const YAML::Node& list = k.at("coordinates").second;
  if (!list.IsSequence() || list.size() == 0)
    throw ModelError(at(list.IsNull() ? k.at("coordinates").first : list),
                     "small.coordinates must be a list of coordinate names", hint);
  for (const auto& item : list) {
    if (!item.IsScalar()) throw ModelError(at(item), "small.coordinates must be a list of coordinate names", hint);
    const std::string name = item.Scalar();
    const auto it = std::find(so.coordinates.begin(), so.coordinates.end(), name);
    if (it == so.coordinates.end())
      throw ModelError(at(item), "small coordinate '" + name + "' is not a coordinate",
                       did_you_mean(name, so.coordinates, "the coordinates are: " + join(so.coordinates)));
    const auto index = static_cast<std::size_t>(it - so.coordinates.begin());
    if (std::count(so.small.begin(), so.small.end(), index))
      throw ModelError(at(item), "small coordinate '" + name + "' is listed twice");
    so.small.push_back(index);
  }
  if (so.small.size() == so.coordinates.size())
    throw ModelError(at(list), "every coordinate is small",
                     "the small coordinates are the ones whose inertia is small against the others'");
  if (k.count("parameter")) {
    so.small_parameter = scalar(k.at("parameter"), "small.parameter");
    small_parameter_node_ = k.at("parameter").second;
  }
}

// Each coordinate's force becomes a variable named q_force (so that it is evaluated once).
void Loader::force_entries(const std::map<std::string, KeyValue>& top, std::vector<Entry>& vars) {
  const auto& coordinates = model_.second_order->coordinates;
  const KeyValue& section = top.at("forces");
  const auto forces = keys(section.second, coordinates, "forces", section.first);
  std::vector<std::string> missing;
  for (const auto& c : coordinates)
    if (!forces.count(c)) missing.push_back(c);
  if (!missing.empty())
    throw ModelError(at(section.first),
                     "missing force for coordinate" + std::string(missing.size() > 1 ? "s " : " ") + join(missing),
                     "each coordinate needs its generalized force f in M q'' = f");
  for (const auto& c : coordinates) vars.push_back({c + "_force", forces.at(c).first, forces.at(c).second});
}

// The mass matrix (constant: numbers and parameters), checked symmetric and positive
// definite, and the first-order equations: q' = q_dot, q_dot' = (M^-1 f)_q.
void Loader::read_second_order(const std::map<std::string, KeyValue>& top) {
  SecondOrder& so = *model_.second_order;
  if (!so.small_parameter.empty() && !is(so.small_parameter, NameKind::kParameter)) {
    std::vector<std::string> names;
    for (const auto& p : model_.parameters) names.push_back(p.name);
    throw ModelError(at(small_parameter_node_), "small.parameter '" + so.small_parameter + "' is not a parameter",
                     did_you_mean(so.small_parameter, names,
                                  "name the parameter that makes the small inertia small, as in 'parameter: m_N'"));
  }
  const std::size_t n = so.coordinates.size();
  const Eigen::MatrixXd m = read_mass(top.at("mass"), so);

  std::vector<SourceLoc> force_locs;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& c = so.coordinates[i];
    const auto index = [&](const std::string& name) {
      for (std::size_t s = 0; s < model_.states.size(); ++s)
        if (model_.states[s].name == name) return s;
      throw std::logic_error("second-order state " + name + " was not defined");
    };
    so.position.push_back(index(c));
    so.velocity.push_back(index(c + "_dot"));
    for (const auto& v : model_.variables)
      if (v.name == c + "_force") {
        so.forces.push_back(v.symbol);
        force_locs.push_back(v.loc);
      }
  }
  const std::vector<GiNaC::ex> accelerations =
      so.diagonal || so.constant_mass ? constant_accelerations(m) : solve_accelerations(top.at("mass"));
  for (std::size_t i = 0; i < n; ++i) {
    State& q = model_.states[so.position[i]];
    State& v = model_.states[so.velocity[i]];
    q.rhs = v.symbol;
    q.rhs_loc = q.loc;
    v.rhs = accelerations[i];
    v.rhs_loc = force_locs[i];
  }
}

// (M^-1 f)_q for a diagonal M (divided by the entry) or a constant one (M^-1 from the
// parameter values, `m`).
std::vector<GiNaC::ex> Loader::constant_accelerations(const Eigen::MatrixXd& m) const {
  const SecondOrder& so = *model_.second_order;
  const std::size_t n = so.coordinates.size();
  std::vector<GiNaC::ex> a(n, 0);
  if (so.diagonal) {
    for (std::size_t i = 0; i < n; ++i) a[i] = so.forces[i] / so.mass[i][i];
    return a;
  }
  const Eigen::MatrixXd inverse = m.llt().solve(Eigen::MatrixXd::Identity(m.rows(), m.cols()));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double w = inverse(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
      if (w != 0) a[i] += GiNaC::numeric(w) * so.forces[j];
    }
  return a;
}

// A full mass matrix that depends on the coordinates: the accelerations are variables
// q_ddot solved together at run time (Variable::solved), their expressions M(q)^-1 f
// symbolically.
std::vector<GiNaC::ex> Loader::solve_accelerations(const KeyValue& section) {
  SecondOrder& so = *model_.second_order;
  const std::size_t n = so.coordinates.size();
  if (n > kMaxSolvedCoordinates)
    throw ModelError(at(section.first),
                     fmt::format("a mass matrix that depends on the coordinates is supported for at most {} "
                                 "coordinates, not {}",
                                 kMaxSolvedCoordinates, n),
                     "the analysis differentiates its symbolic inverse, which grows like n!; make the matrix "
                     "constant or diagonal, or split the model");
  GiNaC::matrix mass(static_cast<unsigned>(n), static_cast<unsigned>(n));
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) mass(i, j) = so.mass[i][j];
  const GiNaC::matrix inverse = mass.inverse();
  for (std::size_t i = 0; i < n; ++i) {
    GiNaC::ex a = 0;
    for (std::size_t j = 0; j < n; ++j) a += inverse(static_cast<unsigned>(i), static_cast<unsigned>(j)) * so.forces[j];
    Variable v{define({so.coordinates[i] + "_ddot", section.first, section.second}, NameKind::kAcceleration), a, true,
               so.mass_loc};
    so.accelerations.push_back(v.symbol);
    model_.variables.push_back(std::move(v));
  }
  return so.accelerations;
}

Eigen::MatrixXd Loader::read_mass(const KeyValue& section, SecondOrder& so) {
  const std::size_t n = so.coordinates.size();
  const auto size = static_cast<Eigen::Index>(n);
  so.mass_loc = at(section.first);
  const auto k = keys(section.second, kMassKeys, "mass", section.first);
  if (k.size() != 1)
    throw ModelError(at(section.first), "mass needs exactly one of 'diagonal' and 'rows'", kMassFormHint);
  so.diagonal = k.count("diagonal") > 0;
  so.mass.assign(n, std::vector<GiNaC::ex>(n, GiNaC::ex(0)));
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(size, size);
  // Entries may use the coordinates (not their velocities); checks hold at the initial positions.
  GiNaC::exmap start;
  for (const auto& x : model_.states)
    if (is(x.name, NameKind::kCoordinate)) start[x.symbol] = GiNaC::numeric(x.initial_value);
  if (so.diagonal) {
    const KeyValue& d = k.at("diagonal");
    check_mass_entries(d, "mass.diagonal", so);
    for (std::size_t i = 0; i < n; ++i)
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) = read_mass_entry(d.second[i], i, i, start, so);
    for (std::size_t i = 0; i < n; ++i)
      if (!(m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) > 0))
        throw ModelError(at(d.second[i]),
                         "the mass of coordinate '" + so.coordinates[i] + "' is not positive" + initially(so),
                         "a mass matrix must be positive definite");
    return m;
  }
  const KeyValue& rows = k.at("rows");
  check_mass_entries(rows, "mass.rows", so);
  for (std::size_t i = 0; i < n; ++i) {
    const YAML::Node row = rows.second[i];
    check_mass_entries({row, row}, "row " + std::to_string(i + 1) + " of mass.rows", so);
    for (std::size_t j = 0; j < n; ++j)
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = read_mass_entry(row[j], i, j, start, so);
  }
  check_mass_symmetric(rows, m, so);
  check_mass_positive_definite(section, m, so);
  return m;
}

double Loader::read_mass_entry(const YAML::Node& node, std::size_t i, std::size_t j, const GiNaC::exmap& start,
                               SecondOrder& so) {
  const std::string what = "mass matrix entry (" + so.coordinates[i] + ", " + so.coordinates[j] + ")";
  ExpressionScope scope = parameter_scope(what, model_.parameters.size());
  for (const auto& x : model_.states)
    if (is(x.name, NameKind::kCoordinate)) {
      scope.forbidden.erase(x.name);
      scope.allowed[x.name] = x.symbol;
    }
  for (auto& [name, why] : scope.forbidden)
    if (is(name, NameKind::kVelocity))
      why = "'" + name + "' is a velocity; " + what + " may use numbers, parameters and coordinates";
  so.mass[i][j] = expression(node, node, scope);
  for (const auto& [q, value] : start) so.constant_mass = so.constant_mass && !so.mass[i][j].has(q);
  return evaluate(so.mass[i][j].subs(start), node, what + " at the initial positions");
}

void Loader::check_mass_entries(const KeyValue& kv, const std::string& what, const SecondOrder& so) const {
  const std::size_t n = so.coordinates.size();
  if (!kv.second.IsSequence() || kv.second.size() != n)
    throw ModelError(at(kv.second.IsNull() ? kv.first : kv.second),
                     what + " needs " + std::to_string(n) + " entries, one per coordinate (" + join(so.coordinates) +
                         ")" + (kv.second.IsSequence() ? ", not " + std::to_string(kv.second.size()) : ""),
                     kMassFormHint);
}

void Loader::check_mass_symmetric(const KeyValue& rows, const Eigen::MatrixXd& m, const SecondOrder& so) const {
  const std::size_t n = so.coordinates.size();
  const auto size = static_cast<Eigen::Index>(n);
  // Symmetry to rounding: entries written differently (m2*L and L*m2/1) may differ in the
  // last bits; 1e-12 relative is far below any asymmetry a model could mean.
  for (Eigen::Index i = 0; i < size; ++i)
    for (Eigen::Index j = i + 1; j < size; ++j)
      if (std::abs(m(i, j) - m(j, i)) > 1e-12 * std::max(std::abs(m(i, j)), std::abs(m(j, i))))
        throw ModelError(at(rows.second[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)]),
                         fmt::format("the mass matrix is not symmetric{}: entry ({}, {}) is {:.17g}, entry ({}, {}) is "
                                     "{:.17g}",
                                     initially(so), so.coordinates[static_cast<std::size_t>(j)],
                                     so.coordinates[static_cast<std::size_t>(i)], m(j, i),
                                     so.coordinates[static_cast<std::size_t>(i)],
                                     so.coordinates[static_cast<std::size_t>(j)], m(i, j)),
                         "a mass matrix is symmetric: write the same expression on both sides of the diagonal");
  // Of the coordinates: also away from the initial positions, symbolically.
  for (std::size_t i = 0; i < n && !so.constant_mass; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (!(so.mass[i][j] - so.mass[j][i]).expand().is_zero() &&
          !(so.mass[i][j] - so.mass[j][i]).subs(model_.parameter_values()).normal().is_zero())
        throw ModelError(at(rows.second[j][i]),
                         "the mass matrix is not symmetric: entry (" + so.coordinates[j] + ", " + so.coordinates[i] +
                             ") differs from entry (" + so.coordinates[i] + ", " + so.coordinates[j] +
                             ") away from the initial positions",
                         "a mass matrix is symmetric: write the same expression on both sides of the diagonal");
}

void Loader::check_mass_positive_definite(const KeyValue& section, const Eigen::MatrixXd& m,
                                          const SecondOrder& so) const {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m, Eigen::EigenvaluesOnly);
  const double smallest = eig.eigenvalues().minCoeff(), largest = eig.eigenvalues().maxCoeff();
  // Numerically positive definite: the smallest eigenvalue above the rounding of the largest.
  if (!(smallest > static_cast<double>(so.coordinates.size()) * std::numeric_limits<double>::epsilon() * largest))
    throw ModelError(at(section.first),
                     fmt::format("the mass matrix is not positive definite{}: its smallest eigenvalue is {:.6g} "
                                 "(largest {:.6g})",
                                 initially(so), smallest, largest),
                     "a mass matrix is symmetric positive definite (kinetic energy q_dot' M q_dot / 2 > 0); check "
                     "the off-diagonal couplings against the diagonal");
}

}  // namespace dualrate::loading
