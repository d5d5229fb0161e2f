#include "a2l/calibration_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace dualrate {

std::vector<CalibrationMember> calibration_members(const Model& m) {
  std::vector<CalibrationMember> members;
  std::size_t index = 0;
  for (const Parameter& p : m.parameters)
    if (p.tunable) members.push_back({&p, nullptr, index++, 1});
  for (const auto& t : m.tables)
    if (t->tunable) {
      members.push_back({nullptr, t.get(), index, t->values.size()});
      index += t->values.size();
    }
  return members;
}

std::size_t calibration_value_count(const std::vector<CalibrationMember>& members) {
  return members.empty() ? 0 : members.back().index + members.back().count;
}

void require_tunable(const Model& m) {
  if (!calibration_members(m).empty()) return;
  throw ModelError(m.parameters.empty() ? SourceLoc{m.file, 1, 1} : m.parameters.front().loc,
                   fmt::format("model '{}' has no tunable parameter or table: an A2L file would have nothing to "
                               "calibrate",
                               m.name),
                   "declare a parameter `NAME: {value: V, tunable: true, min: LO, max: HI}` or a table with "
                   "`tunable: true`, `min:` and `max:` (docs/model-files.md#calibration)");
}

std::size_t scalar_bytes(const ProgramImage& program, const std::string& symbol, std::uint64_t size,
                         std::size_t values) {
  for (std::size_t bytes : {std::size_t{4}, std::size_t{8}})
    if (size == values * bytes) return bytes;
  throw ProgramError(fmt::format("{}: {} is {} bytes, but the model's {} tunable values take {} (float) or {} (double)",
                                 program.file, symbol, size, values, 4 * values, 8 * values),
                     "build the program with the header generated from this model file");
}

namespace {

std::string missing_hint(const std::string& name_space, bool trace) {
  if (trace)
    return "the program must be a trace program that holds the model's data objects (targets/, as `dualrate verify "
           "--target T --keep DIR` builds it)";
  return fmt::format(
      "build the program with the header generated from this model, whose objects are in namespace "
      "{}; pass --namespace NAME if it was generated with another",
      name_space);
}

// The object `name` of at least `size` bytes (exactly, if `exact`), at a 32-bit address.
const ProgramSymbol& object(const ProgramImage& program, const std::string& name, std::uint64_t size, bool exact,
                            const std::string& hint) {
  const ProgramSymbol* s = program.find(name);
  if (!s) throw ProgramError(fmt::format("{}: no object {} in its symbol table", program.file, name), hint);
  if (exact ? s->size != size : s->size < size)
    throw ProgramError(fmt::format("{}: {} is {} bytes, the model's layout needs {}{}", program.file, name, s->size,
                                   exact ? "" : "at least ", size),
                       hint);
  if (s->address + s->size > std::uint64_t{0xFFFFFFFF})
    throw ProgramError(
        fmt::format("{}: {} is at {:#x}, beyond the 32-bit addresses of A2L files", program.file, name, s->address),
        "link the program so that its data lies below 4 GiB");
  return *s;
}

// A NUL-terminated printable string in the program's initialised data: the bytes of the object
// `object_symbol` (named `name`) up to its NUL.
std::string read_string(const ProgramImage& program, const ProgramSymbol& object_symbol, const std::string& name,
                        const std::string& hint) {
  const std::optional<std::string> bytes = program.bytes(object_symbol.address, object_symbol.size);
  if (!bytes) throw ProgramError(fmt::format("{}: {} has no initial bytes in the file", program.file, name), hint);
  const std::size_t end = bytes->find('\0');
  if (end == std::string::npos)
    throw ProgramError(
        fmt::format("{}: {} is not NUL-terminated within its {} bytes", program.file, name, object_symbol.size), hint);
  const std::string text = bytes->substr(0, end);
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E)
      throw ProgramError(fmt::format("{}: {} holds a character that is not printable ASCII", program.file, name), hint);
  return text;
}

// The 32-bit unsigned integers of `symbol`'s initial bytes, in the program's byte order.
std::vector<std::uint32_t> read_words(const ProgramImage& program, const ProgramSymbol& symbol,
                                      const std::string& hint) {
  const std::optional<std::string> bytes = program.bytes(symbol.address, symbol.size);
  if (!bytes || symbol.size % 4 != 0)
    throw ProgramError(fmt::format("{}: {} has no initial 32-bit words in the file", program.file, symbol.name), hint);
  std::vector<std::uint32_t> words;
  for (std::size_t i = 0; i < bytes->size(); i += 4) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      const auto byte = static_cast<std::uint32_t>(static_cast<unsigned char>((*bytes)[i + b]));
      w |= byte << (8 * (program.little_endian ? b : 3 - b));
    }
    words.push_back(w);
  }
  return words;
}

// An array of `count` Scalars at the start of `name`, or 0 when the model has none.
std::uint64_t trace_array(const ProgramImage& program, const std::string& name, std::size_t count, std::size_t scalar,
                          bool exact) {
  if (count == 0) return 0;
  return object(program, name, count * scalar, exact, missing_hint("", true)).address;
}

}  // namespace

void require_identity(const CalibrationIdentity& expected, const std::string& expected_layout, const std::string& epk,
                      const std::optional<std::string>& program_layout, const std::string& program_file) {
  const std::string hint =
      "generate the header again from this model with the options given here, and rebuild "
      "the program; or give a2l the options the header was generated with (--scheme, --step, "
      "--namespace)";
  const std::optional<CalibrationIdentity> found = parse_calibration_identity(epk);
  if (!found)
    throw ProgramError(
        fmt::format("{}: its EPK \"{}\" is not one that dualrate's generated code carries", program_file, epk), hint);
  std::vector<std::string> differ;
  if (found->name_space != expected.name_space)
    differ.push_back(fmt::format("namespace {} (the model's: {})", found->name_space, expected.name_space));
  if (found->scheme != expected.scheme)
    differ.push_back(fmt::format("scheme {} (the model's: {})", found->scheme, expected.scheme));
  if (found->scalar != expected.scalar)
    differ.push_back(fmt::format("scalar {} (its calibration object's: {})", found->scalar, expected.scalar));
  if (differ.empty() && found->hash != expected.hash) {
    if (program_layout) differ = layout_differences(*program_layout, expected_layout);
    if (differ.empty())
      differ.push_back(
          fmt::format("calibration layout {} (the model's: {}): a tunable value's name, position, size "
                      "or limits, or the step, differ from the model's",
                      found->hash, expected.hash));
  }
  if (differ.empty()) return;
  std::string list;
  for (const std::string& d : differ) list += (list.empty() ? "" : "; ") + d;
  throw ProgramError(fmt::format("{}: its header was generated for another calibration layout: {}", program_file, list),
                     hint);
}

namespace {

// The program's objects NS::NAME and NS::INSTANCE::NAME, each with its instance (empty for NS::NAME).
std::vector<std::pair<std::string, const ProgramSymbol*>> instance_objects(const ProgramImage& program,
                                                                           const std::string& name_space,
                                                                           const std::string& name) {
  const std::regex scoped("([A-Za-z][A-Za-z0-9_]*::)?" + name);
  const std::string scope = name_space + "::";
  std::vector<std::pair<std::string, const ProgramSymbol*>> found;
  for (const ProgramSymbol& symbol : program.objects) {
    std::smatch match;
    const std::string rest = symbol.name.rfind(scope, 0) == 0 ? symbol.name.substr(scope.size()) : std::string();
    if (!std::regex_match(rest, match, scoped)) continue;
    found.emplace_back(match[1].matched ? match[1].str().substr(0, match[1].length() - 2) : "", &symbol);
  }
  return found;
}

// The instances' states (`instances`: symbols of NS::Data objects, or of NS::Tasks objects, whose
// size and state's offset the program holds in a dual-rate header's NS::tasks_layout =
// {sizeof(Tasks), the fast task's state's offset}, the same in each instance's namespace).
void locate_instances(const Model& m, const ProgramImage& program, const std::string& name_space,
                      const std::vector<std::string>& instances, ProgramLayout& layout) {
  const std::string hint = missing_hint(name_space, false);
  const std::size_t s = layout.scalar_bytes;
  std::optional<std::vector<std::uint32_t>> tasks;
  for (const auto& [instance, symbol] : instance_objects(program, name_space, "tasks_layout"))
    tasks = read_words(program, *symbol, hint);
  if (tasks && tasks->size() != 2)
    throw ProgramError(
        fmt::format("{}: {}::tasks_layout holds {} words, not 2", program.file, name_space, tasks->size()), hint);
  for (const std::string& symbol : instances) {
    const std::string instance_hint = fmt::format(
        "name a global of type {}::Data (dualrate/data.hpp) or, of a dual-rate header, {}::Tasks, that "
        "the program defines, as its symbol table spells it",
        name_space, name_space);
    // A Data holds the State (kStates Scalars, padded to 8 bytes) and two 64-bit counters; a State
    // that Eigen aligns to 16 bytes is a multiple of 16 long, so that no more padding follows. A
    // float build with compensated sums (dualrate/compensated_sum.hpp) keeps a State of carries
    // after them, padded alike; the state is first in either.
    const std::uint64_t state_bytes = (m.states.size() * s + 7) / 8 * 8, data_bytes = state_bytes + 16;
    const ProgramSymbol& found = object(program, symbol, 1, false, instance_hint);
    if (found.size == data_bytes || (s == sizeof(float) && found.size == data_bytes + state_bytes)) {
      layout.instances.push_back({symbol, found.address, false});
    } else if (tasks && found.size == (*tasks)[0] && (*tasks)[1] + m.states.size() * s <= found.size) {
      layout.instances.push_back({symbol, found.address + (*tasks)[1], true});
    } else {
      throw ProgramError(
          fmt::format("{}: {} is {} bytes, not a model instance: a {}::Data of the model's {} states is {} bytes{}{}",
                      program.file, symbol, found.size, name_space, m.states.size(), data_bytes,
                      s == sizeof(float) ? fmt::format(" ({} with compensated sums)", data_bytes + state_bytes) : "",
                      tasks ? fmt::format(", a {}::Tasks {} bytes", name_space, (*tasks)[0]) : std::string()),
          instance_hint);
    }
  }
}

}  // namespace

ProgramLayout locate(const Model& m, const ProgramImage& program, const std::string& name_space,
                     const std::vector<std::string>& instances) {
  ProgramLayout layout;
  layout.little_endian = program.little_endian;
  layout.members = calibration_members(m);
  const std::size_t values = calibration_value_count(layout.members);
  const std::string name = name_space + "::calibration";
  const std::string hint = missing_hint(name_space, false);
  const ProgramSymbol* calibration = program.find(name);
  if (!calibration) throw ProgramError(fmt::format("{}: no object {} in its symbol table", program.file, name), hint);
  layout.scalar_bytes = scalar_bytes(program, name, calibration->size, values);
  layout.calibration = object(program, name, values * layout.scalar_bytes, true, hint).address;
  const ProgramSymbol& epk = object(program, name_space + "::epk", 1, false, hint);
  layout.epk_address = epk.address;
  layout.epk = read_string(program, epk, epk.name, hint);
  if (const ProgramSymbol* text = program.find(name_space + "::calibration_layout"))
    layout.layout_text = read_string(program, object(program, text->name, 1, false, hint), text->name, hint);
  layout.requests = object(program, name_space + "::calibration_requests", 8, true, hint).address;
  const auto optional = [&](const std::string& symbol, std::uint64_t bytes,
                            bool exact) -> std::optional<std::uint64_t> {
    if (!program.find(name_space + "::" + symbol)) return std::nullopt;
    return object(program, name_space + "::" + symbol, bytes, exact, hint).address;
  };
  layout.handled = optional("calibration_handled", 8, true);
  layout.status = optional("calibration_status", 8, true);
  for (const auto& [instance, symbol] : instance_objects(program, name_space, "active_constants"))
    layout.active.push_back(
        {instance, object(program, symbol->name, values * layout.scalar_bytes, false, hint).address});
  std::sort(layout.active.begin(), layout.active.end(),
            [](const auto& a, const auto& b) { return a.instance < b.instance; });
  const std::size_t s = layout.scalar_bytes;
  layout.trace = program.find("dualrate_trace::data") != nullptr;
  if (layout.trace) {
    layout.states = trace_array(program, "dualrate_trace::data", m.states.size(), s, false);
    layout.inputs = trace_array(program, "dualrate_trace::inputs", m.inputs.size(), s, true);
    layout.outputs = trace_array(program, "dualrate_trace::outputs", m.outputs.size(), s, true);
  }
  locate_instances(m, program, name_space, instances, layout);
  return layout;
}

}  // namespace dualrate
