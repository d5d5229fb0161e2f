#include "emit/calibration.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>

#include "model/printing.hpp"
#include "model/scalar_type.hpp"
#include "model/tunable.hpp"

namespace dualrate {

namespace {

std::string scalar_name(const GenerateRequest& o) { return to_string(o.scalar); }

std::vector<const Table*> tunable_tables(const Model& m) {
  std::vector<const Table*> out;
  for (const auto& t : m.tables)
    if (t->tunable) out.push_back(t.get());
  return out;
}

std::string limits(double min, double max, const std::string& unit) {
  return fmt::format("in [{}, {}]{}", min, max, unit.empty() ? "" : " " + unit);
}

// A tunable parameter's or table's value as the header's scalar holds it within its limits.
double initial_value(double v, double min, double max, ScalarType s) {
  return in_scalar_limits(v, scalar_limits(min, max, s), s);
}

// The number of values in a Calibration (a table's values one by one).
std::size_t calibration_value_count(const Model& m) {
  std::size_t n = 0;
  for (const auto& p : m.parameters) n += p.tunable ? 1 : 0;
  for (const Table* t : tunable_tables(m)) n += t->values.size();
  return n;
}

std::int32_t recomputed_index(const Model& m, const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = calibration_value_count(m); i < names.size(); ++i)
    if (names[i] == name) return static_cast<std::int32_t>(i);
  throw std::logic_error("recalibration: no recomputed value " + name);
}

// The matrices a recomputation writes into the constants, with their sizes.
struct Stored {
  std::string name;
  long rows, cols;
};

// Each matrix a design's recomputation names, with its size.
std::map<std::string, std::pair<long, long>> recompute_sizes(const SchemeDesign& d) {
  std::map<std::string, std::pair<long, long>> size;
  for (const auto& s : d.recompute) {
    using K = RecomputeStep::Kind;
    std::pair<long, long> rc{s.rows, s.cols};
    if (s.kind == K::kInverse || s.kind == K::kSum || s.kind == K::kPhiBlocks || s.kind == K::kExponential)
      rc = size.at(s.in.at(0));
    if (s.kind == K::kProduct) rc = {size.at(s.in.at(0)).first, size.at(s.in.at(1)).second};
    for (const auto& o : s.out) size[o] = rc;
  }
  return size;
}

std::vector<Stored> stored_matrices(const SchemeDesign& d) {
  const auto size = recompute_sizes(d);
  std::vector<Stored> out;
  for (const auto& m : d.matrices)
    if (recomputed(d, m.name)) out.push_back({m.name, size.at(m.name).first, size.at(m.name).second});
  return out;
}

std::string calibration_struct(const Model& m, const std::string& scalar) {
  std::string s =
      "// The model's tunable values (docs/calibration.md), as a calibration tool writes them: each\n"
      "// tunable parameter, then each tunable table's values. The step follows a change once\n"
      "// calibrate() has checked it and computed the constants that depend on it.\n"
      "struct Calibration {\n";
  for (const auto& p : m.parameters)
    if (p.tunable) s += fmt::format("  {} {};  // {}\n", scalar, p.cpp(), limits(p.min, p.max, p.unit));
  for (const Table* t : tunable_tables(m))
    s += fmt::format("  {} {}[{}];  // table {}'s values, {}\n", scalar, cpp_name(t->name), t->values.size(), t->name,
                     limits(t->min, t->max, ""));
  return s + "};\n";
}

// A tunable table's values as the scalar holds them within its limits: "{v0, v1, ...}".
std::string table_values(const Table& t, ScalarType scalar) {
  std::string s = "{";
  for (std::size_t i = 0; i < t.values.size(); ++i)
    s += (i ? ", " : "") + typed_literal(initial_value(t.values[i], t.min, t.max, scalar), to_string(scalar));
  return s + "}";
}

// The brace-enclosed values of a Calibration (each as the scalar holds it within its limits),
// its lines indented by `indent`.
std::string calibration_initializer(const Model& m, ScalarType scalar, const std::string& indent = "") {
  const std::string type = to_string(scalar);
  std::string s = "{\n";
  for (const auto& p : m.parameters)
    if (p.tunable)
      s += fmt::format("{}    {},  // {}\n", indent, typed_literal(initial_value(p.value, p.min, p.max, scalar), type),
                       p.name);
  for (const Table* t : tunable_tables(m))
    s += fmt::format("{}    {},  // {}\n", indent, table_values(*t, scalar), t->name);
  return s + indent + "}";
}

std::string constants_struct(const Model& m, const SchemeDesign& d, const std::string& scalar) {
  std::string s =
      "// Everything the step reads that follows the calibration, computed from one Calibration by\n"
      "// recalibrate(): the step reads the active set, which it replaces only at its start.\n"
      "struct Constants {\n"
      "  Calibration values;  // the values these constants were computed from\n"
      "  struct Parameters {\n";
  for (const Parameter* p : calibrated_parameters(m))
    s += fmt::format("    {} {};{}\n", scalar, p->cpp(), p->tunable ? "" : "  // " + cpp_expression(p->expr));
  for (const Table* t : tunable_tables(m))
    s += fmt::format("    {} {}[{}];\n", scalar, cpp_array(t->name, "values"), t->values.size());
  s += "  } parameters;\n";
  for (const Stored& st : stored_matrices(d))
    s += fmt::format("  {} {}[{}];  // {} x {}, row by row\n", scalar, st.name, st.rows * st.cols, st.rows, st.cols);
  return s + "};\n";
}

std::string constants_initializer(const Model& m, const SchemeDesign& d, ScalarType type) {
  const std::string scalar = to_string(type);
  std::string s =
      "inline Constants active_constants = {\n    " + calibration_initializer(m, type, "    ") + ",\n    {\n";
  for (const Parameter* p : calibrated_parameters(m)) {
    const double v = p->tunable ? initial_value(p->value, p->min, p->max, type) : p->value;
    s += fmt::format("        {},  // {}\n", typed_literal(v, scalar), p->name);
  }
  for (const Table* t : tunable_tables(m)) s += fmt::format("        {},  // {}\n", table_values(*t, type), t->name);
  s += "    },\n";
  for (const Stored& st : stored_matrices(d)) {
    const Eigen::MatrixXd& v = named(d.matrices, st.name).value;
    s += "    {";
    for (long r = 0; r < st.rows; ++r)
      for (long c = 0; c < st.cols; ++c) s += (r + c ? ", " : "") + typed_literal(v(r, c), scalar);
    s += fmt::format("}},  // {}\n", st.name);
  }
  return s + "};\n";
}

// `if (const auto s_ = check(...); !s_.applied()) return s_;` for each tunable value, its
// limits rounded inward to the scalar, its index among the Calibration's values.
std::string value_checks(const Model& m, ScalarType scalar) {
  const std::string type = to_string(scalar);
  const auto bounds = [&](double min, double max) {
    const ScalarLimits l = scalar_limits(min, max, scalar);
    return typed_literal(l.min, type) + ", " + typed_literal(l.max, type);
  };
  std::string s;
  std::int32_t index = 0;
  for (const auto& p : m.parameters)
    if (p.tunable)
      s += fmt::format("  if (const Status s_ = check(v_.{}, {}, {}); !s_.applied()) return s_;\n", p.cpp(),
                       bounds(p.min, p.max), index++);
  for (const Table* t : tunable_tables(m)) {
    s += fmt::format("  for (std::int32_t i_ = 0; i_ < {}; ++i_)\n", t->values.size());
    s += fmt::format("    if (const Status s_ = check(v_.{}[i_], {}, {} + i_); !s_.applied()) return s_;\n",
                     cpp_name(t->name), bounds(t->min, t->max), index);
    index += static_cast<std::int32_t>(t->values.size());
  }
  return s;
}

// Refuses the set when a derived parameter (a double local) is not finite in the header's scalar.
std::string derived_checks(const Model& m, const std::vector<std::string>& names, const std::string& scalar) {
  std::string s;
  for (const Parameter* p : calibrated_parameters(m))
    if (!p->tunable)
      s += fmt::format(
          "  if (!dualrate::calibration::finite_in<{}>({})) "
          "return {{Result::kRecomputedNotFinite, {}}};\n",
          scalar, p->cpp(), recomputed_index(m, names, p->name));
  return s;
}

// The calibrated parameters as double locals: tunable ones from v, derived ones from their
// expressions (with the fixed parameters they use as literals before them).
std::string parameter_locals(const Model& m) {
  std::vector<const Parameter*> calibrated = calibrated_parameters(m);
  std::set<std::string> fixed_used;
  for (const Parameter* p : calibrated)
    for (const auto& q : m.parameters)
      if (!q.tunable && !depends_on_tunable(m, q) && p->expr.has(q.symbol)) fixed_used.insert(q.name);
  std::string s;
  for (const auto& q : m.parameters)
    if (fixed_used.count(q.name)) s += fmt::format("  const Scalar {} = {};\n", q.cpp(), scalar_literal(q.value));
  for (const Parameter* p : calibrated)
    s += p->tunable ? fmt::format("  const Scalar {0} = Scalar(v_.{0});\n", p->cpp())
                    : fmt::format("  const Scalar {} = {};\n", p->cpp(), cpp_expression(p->expr));
  return s;
}

std::string matrix_type(std::pair<long, long> size) {
  return fmt::format("Eigen::Matrix<Scalar, {}, {}{}>", size.first, size.second,
                     size.second > 1 && size.first == 1 ? ", Eigen::RowMajor" : "");
}

// The design's recomputation, each step's matrices as double locals, each output refused when
// not finite in the header's scalar; `names` indexes the refusals (status_value_names).
std::string recompute_statements(const Model& m, const SchemeDesign& d, const std::vector<std::string>& names,
                                 const std::string& scalar) {
  const auto size = recompute_sizes(d);
  // Each matrix a local named NAME_: no model name ends in '_', so none is shadowed.
  const auto local = [](const std::string& name) { return name + "_"; };
  std::string s;
  using K = RecomputeStep::Kind;
  for (const auto& st : d.recompute) {
    const std::string out = local(st.out.at(0));
    const std::string type = matrix_type(size.at(st.out.at(0)));
    switch (st.kind) {
      case K::kEvaluate:
        s += fmt::format("  {} {};\n", type, out);
        for (long k = 0; k < st.rows * st.cols; ++k)
          s += fmt::format("  {}({}, {}) = {};\n", out, k / st.cols, k % st.cols,
                           cpp_expression(st.entries[static_cast<std::size_t>(k)]));
        break;
      case K::kInverse:
        s += fmt::format(
            "  {} {};\n  if (!dualrate::calibration::invert({}, {}))\n"
            "    return {{Result::kNotComputable, {}}};\n",
            type, out, local(st.in.at(0)), out, recomputed_index(m, names, st.out.at(0)));
        break;
      case K::kProduct:
        s += fmt::format("  const {} {} = {}.lazyProduct({});\n", type, out, local(st.in.at(0)), local(st.in.at(1)));
        break;
      case K::kSum:
        s += fmt::format("  const {} {} = {} + {};\n", type, out, local(st.in.at(0)), local(st.in.at(1)));
        break;
      case K::kExponential:
        s += fmt::format("  const {} {} = dualrate::expm::exponential<{}, {}>({}({} * {}));\n", type, out, st.degree,
                         st.squarings, type, scalar_literal(st.step), local(st.in.at(0)));
        break;
      case K::kPhiBlocks:
        s += fmt::format("  {} {}, {}, {};\n", type, out, local(st.out.at(1)), local(st.out.at(2)));
        s += fmt::format("  dualrate::expm::phi_blocks<{}, {}>({}, {}, {}, {}, {});\n", st.degree, st.squarings,
                         local(st.in.at(0)), scalar_literal(st.step), out, local(st.out.at(1)), local(st.out.at(2)));
        break;
    }
    for (const std::string& o : st.out)
      s += fmt::format(
          "  if (!dualrate::calibration::all_finite_in<{}>({})) "
          "return {{Result::kRecomputedNotFinite, {}}};\n",
          scalar, local(o), recomputed_index(m, names, o));
  }
  return s;
}

// Stores the values, the parameters and the recomputed matrices into out.
std::string stores(const Model& m, const SchemeDesign& d, const std::string& scalar) {
  std::string s = "  out_.values = v_;\n";
  for (const Parameter* p : calibrated_parameters(m))
    s += fmt::format("  out_.parameters.{0} = {1}({0});\n", p->cpp(), scalar);
  for (const Table* t : tunable_tables(m))
    s += fmt::format("  for (int i_ = 0; i_ < {0}; ++i_) out_.parameters.{1}[i_] = v_.{2}[i_];\n", t->values.size(),
                     cpp_array(t->name, "values"), cpp_name(t->name));
  for (const Stored& st : stored_matrices(d))
    s += fmt::format(
        "  for (int r_ = 0; r_ < {0}; ++r_)\n"
        "    for (int c_ = 0; c_ < {1}; ++c_) out_.{2}[r_ * {1} + c_] = {3}({2}_(r_, c_));\n",
        st.rows, st.cols, st.name, scalar);
  return s;
}

}  // namespace

std::vector<std::string> status_value_names(const Model& m, const SchemeDesign& d) {
  std::vector<std::string> names;
  for (const auto& p : m.parameters)
    if (p.tunable) names.push_back(p.name);
  for (const Table* t : tunable_tables(m))
    for (std::size_t i = 0; i < t->values.size(); ++i) names.push_back(fmt::format("{}[{}]", t->name, i));
  for (const Parameter* p : calibrated_parameters(m))
    if (!p->tunable) names.push_back(p->name);
  for (const auto& st : d.recompute) names.insert(names.end(), st.out.begin(), st.out.end());
  return names;
}

std::string recalibration_function(const Model& m, const GenerateRequest& request, const SchemeDesign& design) {
  const std::vector<std::string> names = status_value_names(m, design);
  const std::string scalar = scalar_name(request);
  std::string s =
      "// The values a Status names by its index: the Calibration's values, then what recalibrate()\n"
      "// recomputes in its order (the derived parameters, then the scheme's matrices).\n"
      "inline constexpr const char* status_value_names[] = {";
  for (std::size_t i = 0; i < names.size(); ++i) s += fmt::format("{}\"{}\"", i ? ", " : "", names[i]);
  s += "};\n";
  s += "\n// Checks the calibration values v_ (finite, within their limits) and computes from them, in\n"
       "// double, every constant that follows them into out_: the derived parameters, the tables'\n"
       "// values and the scheme's recomputed matrices, each refused when not finite in the header's\n"
       "// scalar. Refused values leave out_ as it was; the status names the first refused value by its\n"
       "// index among status_value_names. No heap, and the same operations for every set of values\n"
       "// (the exponentials' degree and squarings fixed from bounds over the whole calibration range,\n"
       "// docs/calibration.md).\n"
       "[[nodiscard]] inline dualrate::calibration::Status recalibrate(const Calibration& v_, Constants& out_) "
       "noexcept {\n"
       "  using dualrate::calibration::Result;\n  using dualrate::calibration::Status;\n"
       "  using dualrate::calibration::check;\n";
  // The locals are double; tunable tables alone have none, and an unused alias fails -Werror.
  const std::string locals =
      parameter_locals(m) + derived_checks(m, names, scalar) + recompute_statements(m, design, names, scalar);
  if (!locals.empty()) s += "  using Scalar = double;\n";
  s += value_checks(m, request.scalar) + locals + stores(m, design, scalar);
  return s + "  return {Result::kApplied, -1};\n}\n\n";
}

std::string instance_constants(const Model& m, const GenerateRequest& request, const SchemeDesign& design,
                               const SchemeInfo& scheme) {
  std::string s =
      "// This instance's constants: the active set the step reads, and the spare set calibrate()\n"
      "// computes into with its hand-over to the step.\n";
  s += constants_initializer(m, design, request.scalar);
  s += "inline dualrate::calibration::Handoff<Constants> constants_handoff;\n\n";
  if (scheme.traits.dual_rate)
    s += "// The tasks' hand-over at a release at which no slow job runs (dualrate/dual_rate.hpp): a set\n"
         "// calibrate() computed takes effect there, whole, for the fast ticks and the slow job released.\n"
         "struct TakeConstants {\n"
         "  static void at_release() noexcept { constants_handoff.take(active_constants); }\n};\n\n";
  return s;
}

std::string calibrate_function(const Model& m, const GenerateRequest& request, const SchemeInfo& scheme) {
  std::vector<std::string> handoffs;
  for (const std::string& instance : request.instances) handoffs.push_back(instance + "::constants_handoff");
  if (handoffs.empty()) handoffs.push_back("constants_handoff");
  const bool several = handoffs.size() > 1;
  std::string s =
      "// The values of the last set applied; the status of the last commit handled, and the requests\n"
      "// handled (read by the tool).\n"
      "inline Calibration calibration_applied = " +
      calibration_initializer(m, request.scalar) +
      ";\n"
      "inline dualrate::calibration::Status calibration_status __attribute__((used)) = "
      "{dualrate::calibration::Result::kApplied, -1};\n"
      "inline dualrate::calibration::Requests calibration_handled __attribute__((used)) = {0, 0};\n\n";
  s += "// The background's part (an idle loop, a low-priority thread; not the fast task). On a new\n"
       "// calibration_requests.reset: sets `calibration` back to the values last applied. On a new\n"
       "// calibration_requests.commit: checks `calibration` as one set and computes its constants\n";
  s += scheme.traits.dual_rate
           ? "// into the spare set, which the tasks take whole at their next release (TakeConstants).\n"
           : "// into the spare set, which the step takes whole at its next start.\n";
  if (several) {
    std::string list;
    for (const std::string& instance : request.instances) list += (list.empty() ? "" : ", ") + instance;
    s += "// Each instance (" + list +
         ") gets a copy of the set and takes it at its own\n"
         "// step; a set is computed once every instance took the last.\n";
  }
  s += "// Values written after the commit, while the set was computed, refuse it (kChanged: commit\n"
       "// again). Call it repeatedly: it returns at once while nothing was requested or a computed\n"
       "// set still waits (kPending). The status, then the request handled, are stored for the tool.\n"
       "inline dualrate::calibration::Status calibrate() noexcept {\n"
       "  using dualrate::calibration::Result;\n"
       "  dualrate::calibration::keep(epk);\n"
       "  dualrate::calibration::keep(calibration_layout);\n"
       "  const dualrate::calibration::Requests r_ = dualrate::calibration::snapshot(calibration_requests);\n"
       "  if (r_.reset != calibration_handled.reset) {\n"
       "    calibration = calibration_applied;\n"
       "    dualrate::calibration::store_after(calibration_handled.reset, r_.reset);\n"
       "  }\n"
       "  if (r_.commit == calibration_handled.commit) return calibration_status;\n";
  s += fmt::format("  Constants* spare_ = {}.spare();\n", handoffs[0]);
  std::string waiting = "!spare_";
  for (std::size_t i = 1; i < handoffs.size(); ++i) waiting += fmt::format(" || !{}.spare()", handoffs[i]);
  s += fmt::format("  if ({}) return {{Result::kPending, -1}};\n", waiting);
  s += "  const Calibration v_ = dualrate::calibration::snapshot(calibration);\n"
       "  dualrate::calibration::Status s_ = recalibrate(v_, *spare_);\n"
       "  if (!dualrate::calibration::same(v_, dualrate::calibration::snapshot(calibration))) {\n"
       "    s_ = {Result::kChanged, -1};\n"
       "  } else if (s_.applied()) {\n"
       "    calibration_applied = v_;\n";
  for (std::size_t i = 1; i < handoffs.size(); ++i) s += fmt::format("    *{}.spare() = *spare_;\n", handoffs[i]);
  for (const std::string& h : handoffs) s += fmt::format("    {}.publish();\n", h);
  s += "  }\n"
       "  calibration_status = s_;\n"
       "  dualrate::calibration::store_after(calibration_handled.commit, r_.commit);\n"
       "  return s_;\n}\n";
  return s;
}

std::string calibration_declarations(const Model& m, const GenerateRequest& o, const SchemeDesign& d,
                                     const std::string& ns) {
  const std::string scalar = scalar_name(o);
  std::string s = "#if !defined(DUALRATE_CALIBRATION_API) || DUALRATE_CALIBRATION_API != 3\n";
  s += fmt::format("#error \"{}.hpp takes calibration through dualrate/calibration.hpp's API 3\"\n#endif\n\n", ns);
  s += calibration_struct(m, scalar);
  // A section per namespace: GCC puts a translation unit's inline variables of one named section in
  // one COMDAT group, which the linker keeps from one unit only, dropping another namespace's.
  const std::string section = ".data.dualrate.calibration." + ns;
  s += fmt::format(
           "// In a linker section of its own (.data.dualrate.calibration.*), for a linker script that\n"
           "// places it in the calibration RAM.\n"
           "inline Calibration calibration __attribute__((section(\"{}\"), used)) = ",
           section) +
       calibration_initializer(m, o.scalar) + ";\n";
  s += "// The calibration tool's requests (dualrate/calibration.hpp): a new commit after the values\n"
       "// of a set, a new reset to set the values back to the last applied.\n"
       "inline dualrate::calibration::Requests calibration_requests\n"
       "    __attribute__((section(\"" +
       section + "\"), used)) = {0, 0};\n";
  s += "// Identifies the calibration layout of this code (the A2L file's EPK).\n";
  s += fmt::format("inline const char epk[] __attribute__((used)) = \"{}\";\n",
                   calibration_identity(m, ns, o.scheme, o.step, o.scalar, o.generator_version).text());
  s += "// The layout the EPK identifies, in words: the scalar, the step, each value's name, size and\n"
       "// limits as checked, in order (`dualrate a2l` names what differs from a model's).\n";
  s += fmt::format("inline const char calibration_layout[] __attribute__((used)) = \"{}\";\n\n",
                   calibration_layout_text(m, o.step, o.scalar));
  s += constants_struct(m, d, scalar) + "\n";
  return s;
}

std::string calibrated_parameter_member(const Parameter& p) {
  const std::string what =
      p.tunable ? "tunable, " + limits(p.min, p.max, p.unit) : "follows the calibration: " + cpp_expression(p.expr);
  return fmt::format("  static constexpr const Scalar& {} = active_constants.parameters.{};  // {}\n", p.cpp(), p.cpp(),
                     what);
}

std::string calibrated_table_values_member(const Table& t) {
  return fmt::format(
      "  // {0}'s values are tunable, each {2}.\n"
      "  static constexpr const Scalar (&{3})[{1}] = active_constants.parameters.{3};",
      t.name, t.values.size(), limits(t.min, t.max, ""), cpp_array(t.name, "values"));
}

std::string calibrated_schedule() {
  return "  // The constants follow the calibration: the active set (recalibrate, calibrate).\n"
         "  using Schedule = Constants;\n"
         "  static const Schedule& schedule(Model::Time /*t*/, const Model::State& /*x_*/, "
         "const Model::Input& /*u_*/) noexcept {\n"
         "    return active_constants;\n  }\n";
}

std::string take_constants_statement() {
  return "  constants_handoff.take(active_constants);  // a set calibrate() computed takes effect here, whole\n";
}

void check_calibratable(const Model& m, ScalarType scalar) {
  if (!has_tunable(m)) return;
  const auto require_value_within = [scalar](double min, double max, const SourceLoc& loc, const std::string& name) {
    if (scalar_limits(min, max, scalar).empty())
      throw ModelError(loc,
                       fmt::format("no {} lies within the limits [{}, {}] of {}: generated code holds its values in {}",
                                   to_string(scalar), min, max, name, to_string(scalar)),
                       "widen the limits, or generate with --scalar double");
  };
  for (const auto& p : m.parameters)
    if (p.tunable) require_value_within(p.min, p.max, p.range_loc, "parameter '" + p.name + "'");
  for (const Table* t : tunable_tables(m))
    require_value_within(t->min, t->max, t->range_loc, "table '" + t->name + "'");
  const SecondOrder* so = m.second_order ? &*m.second_order : nullptr;
  if (!so || !(so->constant_mass || so->diagonal)) return;
  for (const Parameter* p : calibrated_parameters(m))
    for (const auto& row : so->mass)
      for (const auto& entry : row)
        if (entry.has(p->symbol))
          throw ModelError(p->tunable ? p->range_loc : p->loc,
                           fmt::format("parameter '{}' is in the mass matrix, which is constant: generated code "
                                       "applies its inverse folded at generation, which cannot follow a calibration",
                                       p->name),
                           "make the parameter fixed, or keep the tunable values out of the mass matrix");
}

}  // namespace dualrate
