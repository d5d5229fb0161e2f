#include "a2l/a2l_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include <dualrate/calibration.hpp>
#include "model/scalar_type.hpp"

namespace dualrate {

std::string a2l_string(const std::string& text) {
  std::string s = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        s += "\\\"";
        break;
      case '\\':
        s += "\\\\";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\t':
        s += "\\t";
        break;
      case '\r':
        s += "\\r";
        break;
      default:
        s += c;
    }
  }
  return s + "\"";
}

namespace {

constexpr const char* kNoUnit = "CM_IDENTICAL";

std::string number(double v) { return fmt::format("{:.17g}", v); }

// A display format for values within [min, max]: six significant digits of the larger limit,
// "%Length.Layout" with room for the sign and the point.
std::string display_format(double min, double max) {
  const double magnitude = std::max(std::fabs(min), std::fabs(max));
  const int exponent = magnitude > 0 ? static_cast<int>(std::floor(std::log10(magnitude))) : 0;
  const int decimals = std::clamp(5 - exponent, 0, 15);
  const int integers = std::max(1, exponent + 1);
  return fmt::format("%{}.{}", integers + decimals + 2, decimals);
}
std::string address(std::uint64_t a) { return fmt::format("0x{:08X}", a); }

// The COMPU_METHOD of each unit (IDENTICAL: the stored value is the physical one), in the order
// of first use; "" is the unitless one.
class Units {
 public:
  explicit Units(const std::vector<CalibrationMember>& members) {
    add("");
    for (const CalibrationMember& m : members) {
      if (m.parameter) add(m.parameter->unit);
      if (!m.table) continue;
      add(m.table->unit);
      for (const std::string& unit : m.table->axis_units) add(unit);
    }
  }
  const std::string& method(const std::string& unit) const {
    for (const auto& [u, name] : methods_)
      if (u == unit) return name;
    return methods_.front().second;
  }
  const std::vector<std::pair<std::string, std::string>>& all() const { return methods_; }

 private:
  void add(const std::string& unit) {
    for (const auto& entry : methods_)
      if (entry.first == unit) return;
    std::string name = kNoUnit;
    if (!unit.empty()) {
      name = "CM_";
      for (const char c : unit) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    const std::string base = name;
    for (int n = 2; taken(name); ++n) name = fmt::format("{}_{}", base, n);
    methods_.emplace_back(unit, name);
  }
  bool taken(const std::string& name) const {
    for (const auto& entry : methods_)
      if (entry.second == name) return true;
    return false;
  }
  std::vector<std::pair<std::string, std::string>> methods_;
};

struct Writer {
  const Model& m;
  const ProgramLayout& layout;
  Units units;
  std::string out;

  const char* datatype() const { return layout.scalar_bytes == 4 ? "FLOAT32_IEEE" : "FLOAT64_IEEE"; }
  // A value's limits as the program checks them: rounded inward to its scalar.
  std::string limits(double min, double max) const {
    const ScalarLimits l = scalar_limits(min, max, layout.scalar_bytes == 4 ? ScalarType::kFloat : ScalarType::kDouble);
    return number(l.min) + " " + number(l.max);
  }
  std::string value_layout() const { return fmt::format("RL_VALUE_{}", datatype()); }
  std::string array_layout() const { return fmt::format("RL_ARRAY_{}", datatype()); }

  template <typename... Args>
  void line(std::size_t indent, fmt::format_string<Args...> f, Args&&... args) {
    out.append(2 * indent, ' ');
    fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
    out += '\n';
  }

  void module_parameters();
  void memory_segments();
  void conversions();
  void record_layouts();
  void parameter(const CalibrationMember& member);
  void table(const CalibrationMember& member);
  void axis(const std::vector<double>& breakpoints, const std::string& unit);
  void measurement(const std::string& name, const std::string& what, std::uint64_t at,
                   const std::string& conversion = kNoUnit, std::size_t count = 1);
  void verbal_table(const std::string& name, const std::string& what,
                    const std::vector<std::pair<long, std::string>>& entries);
  void status_conversions(const std::vector<std::string>& value_names);
  void handshake();
  void status_measurements();
  void active_values();
};

constexpr const char* kResultConversion = "CM_CALIBRATION_RESULT";
constexpr const char* kValueConversion = "CM_CALIBRATION_VALUE";

void Writer::module_parameters() {
  line(2, "/begin MOD_COMMON {}", a2l_string("the program's byte order and alignments"));
  line(3, "BYTE_ORDER {}", layout.little_endian ? "MSB_LAST" : "MSB_FIRST");
  line(3, "ALIGNMENT_BYTE 1");
  line(3, "ALIGNMENT_WORD 2");
  line(3, "ALIGNMENT_LONG 4");
  line(3, "ALIGNMENT_INT64 8");
  line(3, "ALIGNMENT_FLOAT32_IEEE 4");
  line(3, "ALIGNMENT_FLOAT64_IEEE 8");
  line(2, "/end MOD_COMMON");
  line(2, "/begin MOD_PAR {}", a2l_string("the program's identification (EPK) and its address"));
  line(3, "ADDR_EPK {}", address(layout.epk_address));
  line(3, "EPK {}", a2l_string(layout.epk));
  memory_segments();
  line(2, "/end MOD_PAR");
}

// The calibration values and the tool's requests (section .data.dualrate.calibration.NS): one
// MEMORY_SEGMENT where the linker placed them side by side, else one each.
void Writer::memory_segments() {
  using Span = std::pair<std::uint64_t, std::uint64_t>;
  Span first{layout.calibration, layout.calibration + calibration_value_count(layout.members) * layout.scalar_bytes};
  Span second{layout.requests, layout.requests + 8};
  if (second.first < first.first) std::swap(first, second);
  const std::vector<Span> spans =
      first.second == second.first ? std::vector<Span>{{first.first, second.second}} : std::vector<Span>{first, second};
  for (std::size_t i = 0; i < spans.size(); ++i)
    line(3, "/begin MEMORY_SEGMENT CALIBRATION_RAM{} {} DATA RAM INTERN {} 0x{:X} -1 -1 -1 -1 -1 /end MEMORY_SEGMENT",
         i ? fmt::format("_{}", i + 1) : "", a2l_string("the calibration values and the tool's requests"),
         address(spans[i].first), spans[i].second - spans[i].first);
}

void Writer::conversions() {
  for (const auto& [unit, name] : units.all()) {
    line(2, "/begin COMPU_METHOD {} {}", name, a2l_string(unit.empty() ? "no unit" : "in " + unit));
    line(3, "IDENTICAL \"%12.6\" {}", a2l_string(unit));
    line(2, "/end COMPU_METHOD");
  }
}

void Writer::record_layouts() {
  line(2, "/begin RECORD_LAYOUT {}", value_layout());
  line(3, "FNC_VALUES 1 {} ROW_DIR DIRECT", datatype());
  line(2, "/end RECORD_LAYOUT");
  line(2, "/begin RECORD_LAYOUT RL_VALUE_ULONG");
  line(3, "FNC_VALUES 1 ULONG ROW_DIR DIRECT");
  line(2, "/end RECORD_LAYOUT");
  bool tables = false;
  for (const CalibrationMember& member : layout.members) tables = tables || member.table;
  if (!tables) return;
  // Table::values keeps its first axis outermost: the map's X axis (its first AXIS_DESCR) varies
  // slowest, which is ASAP2's column direction.
  line(2, "/begin RECORD_LAYOUT {}", array_layout());
  line(3, "FNC_VALUES 1 {} COLUMN_DIR DIRECT", datatype());
  line(2, "/end RECORD_LAYOUT");
}

void Writer::parameter(const CalibrationMember& member) {
  const Parameter& p = *member.parameter;
  line(2, "/begin CHARACTERISTIC {} {}", p.name,
       a2l_string(p.description.empty() ? "tunable parameter " + p.name : p.description));
  line(3, "VALUE {} {} 0 {} {}", address(layout.address(member)), value_layout(), units.method(p.unit),
       limits(p.min, p.max));
  line(3, "FORMAT {}", a2l_string(display_format(p.min, p.max)));
  if (!p.unit.empty()) line(3, "PHYS_UNIT {}", a2l_string(p.unit));
  line(2, "/end CHARACTERISTIC");
}

void Writer::axis(const std::vector<double>& breakpoints, const std::string& unit) {
  line(3, "/begin AXIS_DESCR FIX_AXIS NO_INPUT_QUANTITY {} {} {} {}", units.method(unit), breakpoints.size(),
       number(breakpoints.front()), number(breakpoints.back()));
  if (!unit.empty()) line(4, "PHYS_UNIT {}", a2l_string(unit));
  line(4, "/begin FIX_AXIS_PAR_LIST");
  std::string list;
  for (const double b : breakpoints) list += (list.empty() ? "" : " ") + number(b);
  line(5, "{}", list);
  line(4, "/end FIX_AXIS_PAR_LIST");
  line(3, "/end AXIS_DESCR");
}

void Writer::table(const CalibrationMember& member) {
  const Table& t = *member.table;
  const char* kind = t.axes() == 1 ? "CURVE" : t.axes() == 2 ? "MAP" : "VAL_BLK";
  line(2, "/begin CHARACTERISTIC {} {}", t.name,
       a2l_string(!t.description.empty() ? t.description
                                         : fmt::format("tunable table {}: {} values, {} fixed {}", t.name,
                                                       t.values.size(), t.axes(), t.axes() == 1 ? "axis" : "axes")));
  line(3, "{} {} {} 0 {} {}", kind, address(layout.address(member)), array_layout(), units.method(t.unit),
       limits(t.min, t.max));
  line(3, "FORMAT {}", a2l_string(display_format(t.min, t.max)));
  if (!t.unit.empty()) line(3, "PHYS_UNIT {}", a2l_string(t.unit));
  if (t.axes() <= 2)
    for (std::size_t d = 0; d < t.axes(); ++d)
      axis(t.breakpoints[d], t.axis_units.empty() ? std::string() : t.axis_units[d]);
  else
    line(3, "NUMBER {}", t.values.size());
  line(2, "/end CHARACTERISTIC");
}

void Writer::measurement(const std::string& name, const std::string& what, std::uint64_t at,
                         const std::string& conversion, std::size_t count) {
  const double limit =
      layout.scalar_bytes == 4 ? double{std::numeric_limits<float>::max()} : std::numeric_limits<double>::max();
  line(2, "/begin MEASUREMENT {} {}", name, a2l_string(what));
  line(3, "{} {} 0 0 {} {}", datatype(), conversion, number(-limit), number(limit));
  if (count > 1) line(3, "MATRIX_DIM {}", count);
  line(3, "ECU_ADDRESS {}", address(at));
  line(2, "/end MEASUREMENT");
}

void Writer::verbal_table(const std::string& name, const std::string& what,
                          const std::vector<std::pair<long, std::string>>& entries) {
  line(2, "/begin COMPU_METHOD {} {} TAB_VERB \"%4.0\" \"\"", name, a2l_string(what));
  line(3, "COMPU_TAB_REF {}_TABLE", name);
  line(2, "/end COMPU_METHOD");
  line(2, "/begin COMPU_VTAB {}_TABLE {} TAB_VERB {}", name, a2l_string(what), entries.size());
  for (const auto& [value, text] : entries) line(3, "{} {}", value, a2l_string(text));
  line(3, "DEFAULT_VALUE {}", a2l_string("unknown"));
  line(2, "/end COMPU_VTAB");
}

// The calibration status in words: its result (dualrate/calibration.hpp's texts) and the value it
// names (the header's status_value_names).
void Writer::status_conversions(const std::vector<std::string>& value_names) {
  using calibration::Result;
  std::vector<std::pair<long, std::string>> results;
  for (long r = 0; std::string(to_string(static_cast<Result>(r))) != "unknown"; ++r)
    results.emplace_back(r, to_string(static_cast<Result>(r)));
  verbal_table(kResultConversion, "the result of the last commit handled", results);
  std::vector<std::pair<long, std::string>> values{{-1, "none"}};
  for (std::size_t i = 0; i < value_names.size(); ++i) values.emplace_back(static_cast<long>(i), value_names[i]);
  verbal_table(kValueConversion, "the value the last commit handled refused", values);
}

// The requests that make writes commit whole (the tool writes them) and those handled.
void Writer::handshake() {
  const std::pair<const char*, const char*> requests[] = {
      {"commit", "a new number once a set of values is written: the program checks them and takes them whole"},
      {"reset", "a new number sets the written values back to the active ones"}};
  for (std::size_t i = 0; i < 2; ++i) {
    line(2, "/begin CHARACTERISTIC calibration_requests.{} {}", requests[i].first, a2l_string(requests[i].second));
    line(3, "VALUE {} RL_VALUE_ULONG 0 {} 0 4294967295", address(layout.requests + 4 * i), kNoUnit);
    line(2, "/end CHARACTERISTIC");
  }
  if (!layout.handled) return;
  for (std::size_t i = 0; i < 2; ++i) {
    line(2, "/begin MEASUREMENT calibration_handled.{} {}", requests[i].first,
         a2l_string(fmt::format("the last {} request the program handled", requests[i].first)));
    line(3, "ULONG {} 0 0 0 4294967295", kNoUnit);
    line(3, "ECU_ADDRESS {}", address(*layout.handled + 4 * i));
    line(2, "/end MEASUREMENT");
  }
}

void Writer::status_measurements() {
  const std::pair<const char*, const char*> fields[] = {
      {"result", "the result of the last commit handled"},
      {"value", "the value the last commit handled refused, by its index in status_value_names; -1 for none"}};
  const char* conversions[] = {kResultConversion, kValueConversion};
  for (std::size_t i = 0; i < 2; ++i) {
    line(2, "/begin MEASUREMENT calibration_status.{} {}", fields[i].first, a2l_string(fields[i].second));
    line(3, "SLONG {} 0 0 -2147483648 2147483647", conversions[i]);
    line(3, "ECU_ADDRESS {}", address(*layout.status + 4 * i));
    line(2, "/end MEASUREMENT");
  }
}

// The values each instance's step uses (its active_constants.values), as the tool reads them back:
// active.NAME, or INSTANCE.active.NAME.
void Writer::active_values() {
  for (const ProgramLayout::ActiveSet& set : layout.active)
    for (const CalibrationMember& member : layout.members)
      measurement((set.instance.empty() ? "" : set.instance + ".") + "active." + member.name(),
                  "active value of " + member.name() + (set.instance.empty() ? "" : " in instance " + set.instance),
                  set.address + member.index * layout.scalar_bytes,
                  units.method(member.parameter ? member.parameter->unit : member.table->unit), member.count);
}

}  // namespace

std::string a2l_file(const Model& m, const ProgramLayout& layout, const A2lSources& sources) {
  Writer w{m, layout, Units(layout.members), {}};
  w.line(0, "/* ASAM MCD-2 MC (ASAP2) 1.71 description of model {} in program {}, written by dualrate {} */", m.name,
         sources.program_file, sources.generator_version);
  w.line(0, "ASAP2_VERSION 1 71");
  const std::string about = m.description.empty() ? "dualrate model " + m.name : m.description;
  w.line(0, "/begin PROJECT {} {}", m.name, a2l_string(about));
  w.line(1, "/begin HEADER {}", a2l_string(fmt::format("from {} and {}", sources.model_file, sources.program_file)));
  w.line(2, "VERSION {}", a2l_string("dualrate " + sources.generator_version));
  w.line(1, "/end HEADER");
  w.line(1, "/begin MODULE {} {}", m.name, a2l_string(about));
  w.module_parameters();
  w.conversions();
  if (layout.status) w.status_conversions(sources.status_value_names);
  w.record_layouts();
  for (const CalibrationMember& member : layout.members) member.parameter ? w.parameter(member) : w.table(member);
  w.handshake();
  w.active_values();
  const std::size_t s = layout.scalar_bytes;
  const auto state_kind = [&m](std::size_t i) {
    return !m.partitioned ? "state" : m.states[i].fast ? "fast state" : "slow state";
  };
  if (layout.trace) {
    for (std::size_t i = 0; i < m.states.size(); ++i)
      w.measurement(m.states[i].name, state_kind(i), layout.states + i * s);
    for (std::size_t i = 0; i < m.inputs.size(); ++i) w.measurement(m.inputs[i].name, "input", layout.inputs + i * s);
    for (std::size_t i = 0; i < m.outputs.size(); ++i)
      w.measurement(m.outputs[i].name, "output", layout.outputs + i * s);
  }
  for (const ProgramLayout::Instance& instance : layout.instances)
    for (std::size_t i = 0; i < m.states.size(); ++i)
      w.measurement(instance.symbol + "." + m.states[i].name,
                    fmt::format("{} of model instance {}{}", state_kind(i), instance.symbol,
                                instance.tasks_object ? ", as its fast task has it" : ""),
                    instance.states + i * s);
  if (layout.status) w.status_measurements();
  w.line(1, "/end MODULE");
  w.line(0, "/end PROJECT");
  return w.out;
}

}  // namespace dualrate
