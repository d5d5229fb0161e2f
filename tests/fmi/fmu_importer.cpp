// fmu_importer: the project's own small FMI importer, for the FMUs `dualrate fmu` writes
// (docs/fmi.md#how-it-is-tested). It reads an unzipped FMU's modelDescription.xml with pugixml,
// dlopens the binary of its version's platform folder (FMI 3.0: binaries/x86_64-linux, FMI 2.0:
// binaries/linux64), looks up each function it calls by its plain name and drives the FMU
// through the FMI calls, checking every status:
//
//   fmu_importer DIR [--interface cs|me|se] [--step DT] [--t-end T] [--tolerance TOL]
//                [--start NAME=VALUE]... [--input NAME=VALUE]... [--inputs FILE.csv]
//                [--set-at T NAME=VALUE]... [--instances K] [--start-of I NAME=VALUE]...
//                [--trace-of I FILE]... [--expect-refused-step DT]
//   fmu_importer --compare A.csv B.csv [--tolerance X] [--columns NAME,...]
//   fmu_importer --build-args DIR
//
// Co-simulation (the default) prints, at t = 0, DT, 2 DT ... up to T, the row t, the states (the
// variables of causality local that are not derivatives) and the outputs, in value-reference
// order, with %.17g, then takes doStep(t, DT). Model exchange integrates the continuous states
// with SUNDIALS' CVODE (BDF, relative and absolute tolerance TOL; class Cvode) and prints the
// rows at the same grid. The inputs at t are the constants of --input and, from
// --inputs, the values of the last row whose time is at or before t (a CSV trace of
// `dualrate simulate` works: its columns that are not inputs are ignored).
// Scheduled Execution (FMI 3.0, an FMU of `dualrate fmu --scheduled`) is a sequential scheduler:
// at every tick t_n in [0, T) of the fast clock it sets the inputs at t_n, activates the fast
// clock's partition, prints the row, and at every tick of the slow clock then activates its
// partition; with --threads, the slow partitions run in a second thread, overlapping the fast
// partitions of the ticks that follow (each slow job ends before the next release).
//
// Exit codes: 0 done; 1 an FMI call failed (its name in the message), a symbol is missing, or
// --compare found a difference over the tolerance; 2 a usage error; 3 a start value refused;
// 4 a doStep refused. Messages of the FMU go to standard error as "log: STATUS CATEGORY MESSAGE".
//
// --compare compares the columns of A and B with the same names (the time column t excepted) at
// the same times (within 1e-9 relative): each row of A needs its row in B (B may have more); it
// prints the largest absolute difference of each column and where, and exits 1 over the
// tolerance (0: bit for bit) or when no row or no column matches.
//
// --build-args prints, one a line, the compiler options, defines, include directories and source
// files of sources/buildDescription.xml (FMI 3.0), paths made absolute, for the test that
// rebuilds the binary from the FMU's sources (tests/fmi/check_fmu.sh).
#include <dlfcn.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <pugixml.hpp>

#include "fmi2_api.h"
#include "fmi3_api.h"

namespace {

constexpr int kCallFailed = 1;
constexpr int kUsage = 2;
constexpr int kStartRefused = 3;
constexpr int kStepRefused = 4;

// The statuses of both versions (FMI 2.0 adds Pending).
constexpr int kOK = 0, kWarning = 1, kError = 3;

[[noreturn]] void fail(int code, const std::string& message) {
  std::fprintf(stderr, "fmu_importer: %s\n", message.c_str());
  std::fflush(stdout);
  std::exit(code);
}

const char* status_name(int s) {
  static const char* const names[] = {"OK", "Warning", "Discard", "Error", "Fatal", "Pending"};
  return s >= 0 && s <= 5 ? names[s] : "?";
}

// A status that is neither OK nor Warning ends the run with the function's name.
void check(int status, const char* function) {
  if (status != kOK && status != kWarning)
    fail(kCallFailed, std::string(function) + " returned " + status_name(status));
}

double number(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || !end || *end != '\0') fail(kUsage, what + ": '" + text + "' is not a number");
  return v;
}

long whole(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || !end || *end != '\0') fail(kUsage, what + ": '" + text + "' is not a whole number");
  return v;
}

std::string format(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* f, ...) {
  char text[1024];
  va_list args;
  va_start(args, f);
  std::vsnprintf(text, sizeof text, f, args);
  va_end(args);
  return text;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, separator)) {
    if (!part.empty() && part.back() == '\r') part.pop_back();
    parts.push_back(part);
  }
  if (!line.empty() && line.back() == separator) parts.emplace_back();
  return parts;
}

// ---- CSV files ------------------------------------------------------------------------------

struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  int column(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  }
};

Csv read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(kUsage, "cannot read " + path);
  Csv csv;
  std::string line;
  if (!std::getline(in, line)) fail(kCallFailed, path + ": no header line");
  csv.names = split(line, ',');
  long at = 1;
  while (std::getline(in, line)) {
    ++at;
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = split(line, ',');
    if (cells.size() != csv.names.size())
      fail(kCallFailed,
           format("%s:%ld: %zu cells, the header has %zu", path.c_str(), at, cells.size(), csv.names.size()));
    std::vector<double> row;
    for (const std::string& cell : cells) row.push_back(number(cell, format("%s:%ld", path.c_str(), at)));
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

// Whether two times of a grid are the same point (the same k*h computed two ways).
bool same_time(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// ---- --compare ------------------------------------------------------------------------------

int compare(const std::string& a_path, const std::string& b_path, double tolerance, const std::string& only) {
  const Csv a = read_csv(a_path), b = read_csv(b_path);
  const int ta = a.column("t"), tb = b.column("t");
  if (ta < 0 || tb < 0) fail(kCallFailed, "both files need a time column t");
  std::vector<std::string> names;
  if (!only.empty()) {
    for (const std::string& n : split(only, ','))
      if (a.column(n) < 0 || b.column(n) < 0) fail(kCallFailed, "column " + n + " is not in both files");
    names = split(only, ',');
  } else {
    for (const std::string& n : a.names)
      if (n != "t" && b.column(n) >= 0) names.push_back(n);
  }
  if (names.empty()) {
    std::printf("no column of %s is in %s\n", a_path.c_str(), b_path.c_str());
    return 1;
  }
  struct Worst {
    double difference = 0, t = 0, a = 0, b = 0;
  };
  std::vector<Worst> worst(names.size());
  std::size_t j = 0, matched = 0, unmatched = 0;
  double first_unmatched = 0;
  for (const auto& row : a.rows) {
    const double t = row[static_cast<std::size_t>(ta)];
    while (j < b.rows.size() && b.rows[j][static_cast<std::size_t>(tb)] < t &&
           !same_time(b.rows[j][static_cast<std::size_t>(tb)], t))
      ++j;
    if (j == b.rows.size() || !same_time(b.rows[j][static_cast<std::size_t>(tb)], t)) {
      if (unmatched++ == 0) first_unmatched = t;
      continue;
    }
    ++matched;
    for (std::size_t c = 0; c < names.size(); ++c) {
      const double x = row[static_cast<std::size_t>(a.column(names[c]))];
      const double y = b.rows[j][static_cast<std::size_t>(b.column(names[c]))];
      const double d = std::isnan(x) && std::isnan(y)   ? 0
                       : std::isnan(x) || std::isnan(y) ? INFINITY
                                                        : std::fabs(x - y);
      if (d > worst[c].difference || matched == 1) worst[c] = {d, t, x, y};
    }
    ++j;
  }
  if (matched == 0) {
    std::printf("no row of %s has its time in %s\n", a_path.c_str(), b_path.c_str());
    return 1;
  }
  std::size_t at = 0;
  for (std::size_t c = 0; c < names.size(); ++c) {
    std::printf("%-20s max |A - B| = %.6g at t = %.17g (A %.17g, B %.17g)\n", names[c].c_str(), worst[c].difference,
                worst[c].t, worst[c].a, worst[c].b);
    if (worst[c].difference > worst[at].difference) at = c;
  }
  std::printf("%zu rows, %zu columns: max |A - B| = %.6g (%s at t = %.17g), tolerance %.6g\n", matched, names.size(),
              worst[at].difference, names[at].c_str(), worst[at].t, tolerance);
  int code = 0;
  if (unmatched > 0) {
    std::printf("%zu rows of %s have no row at their time in %s (the first at t = %.17g)\n", unmatched, a_path.c_str(),
                b_path.c_str(), first_unmatched);
    code = 1;
  }
  if (!(worst[at].difference <= tolerance)) {
    std::printf("over the tolerance\n");
    code = 1;
  }
  return code;
}

// ---- modelDescription.xml -------------------------------------------------------------------

struct Variable {
  std::string name;
  std::uint32_t vr = 0;
  std::string causality;
  bool derivative = false;
  std::size_t size = 1;  // an FMI 3.0 array's number of values (its Dimensions' product)
};

struct Description {
  int version = 0;  // 3 or 2
  std::string token;
  std::string cs_id, me_id, se_id;
  // Scheduled Execution's input clocks: value reference and interval, the fastest first.
  std::vector<std::pair<std::uint32_t, double>> clocks;
  std::vector<Variable> variables;
  double step = 0, stop = 0;
  std::size_t derivatives = 0;
  const Variable* find(const std::string& name) const {
    for (const Variable& v : variables)
      if (v.name == name) return &v;
    return nullptr;
  }
  const Variable& get(const std::string& name) const {
    const Variable* v = find(name);
    if (!v) fail(kUsage, "the FMU has no variable " + name);
    return *v;
  }
};

Description read_description(const std::string& dir) {
  pugi::xml_document doc;
  const std::string path = dir + "/modelDescription.xml";
  const pugi::xml_parse_result parsed = doc.load_file(path.c_str());
  if (!parsed) fail(kCallFailed, path + ": " + parsed.description());
  const pugi::xml_node root = doc.child("fmiModelDescription");
  if (!root) fail(kCallFailed, path + ": no fmiModelDescription");
  Description d;
  const std::string version = root.attribute("fmiVersion").as_string();
  if (version.rfind("3.", 0) == 0)
    d.version = 3;
  else if (version == "2.0")
    d.version = 2;
  else
    fail(kCallFailed, path + ": fmiVersion '" + version + "' is neither 3.x nor 2.0");
  d.token = root.attribute(d.version == 3 ? "instantiationToken" : "guid").as_string();
  d.cs_id = root.child("CoSimulation").attribute("modelIdentifier").as_string();
  d.me_id = root.child("ModelExchange").attribute("modelIdentifier").as_string();
  d.se_id = root.child("ScheduledExecution").attribute("modelIdentifier").as_string();
  const pugi::xml_node experiment = root.child("DefaultExperiment");
  d.step = experiment.attribute("stepSize").as_double(0);
  d.stop = experiment.attribute("stopTime").as_double(0);
  for (const pugi::xml_node v : root.child("ModelVariables").children()) {
    if (v.type() != pugi::node_element) continue;
    Variable var;
    var.name = v.attribute("name").as_string();
    var.vr = v.attribute("valueReference").as_uint();
    var.causality = v.attribute("causality").as_string("local");
    if (d.version == 3) {
      if (std::strcmp(v.name(), "Clock") == 0 && var.causality == "input")
        d.clocks.emplace_back(var.vr, v.attribute("intervalDecimal").as_double(0));
      if (std::strcmp(v.name(), "Float64") != 0) continue;  // the FMUs here have Float64 only
      var.derivative = static_cast<bool>(v.attribute("derivative"));
      for (const pugi::xml_node dimension : v.children("Dimension")) {
        if (!dimension.attribute("start"))
          fail(kCallFailed,
               path + ": " + var.name + ": a Dimension without start (a structural parameter's) is not read");
        var.size *= dimension.attribute("start").as_ullong();
      }
    } else {
      if (!v.child("Real")) continue;
      var.derivative = static_cast<bool>(v.child("Real").attribute("derivative"));
    }
    var.derivative = var.derivative || var.name.rfind("der(", 0) == 0;
    if (var.derivative) ++d.derivatives;
    d.variables.push_back(var);
  }
  std::sort(d.clocks.begin(), d.clocks.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return d;
}

// --build-args: the compile line's parts from sources/buildDescription.xml.
int build_args(const std::string& dir) {
  pugi::xml_document doc;
  char* absolute = realpath(dir.c_str(), nullptr);
  const std::string sources = (absolute ? std::string(absolute) : dir) + "/sources";
  std::free(absolute);
  const std::string path = sources + "/buildDescription.xml";
  const pugi::xml_parse_result parsed = doc.load_file(path.c_str());
  if (!parsed) fail(kCallFailed, path + ": " + parsed.description());
  const pugi::xml_node configuration = doc.child("fmiBuildDescription").child("BuildConfiguration");
  if (!configuration) fail(kCallFailed, path + ": no BuildConfiguration");
  int files = 0;
  for (const pugi::xml_node set : configuration.children("SourceFileSet")) {
    for (const std::string& option : split(set.attribute("compilerOptions").as_string(), ' '))
      if (!option.empty()) std::printf("%s\n", option.c_str());
    for (const pugi::xml_node define : set.children("PreprocessorDefinition")) {
      const pugi::xml_attribute value = define.attribute("value");
      std::printf("-D%s%s%s\n", define.attribute("name").as_string(), value ? "=" : "", value.as_string());
    }
    for (const pugi::xml_node include : set.children("IncludeDirectory"))
      std::printf("-I%s/%s\n", sources.c_str(), include.attribute("name").as_string());
    for (const pugi::xml_node file : set.children("SourceFile")) {
      std::printf("%s/%s\n", sources.c_str(), file.attribute("name").as_string());
      ++files;
    }
  }
  if (files == 0) fail(kCallFailed, path + ": no source file");
  return 0;
}

// ---- The binary -----------------------------------------------------------------------------

class Library {
 public:
  explicit Library(const std::string& path) : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) fail(kCallFailed, "dlopen " + path + ": " + dlerror());
  }
  ~Library() {
    if (handle_) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  template <class F>
  void get(F*& f, const char* name) const {
    void* p = dlsym(handle_, name);
    if (!p) fail(kCallFailed, std::string("the binary has no symbol ") + name);
    f = reinterpret_cast<F*>(p);
  }

 private:
  void* handle_;
};

// One instance of the FMU, whatever its version. The calls whose status the run decides on
// (set, do_step) return it; the others check it themselves.
class Instance {
 public:
  virtual ~Instance() = default;
  enum class Kind { kCoSimulation, kModelExchange, kScheduledExecution };
  virtual void instantiate(Kind kind, const std::string& name) = 0;
  virtual int activate(std::uint32_t clock, double t) = 0;  // Scheduled Execution
  // One variable's values (an FMI 3.0 array has several).
  virtual int set(std::uint32_t vr, const std::vector<double>& values) = 0;
  // The values of the variables vr, n_values in all.
  virtual void get(const std::vector<std::uint32_t>& vr, std::size_t n_values, std::vector<double>& values) = 0;
  virtual void initialize(double t_end) = 0;  // enter and exit initialization mode
  virtual int do_step(double t, double step) = 0;
  virtual void event_iteration() = 0;  // model exchange: until no discrete state needs an update
  virtual void enter_event_mode() = 0;
  virtual void enter_continuous_time_mode() = 0;
  virtual std::size_t states() = 0;
  virtual void get_states(std::vector<double>& x) = 0;
  virtual void set_time(double t) = 0;
  virtual void set_states(const std::vector<double>& x) = 0;
  virtual void get_derivatives(std::vector<double>& dx) = 0;
  virtual void completed_step() = 0;
  virtual void terminate() = 0;
  virtual void free_instance() = 0;
  virtual const char* set_name() const = 0;
};

// ---- FMI 3.0 ----

struct Fmi3 {
  fmi3GetVersionTYPE* GetVersion = nullptr;
  fmi3InstantiateCoSimulationTYPE* InstantiateCoSimulation = nullptr;
  fmi3InstantiateModelExchangeTYPE* InstantiateModelExchange = nullptr;
  fmi3FreeInstanceTYPE* FreeInstance = nullptr;
  fmi3EnterInitializationModeTYPE* EnterInitializationMode = nullptr;
  fmi3ExitInitializationModeTYPE* ExitInitializationMode = nullptr;
  fmi3TerminateTYPE* Terminate = nullptr;
  fmi3GetFloat64TYPE* GetFloat64 = nullptr;
  fmi3SetFloat64TYPE* SetFloat64 = nullptr;
  fmi3DoStepTYPE* DoStep = nullptr;
  fmi3EnterEventModeTYPE* EnterEventMode = nullptr;
  fmi3UpdateDiscreteStatesTYPE* UpdateDiscreteStates = nullptr;
  fmi3EnterContinuousTimeModeTYPE* EnterContinuousTimeMode = nullptr;
  fmi3GetNumberOfContinuousStatesTYPE* GetNumberOfContinuousStates = nullptr;
  fmi3GetContinuousStatesTYPE* GetContinuousStates = nullptr;
  fmi3SetTimeTYPE* SetTime = nullptr;
  fmi3SetContinuousStatesTYPE* SetContinuousStates = nullptr;
  fmi3GetContinuousStateDerivativesTYPE* GetContinuousStateDerivatives = nullptr;
  fmi3CompletedIntegratorStepTYPE* CompletedIntegratorStep = nullptr;
  fmi3InstantiateScheduledExecutionTYPE* InstantiateScheduledExecution = nullptr;
  fmi3ActivateModelPartitionTYPE* ActivateModelPartition = nullptr;

  Fmi3(const Library& lib, Instance::Kind kind) {
    const bool model_exchange = kind == Instance::Kind::kModelExchange;
    lib.get(GetVersion, "fmi3GetVersion");
    lib.get(FreeInstance, "fmi3FreeInstance");
    lib.get(EnterInitializationMode, "fmi3EnterInitializationMode");
    lib.get(ExitInitializationMode, "fmi3ExitInitializationMode");
    lib.get(Terminate, "fmi3Terminate");
    lib.get(GetFloat64, "fmi3GetFloat64");
    lib.get(SetFloat64, "fmi3SetFloat64");
    if (model_exchange) {
      lib.get(InstantiateModelExchange, "fmi3InstantiateModelExchange");
      lib.get(EnterEventMode, "fmi3EnterEventMode");
      lib.get(UpdateDiscreteStates, "fmi3UpdateDiscreteStates");
      lib.get(EnterContinuousTimeMode, "fmi3EnterContinuousTimeMode");
      lib.get(GetNumberOfContinuousStates, "fmi3GetNumberOfContinuousStates");
      lib.get(GetContinuousStates, "fmi3GetContinuousStates");
      lib.get(SetTime, "fmi3SetTime");
      lib.get(SetContinuousStates, "fmi3SetContinuousStates");
      lib.get(GetContinuousStateDerivatives, "fmi3GetContinuousStateDerivatives");
      lib.get(CompletedIntegratorStep, "fmi3CompletedIntegratorStep");
    } else if (kind == Instance::Kind::kScheduledExecution) {
      lib.get(InstantiateScheduledExecution, "fmi3InstantiateScheduledExecution");
      lib.get(ActivateModelPartition, "fmi3ActivateModelPartition");
    } else {
      lib.get(InstantiateCoSimulation, "fmi3InstantiateCoSimulation");
      lib.get(DoStep, "fmi3DoStep");
    }
    const char* version = GetVersion();
    if (!version || std::strncmp(version, "3.", 2) != 0)
      fail(kCallFailed, std::string("fmi3GetVersion returned ") + (version ? version : "null"));
  }
};

void log3(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
  std::fprintf(stderr, "log: %s %s %s [%s]\n", status_name(status), category ? category : "", message ? message : "",
               env ? static_cast<const char*>(env) : "");
}

class Instance3 final : public Instance {
 public:
  Instance3(const Fmi3& f, const Description& d, std::string resources)
      : f_(f), d_(d), resources_(std::move(resources)) {}

  void instantiate(Kind kind, const std::string& name) override {
    name_ = name;
    // The log callback's environment: the instance's name (log3 prints it after the message).
    void* env = const_cast<char*>(name_.c_str());
    const char* token = d_.token.c_str();
    switch (kind) {
      case Kind::kModelExchange:
        i_ = f_.InstantiateModelExchange(name_.c_str(), token, resources_.c_str(), false, true, env, log3);
        break;
      case Kind::kCoSimulation:
        i_ = f_.InstantiateCoSimulation(name_.c_str(), token, resources_.c_str(), false, true, false, false, nullptr, 0,
                                        env, log3, nullptr);
        break;
      case Kind::kScheduledExecution:
        i_ = f_.InstantiateScheduledExecution(name_.c_str(), token, resources_.c_str(), false, true, env, log3, nullptr,
                                              nullptr, nullptr);
        break;
    }
    if (!i_) fail(kCallFailed, "fmi3Instantiate... returned null");
  }
  int activate(std::uint32_t clock, double t) override { return f_.ActivateModelPartition(i_, clock, t); }
  int set(std::uint32_t vr, const std::vector<double>& values) override {
    return f_.SetFloat64(i_, &vr, 1, values.data(), values.size());
  }
  void get(const std::vector<std::uint32_t>& vr, std::size_t n_values, std::vector<double>& values) override {
    values.assign(n_values, 0.0);
    check(f_.GetFloat64(i_, vr.data(), vr.size(), values.data(), values.size()), "fmi3GetFloat64");
  }
  void initialize(double t_end) override {
    check(f_.EnterInitializationMode(i_, false, 0, 0, true, t_end), "fmi3EnterInitializationMode");
    check(f_.ExitInitializationMode(i_), "fmi3ExitInitializationMode");
  }
  int do_step(double t, double step) override {
    fmi3Boolean event = false, terminate = false, early = false;
    fmi3Float64 last = 0;
    return f_.DoStep(i_, t, step, true, &event, &terminate, &early, &last);
  }
  void event_iteration() override {
    for (int k = 0;; ++k) {
      fmi3Boolean again = false, terminate = false, nominals = false, values = false, next_defined = false;
      fmi3Float64 next = 0;
      check(f_.UpdateDiscreteStates(i_, &again, &terminate, &nominals, &values, &next_defined, &next),
            "fmi3UpdateDiscreteStates");
      if (terminate) fail(kCallFailed, "fmi3UpdateDiscreteStates asked to terminate");
      if (!again) return;
      if (k == 100) fail(kCallFailed, "fmi3UpdateDiscreteStates: no end of the event iteration in 100 calls");
    }
  }
  void enter_event_mode() override { check(f_.EnterEventMode(i_), "fmi3EnterEventMode"); }
  void enter_continuous_time_mode() override { check(f_.EnterContinuousTimeMode(i_), "fmi3EnterContinuousTimeMode"); }
  std::size_t states() override {
    std::size_t n = 0;
    check(f_.GetNumberOfContinuousStates(i_, &n), "fmi3GetNumberOfContinuousStates");
    return n;
  }
  void get_states(std::vector<double>& x) override {
    check(f_.GetContinuousStates(i_, x.data(), x.size()), "fmi3GetContinuousStates");
  }
  void set_time(double t) override { check(f_.SetTime(i_, t), "fmi3SetTime"); }
  void set_states(const std::vector<double>& x) override {
    check(f_.SetContinuousStates(i_, x.data(), x.size()), "fmi3SetContinuousStates");
  }
  void get_derivatives(std::vector<double>& dx) override {
    check(f_.GetContinuousStateDerivatives(i_, dx.data(), dx.size()), "fmi3GetContinuousStateDerivatives");
  }
  void completed_step() override {
    fmi3Boolean event = false, terminate = false;
    check(f_.CompletedIntegratorStep(i_, true, &event, &terminate), "fmi3CompletedIntegratorStep");
    if (event || terminate) fail(kCallFailed, "fmi3CompletedIntegratorStep asks for an event or the end");
  }
  void terminate() override { check(f_.Terminate(i_), "fmi3Terminate"); }
  void free_instance() override {
    if (i_) f_.FreeInstance(i_);
    i_ = nullptr;
  }
  const char* set_name() const override { return "fmi3SetFloat64"; }

 private:
  const Fmi3& f_;
  const Description& d_;
  std::string resources_, name_;
  fmi3Instance i_ = nullptr;
};

// ---- FMI 2.0 ----

struct Fmi2 {
  fmi2GetVersionTYPE* GetVersion = nullptr;
  fmi2GetTypesPlatformTYPE* GetTypesPlatform = nullptr;
  fmi2InstantiateTYPE* Instantiate = nullptr;
  fmi2FreeInstanceTYPE* FreeInstance = nullptr;
  fmi2SetupExperimentTYPE* SetupExperiment = nullptr;
  fmi2EnterInitializationModeTYPE* EnterInitializationMode = nullptr;
  fmi2ExitInitializationModeTYPE* ExitInitializationMode = nullptr;
  fmi2TerminateTYPE* Terminate = nullptr;
  fmi2GetRealTYPE* GetReal = nullptr;
  fmi2SetRealTYPE* SetReal = nullptr;
  fmi2DoStepTYPE* DoStep = nullptr;
  fmi2EnterEventModeTYPE* EnterEventMode = nullptr;
  fmi2NewDiscreteStatesTYPE* NewDiscreteStates = nullptr;
  fmi2EnterContinuousTimeModeTYPE* EnterContinuousTimeMode = nullptr;
  fmi2GetContinuousStatesTYPE* GetContinuousStates = nullptr;
  fmi2SetTimeTYPE* SetTime = nullptr;
  fmi2SetContinuousStatesTYPE* SetContinuousStates = nullptr;
  fmi2GetDerivativesTYPE* GetDerivatives = nullptr;
  fmi2CompletedIntegratorStepTYPE* CompletedIntegratorStep = nullptr;

  Fmi2(const Library& lib, bool model_exchange) {
    lib.get(GetVersion, "fmi2GetVersion");
    lib.get(GetTypesPlatform, "fmi2GetTypesPlatform");
    lib.get(Instantiate, "fmi2Instantiate");
    lib.get(FreeInstance, "fmi2FreeInstance");
    lib.get(SetupExperiment, "fmi2SetupExperiment");
    lib.get(EnterInitializationMode, "fmi2EnterInitializationMode");
    lib.get(ExitInitializationMode, "fmi2ExitInitializationMode");
    lib.get(Terminate, "fmi2Terminate");
    lib.get(GetReal, "fmi2GetReal");
    lib.get(SetReal, "fmi2SetReal");
    if (model_exchange) {
      lib.get(EnterEventMode, "fmi2EnterEventMode");
      lib.get(NewDiscreteStates, "fmi2NewDiscreteStates");
      lib.get(EnterContinuousTimeMode, "fmi2EnterContinuousTimeMode");
      lib.get(GetContinuousStates, "fmi2GetContinuousStates");
      lib.get(SetTime, "fmi2SetTime");
      lib.get(SetContinuousStates, "fmi2SetContinuousStates");
      lib.get(GetDerivatives, "fmi2GetDerivatives");
      lib.get(CompletedIntegratorStep, "fmi2CompletedIntegratorStep");
    } else {
      lib.get(DoStep, "fmi2DoStep");
    }
    const char* version = GetVersion();
    if (!version || std::strcmp(version, "2.0") != 0)
      fail(kCallFailed, std::string("fmi2GetVersion returned ") + (version ? version : "null"));
    const char* platform = GetTypesPlatform();
    if (!platform || std::strcmp(platform, "default") != 0)
      fail(kCallFailed, std::string("fmi2GetTypesPlatform returned ") + (platform ? platform : "null"));
  }
};

void log2(fmi2ComponentEnvironment, fmi2String instance, fmi2Status status, fmi2String category, fmi2String message,
          ...) {
  char text[2048] = "";
  if (message) {
    va_list args;
    va_start(args, message);
    std::vsnprintf(text, sizeof text, message, args);
    va_end(args);
  }
  std::fprintf(stderr, "log: %s %s %s [%s]\n", status_name(status), category ? category : "", text,
               instance ? instance : "");
}

class Instance2 final : public Instance {
 public:
  Instance2(const Fmi2& f, const Description& d, std::string resources)
      // The callbacks' members are const (fmi2CallbackFunctions): set in one go, kept for the
      // instance's life.
      : f_(f), d_(d), resources_(std::move(resources)), callbacks_{log2, std::calloc, std::free, nullptr, this} {}

  void instantiate(Kind kind, const std::string& name) override {
    if (kind == Kind::kScheduledExecution) fail(kUsage, "Scheduled Execution is FMI 3.0's");
    name_ = name;
    c_ = f_.Instantiate(name_.c_str(), kind == Kind::kModelExchange ? fmi2ModelExchange : fmi2CoSimulation,
                        d_.token.c_str(), resources_.c_str(), &callbacks_, fmi2False, fmi2True);
    if (!c_) fail(kCallFailed, "fmi2Instantiate returned null");
  }
  int activate(std::uint32_t, double) override { return kError; }
  int set(std::uint32_t vr, const std::vector<double>& values) override {
    if (values.size() != 1) fail(kUsage, "FMI 2.0 variables hold one value each");
    return f_.SetReal(c_, &vr, 1, values.data());
  }
  void get(const std::vector<std::uint32_t>& vr, std::size_t n_values, std::vector<double>& values) override {
    if (n_values != vr.size()) fail(kUsage, "FMI 2.0 variables hold one value each");
    values.assign(vr.size(), 0.0);
    check(f_.GetReal(c_, vr.data(), vr.size(), values.data()), "fmi2GetReal");
  }
  void initialize(double t_end) override {
    check(f_.SetupExperiment(c_, fmi2False, 0, 0, fmi2True, t_end), "fmi2SetupExperiment");
    check(f_.EnterInitializationMode(c_), "fmi2EnterInitializationMode");
    check(f_.ExitInitializationMode(c_), "fmi2ExitInitializationMode");
  }
  int do_step(double t, double step) override { return f_.DoStep(c_, t, step, fmi2True); }
  void event_iteration() override {
    for (int k = 0;; ++k) {
      fmi2EventInfo info{};
      check(f_.NewDiscreteStates(c_, &info), "fmi2NewDiscreteStates");
      if (info.terminateSimulation) fail(kCallFailed, "fmi2NewDiscreteStates asked to terminate");
      if (!info.newDiscreteStatesNeeded) return;
      if (k == 100) fail(kCallFailed, "fmi2NewDiscreteStates: no end of the event iteration in 100 calls");
    }
  }
  void enter_event_mode() override { check(f_.EnterEventMode(c_), "fmi2EnterEventMode"); }
  void enter_continuous_time_mode() override { check(f_.EnterContinuousTimeMode(c_), "fmi2EnterContinuousTimeMode"); }
  std::size_t states() override { return d_.derivatives; }  // FMI 2.0 has no call for it
  void get_states(std::vector<double>& x) override {
    check(f_.GetContinuousStates(c_, x.data(), x.size()), "fmi2GetContinuousStates");
  }
  void set_time(double t) override { check(f_.SetTime(c_, t), "fmi2SetTime"); }
  void set_states(const std::vector<double>& x) override {
    check(f_.SetContinuousStates(c_, x.data(), x.size()), "fmi2SetContinuousStates");
  }
  void get_derivatives(std::vector<double>& dx) override {
    check(f_.GetDerivatives(c_, dx.data(), dx.size()), "fmi2GetDerivatives");
  }
  void completed_step() override {
    fmi2Boolean event = fmi2False, terminate = fmi2False;
    check(f_.CompletedIntegratorStep(c_, fmi2True, &event, &terminate), "fmi2CompletedIntegratorStep");
    if (event || terminate) fail(kCallFailed, "fmi2CompletedIntegratorStep asks for an event or the end");
  }
  void terminate() override { check(f_.Terminate(c_), "fmi2Terminate"); }
  void free_instance() override {
    if (c_) f_.FreeInstance(c_);
    c_ = nullptr;
  }
  const char* set_name() const override { return "fmi2SetReal"; }

 private:
  const Fmi2& f_;
  const Description& d_;
  std::string resources_, name_;
  const fmi2CallbackFunctions callbacks_;
  fmi2Component c_ = nullptr;
};

// ---- The run --------------------------------------------------------------------------------

// NAME=VALUE; an FMI 3.0 array's values as NAME=V0,V1,... (commas or spaces), or one of them
// as NAME[i]=V.
struct Assignment {
  std::string name;
  std::vector<double> values;
  std::string text;  // as given
};

Assignment assignment(const std::string& text, const char* option) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) fail(kUsage, std::string(option) + ": '" + text + "' is not NAME=VALUE");
  Assignment a{text.substr(0, eq), {}, text};
  std::string list = text.substr(eq + 1);
  std::replace(list.begin(), list.end(), ',', ' ');
  std::istringstream in(list);
  std::string item;
  while (in >> item) a.values.push_back(number(item, std::string(option) + " " + text));
  if (a.values.empty()) fail(kUsage, std::string(option) + ": '" + text + "' has no value");
  return a;
}

struct Timed {
  double at = 0;
  Assignment what;
};

struct Options {
  std::string dir;
  bool model_exchange = false, scheduled = false, threads = false;
  double step = 0, t_end = -1, tolerance = 1e-10;
  std::vector<Assignment> start, inputs;
  std::map<long, std::vector<Assignment>> start_of;
  std::map<long, std::string> trace_of;
  std::string inputs_csv;
  std::vector<Timed> set_at;
  long instances = 1;
  bool expect_refused = false;
  double refused_step = 0;
};

// The inputs at time t: --inputs' last row at or before t, then --input's constants.
class Inputs {
 public:
  Inputs(const Options& o, const Description& d, double dt) : dt_(dt) {
    if (!o.inputs_csv.empty()) {
      csv_ = read_csv(o.inputs_csv);
      time_ = csv_.column("t");
      if (time_ < 0) fail(kUsage, o.inputs_csv + ": no time column t");
      for (std::size_t c = 0; c < csv_.names.size(); ++c) {
        const Variable* v = d.find(csv_.names[c]);
        if (v && v->causality == "input") columns_.emplace_back(c, v->vr);
      }
      if (columns_.empty()) fail(kUsage, o.inputs_csv + ": no column is an input of the FMU");
    }
    for (const Assignment& a : o.inputs) {
      const Variable& v = d.get(a.name);
      if (v.causality != "input") fail(kUsage, "--input " + a.text + ": " + a.name + " is not an input");
      if (a.values.size() != 1) fail(kUsage, "--input " + a.text + ": one value");
      constants_.emplace_back(v.vr, a.values[0]);
    }
  }
  std::vector<std::pair<std::uint32_t, double>> at(double t) {
    std::vector<std::pair<std::uint32_t, double>> values;
    if (time_ >= 0) {
      const double until = t + 1e-9 * dt_;
      while (row_ + 1 < csv_.rows.size() && csv_.rows[row_ + 1][static_cast<std::size_t>(time_)] <= until) ++row_;
      if (csv_.rows.empty() || csv_.rows[row_][static_cast<std::size_t>(time_)] > until)
        fail(kUsage, format("the inputs' file has no row at or before t = %.17g", t));
      for (const auto& [c, vr] : columns_) values.emplace_back(vr, csv_.rows[row_][c]);
    }
    values.insert(values.end(), constants_.begin(), constants_.end());
    return values;
  }

 private:
  double dt_;
  Csv csv_;
  int time_ = -1;
  std::size_t row_ = 0;
  std::vector<std::pair<std::size_t, std::uint32_t>> columns_;
  std::vector<std::pair<std::uint32_t, double>> constants_;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto need = [&](int& i, int n) {
    if (i + n >= argc) fail(kUsage, std::string(argv[i]) + " needs " + std::to_string(n) + " argument(s)");
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--interface") {
      need(i, 1);
      const std::string k = argv[++i];
      if (k != "cs" && k != "me" && k != "se") fail(kUsage, "--interface: cs, me or se");
      o.model_exchange = k == "me";
      o.scheduled = k == "se";
    } else if (a == "--step") {
      need(i, 1);
      o.step = number(argv[++i], a);
    } else if (a == "--t-end") {
      need(i, 1);
      o.t_end = number(argv[++i], a);
    } else if (a == "--tolerance") {
      need(i, 1);
      o.tolerance = number(argv[++i], a);
    } else if (a == "--start") {
      need(i, 1);
      o.start.push_back(assignment(argv[++i], "--start"));
    } else if (a == "--input") {
      need(i, 1);
      o.inputs.push_back(assignment(argv[++i], "--input"));
    } else if (a == "--inputs") {
      need(i, 1);
      o.inputs_csv = argv[++i];
    } else if (a == "--set-at") {
      need(i, 2);
      const double at = number(argv[i + 1], a);
      o.set_at.push_back({at, assignment(argv[i + 2], "--set-at")});
      i += 2;
    } else if (a == "--instances") {
      need(i, 1);
      o.instances = whole(argv[++i], a);
      if (o.instances < 1) fail(kUsage, "--instances: at least 1");
    } else if (a == "--start-of") {
      need(i, 2);
      o.start_of[whole(argv[i + 1], a)].push_back(assignment(argv[i + 2], "--start-of"));
      i += 2;
    } else if (a == "--trace-of") {
      need(i, 2);
      o.trace_of[whole(argv[i + 1], a)] = argv[i + 2];
      i += 2;
    } else if (a == "--threads") {
      o.threads = true;
    } else if (a == "--expect-refused-step") {
      need(i, 1);
      o.expect_refused = true;
      o.refused_step = number(argv[++i], a);
    } else if (!a.empty() && a[0] == '-') {
      fail(kUsage, "unknown option " + a);
    } else if (o.dir.empty()) {
      o.dir = a;
    } else {
      fail(kUsage, "one FMU directory only (" + o.dir + ", " + a + ")");
    }
  }
  if (o.dir.empty()) fail(kUsage, "no FMU directory (an unzipped FMU)");
  for (const auto& [i, _] : o.start_of)
    if (i < 0 || i >= o.instances) fail(kUsage, format("--start-of %ld: there are %ld instances", i, o.instances));
  for (const auto& [i, _] : o.trace_of)
    if (i < 1 || i >= o.instances)
      fail(kUsage,
           format("--trace-of %ld: instance 0 prints to standard output, the others are 1..%ld", i, o.instances - 1));
  if (o.expect_refused && (o.model_exchange || o.scheduled)) fail(kUsage, "--expect-refused-step is for co-simulation");
  return o;
}

// --threads: the slow partitions run in a thread of their own, while the fast partitions of the
// following ticks run in the main thread, as a preemptive scheduler would have them overlap.
class SlowThread {
 public:
  SlowThread() : thread_([this] { loop(); }) {}
  ~SlowThread() {
    {
      const std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // Queues a job (the slow partitions of one release, one per instance).
  void run(std::function<void()> job) {
    {
      const std::lock_guard<std::mutex> lock(m_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_all();
  }
  // Until every queued job has ended.
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return jobs_.empty() && !busy_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.erase(jobs_.begin());
      busy_ = true;
      lock.unlock();
      job();
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::function<void()>> jobs_;
  bool busy_ = false, stop_ = false;
  std::thread thread_;
};

// Model exchange's solver: SUNDIALS' CVODE, variable-order BDF with Newton iterations on a dense
// linear solver and CVODE's difference-quotient Jacobian, at relative and absolute tolerance TOL.
// It stops exactly at each communication point and starts afresh at it (CVodeReInit: the held
// inputs may jump there, CVODE's documented treatment of a discontinuity). x holds the states
// between calls.
class Cvode {
 public:
  Cvode(Instance& fmu, double tolerance) : fmu_(fmu) {
    x.assign(fmu.states(), 0.0);
    fmu.get_states(x);
    check(SUNContext_Create(nullptr, &context_), "SUNContext_Create");
    const auto n = static_cast<sunindextype>(x.size());
    y_ = N_VNew_Serial(n, context_);
    matrix_ = SUNDenseMatrix(n, n, context_);
    solver_ = SUNLinSol_Dense(y_, matrix_, context_);
    memory_ = CVodeCreate(CV_BDF, context_);
    if (!y_ || !matrix_ || !solver_ || !memory_) fail(kCallFailed, "CVODE: out of memory");
    std::copy(x.begin(), x.end(), N_VGetArrayPointer(y_));
    check(CVodeInit(memory_, derivatives, 0.0, y_), "CVodeInit");
    check(CVodeSStolerances(memory_, tolerance, tolerance), "CVodeSStolerances");
    check(CVodeSetUserData(memory_, &fmu_), "CVodeSetUserData");
    check(CVodeSetLinearSolver(memory_, solver_, matrix_), "CVodeSetLinearSolver");
    check(CVodeSetMaxNumSteps(memory_, 1000000), "CVodeSetMaxNumSteps");
  }
  ~Cvode() {
    CVodeFree(&memory_);
    SUNLinSolFree(solver_);
    SUNMatDestroy(matrix_);
    N_VDestroy(y_);
    SUNContext_Free(&context_);
  }
  Cvode(const Cvode&) = delete;
  Cvode& operator=(const Cvode&) = delete;

  // From the states x at t to next (the inputs set on the FMU held over it).
  void integrate(double t, double next) {
    std::copy(x.begin(), x.end(), N_VGetArrayPointer(y_));
    check(CVodeReInit(memory_, t, y_), "CVodeReInit");
    check(CVodeSetStopTime(memory_, next), "CVodeSetStopTime");
    double reached = t;
    check(CVode(memory_, next, y_, &reached, CV_NORMAL), "CVode");
    if (reached != next) fail(kCallFailed, format("CVode stopped at t = %.17g, not at %.17g", reached, next));
    const double* y = N_VGetArrayPointer(y_);
    std::copy(y, y + x.size(), x.begin());
  }

  std::vector<double> x;

 private:
  static int derivatives(double t, N_Vector y, N_Vector dydt, void* user) {
    Instance& fmu = *static_cast<Instance*>(user);
    const auto n = static_cast<std::size_t>(N_VGetLength(y));
    const double* in = N_VGetArrayPointer(y);
    std::vector<double> state(in, in + n), rate(n);
    fmu.set_time(t);
    fmu.set_states(state);
    fmu.get_derivatives(rate);
    std::copy(rate.begin(), rate.end(), N_VGetArrayPointer(dydt));
    return 0;
  }
  static void check(int flag, const char* function) {
    if (flag < 0) fail(kCallFailed, format("%s returned %d", function, flag));
  }

  Instance& fmu_;
  SUNContext context_ = nullptr;
  N_Vector y_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  void* memory_ = nullptr;
};

class Run {
 public:
  Run(const Options& o, const Description& d) : o_(o), d_(d) {
    const std::string id = o.model_exchange ? d.me_id : o.scheduled ? d.se_id : d.cs_id;
    if (id.empty())
      fail(kCallFailed, std::string("the FMU offers no ") + (o.model_exchange ? "ModelExchange"
                                                             : o.scheduled    ? "ScheduledExecution"
                                                                              : "CoSimulation"));
    if (o.scheduled && (d.version != 3 || d.clocks.size() != 2))
      fail(kCallFailed, "Scheduled Execution: an FMI 3.0 FMU with two input clocks (fast and slow) is run here");
    const std::string binary = o.dir + (d.version == 3 ? "/binaries/x86_64-linux/" : "/binaries/linux64/") + id + ".so";
    library_ = std::make_unique<Library>(binary);
    char* absolute = realpath(o.dir.c_str(), nullptr);
    const std::string root = absolute ? absolute : o.dir;
    std::free(absolute);
    if (d.version == 3)
      fmi3_ = std::make_unique<Fmi3>(*library_, kind());
    else
      fmi2_ = std::make_unique<Fmi2>(*library_, o.model_exchange);
    for (long i = 0; i < o.instances; ++i) {
      if (d.version == 3)
        instances_.push_back(std::make_unique<Instance3>(*fmi3_, d, root + "/resources/"));
      else
        instances_.push_back(std::make_unique<Instance2>(*fmi2_, d, "file://" + root + "/resources"));
    }
    dt_ = o.scheduled ? d.clocks[0].second : o.step > 0 ? o.step : d.step;
    t_end_ = o.t_end >= 0 ? o.t_end : d.stop;
    if (!(dt_ > 0)) fail(kUsage, "no communication step (--step, or the FMU's DefaultExperiment stepSize)");
    steps_ = std::lround(t_end_ / dt_);
    if (std::fabs(static_cast<double>(steps_) * dt_ - t_end_) > 1e-9 * t_end_)
      fail(kUsage, format("the end time %.17g is not a whole number of steps %.17g", t_end_, dt_));
    // The columns: the states (locals that are not derivatives), then the outputs, each in
    // value-reference order.
    std::vector<const Variable*> locals, outputs;
    for (const Variable& v : d.variables) {
      if (v.causality == "local" && !v.derivative) locals.push_back(&v);
      if (v.causality == "output") outputs.push_back(&v);
    }
    const auto by_vr = [](const Variable* a, const Variable* b) { return a->vr < b->vr; };
    std::stable_sort(locals.begin(), locals.end(), by_vr);
    std::stable_sort(outputs.begin(), outputs.end(), by_vr);
    header_ = "t";
    for (const auto* group : {&locals, &outputs})
      for (const Variable* v : *group) {
        for (std::size_t k = 0; k < v->size; ++k)
          header_ += "," + (v->size == 1 ? v->name : v->name + "[" + std::to_string(k) + "]");
        columns_.push_back(v->vr);
        values_count_ += v->size;
      }
    for (const Timed& s : o.set_at) target(s.what);  // an unknown name is a usage error
    for (const Assignment& a : o.start) target(a);
    for (const auto& [_, list] : o.start_of)
      for (const Assignment& a : list) target(a);
  }

  // The variable an assignment writes, and the element of an array it names as NAME[i] (or -1).
  std::pair<const Variable*, long> target(const Assignment& a) const {
    if (const Variable* v = d_.find(a.name)) {
      if (a.values.size() != v->size)
        fail(kUsage,
             format("%s: %s holds %zu values, %zu given", a.text.c_str(), a.name.c_str(), v->size, a.values.size()));
      return {v, -1};
    }
    const std::size_t open = a.name.find('[');
    if (open != std::string::npos && a.name.back() == ']') {
      const Variable* v = d_.find(a.name.substr(0, open));
      const long k = whole(a.name.substr(open + 1, a.name.size() - open - 2), a.text);
      if (v && k >= 0 && static_cast<std::size_t>(k) < v->size && v->size > 1) {
        if (a.values.size() != 1) fail(kUsage, a.text + ": one value for one element");
        return {v, k};
      }
    }
    fail(kUsage, a.text + ": the FMU has no variable " + a.name);
  }

  // Sets the assignment's values (an array's element through its whole array); the status.
  int write(Instance& fmu, const Assignment& a) {
    const auto [v, element] = target(a);
    if (element < 0) return fmu.set(v->vr, a.values);
    std::vector<double> values;
    fmu.get({v->vr}, v->size, values);
    values[static_cast<std::size_t>(element)] = a.values[0];
    return fmu.set(v->vr, values);
  }

  int run() {
    for (long i = 0; i < o_.instances; ++i) start(i);
    if (o_.expect_refused) return refused_step();
    if (o_.scheduled) return scheduled_execution();
    return o_.model_exchange ? model_exchange() : co_simulation();
  }

 private:
  Instance::Kind kind() const {
    return o_.model_exchange ? Instance::Kind::kModelExchange
           : o_.scheduled    ? Instance::Kind::kScheduledExecution
                             : Instance::Kind::kCoSimulation;
  }
  // Instantiate instance i, set its start values and initialize it.
  void start(long i) {
    Instance& fmu = *instances_[static_cast<std::size_t>(i)];
    fmu.instantiate(kind(), format("fmu_importer_%ld", i));
    std::vector<Assignment> starts = o_.start;
    if (const auto it = o_.start_of.find(i); it != o_.start_of.end())
      starts.insert(starts.end(), it->second.begin(), it->second.end());
    for (const Assignment& a : starts) {
      const int s = write(fmu, a);
      if (s != kOK && s != kWarning) {
        std::fprintf(stderr, "refused: %s (start value of instance %ld: %s returned %s)\n", a.text.c_str(), i,
                     fmu.set_name(), status_name(s));
        free_all();
        std::exit(kStartRefused);
      }
    }
    fmu.initialize(t_end_);
    if (o_.model_exchange) {
      fmu.event_iteration();  // exit initialization mode leaves the instance in event mode
      fmu.enter_continuous_time_mode();
    }
  }

  int refused_step() {
    const int s = instances_[0]->do_step(0, o_.refused_step);
    if (s == kError) {
      std::printf("refused: doStep(0, %.17g) returned %s, as expected\n", o_.refused_step, status_name(s));
      free_all();
      return 0;
    }
    std::printf("doStep(0, %.17g) returned %s: it was expected to be refused\n", o_.refused_step, status_name(s));
    free_all();
    return 1;
  }

  std::vector<FILE*> open_traces() {
    std::vector<FILE*> out(static_cast<std::size_t>(o_.instances), nullptr);
    out[0] = stdout;
    for (const auto& [i, path] : o_.trace_of) {
      out[static_cast<std::size_t>(i)] = std::fopen(path.c_str(), "w");
      if (!out[static_cast<std::size_t>(i)]) fail(kUsage, "cannot write " + path);
    }
    for (FILE* f : out)
      if (f) std::fprintf(f, "%s\n", header_.c_str());
    return out;
  }
  void close_traces(std::vector<FILE*>& out) {
    for (std::size_t i = 1; i < out.size(); ++i)
      if (out[i] && std::fclose(out[i]) != 0) fail(kCallFailed, "cannot write " + o_.trace_of.at(static_cast<long>(i)));
    std::fflush(stdout);
  }

  // The --set-at writes due at t (the first grid point at or after their time), once each.
  // Returns whether any was due; a refused one is printed and the run goes on.
  bool set_due(Instance& fmu, std::vector<bool>& done, double t, bool in_continuous_time) {
    bool any = false;
    for (std::size_t k = 0; k < o_.set_at.size(); ++k) {
      if (done[k] || o_.set_at[k].at > t + 1e-9 * dt_) continue;
      if (!any && in_continuous_time) fmu.enter_event_mode();
      any = true;
      done[k] = true;
      const Assignment& a = o_.set_at[k].what;
      const int s = write(fmu, a);
      if (s != kOK && s != kWarning)
        std::fprintf(stderr, "refused: %s (at t = %.17g: %s returned %s)\n", a.text.c_str(), t, fmu.set_name(),
                     status_name(s));
    }
    if (any && in_continuous_time) {
      fmu.event_iteration();
      fmu.enter_continuous_time_mode();
    }
    return any;
  }

  void set_inputs(Instance& fmu, const std::vector<std::pair<std::uint32_t, double>>& u) {
    for (const auto& [vr, value] : u) check(fmu.set(vr, {value}), fmu.set_name());
  }

  void print_row(Instance& fmu, FILE* out, double t) {
    if (!out) return;
    fmu.get(columns_, values_count_, values_);
    std::fprintf(out, "%.17g", t);
    for (double v : values_) std::fprintf(out, ",%.17g", v);
    std::fputc('\n', out);
  }

  int co_simulation() {
    Inputs inputs(o_, d_, dt_);
    std::vector<FILE*> out = open_traces();
    std::vector<std::vector<bool>> done(instances_.size(), std::vector<bool>(o_.set_at.size(), false));
    for (long k = 0; k <= steps_; ++k) {
      const double t = static_cast<double>(k) * dt_;
      const auto u = inputs.at(t);
      for (std::size_t i = 0; i < instances_.size(); ++i) {
        Instance& fmu = *instances_[i];
        set_due(fmu, done[i], t, false);
        set_inputs(fmu, u);
        print_row(fmu, out[i], t);
        if (k == steps_) continue;
        const int s = fmu.do_step(t, dt_);
        if (s != kOK && s != kWarning) {
          std::fflush(stdout);
          std::fprintf(stderr, "refused: doStep(%.17g, %.17g) of instance %zu returned %s\n", t, dt_, i,
                       status_name(s));
          free_all();
          std::exit(kStepRefused);
        }
      }
    }
    close_traces(out);
    terminate_all();
    return 0;
  }

  // The sequential scheduler: each tick's fast partition, then the slow partition of a tick of
  // the slow clock (whose job that tick released), as the runtime's sequential executive runs the
  // tasks; the row of tick n is what the fast partition gives at t_n.
  int scheduled_execution() {
    Inputs inputs(o_, d_, dt_);
    std::vector<FILE*> out = open_traces();
    const auto [fast, h] = d_.clocks[0];
    const auto [slow, slow_interval] = d_.clocks[1];
    const long ratio = std::lround(slow_interval / h);
    SlowThread worker;
    for (long n = 0; n < steps_; ++n) {  // the ticks of [0, T)
      const double t = static_cast<double>(n) * h;
      const auto u = inputs.at(t);
      // --threads: the slow job of the last release ends before this release (else the runtime
      // would count an overrun and skip a release, and the run would not be the sequential one).
      if (o_.threads && n % ratio == 0) worker.wait();
      for (std::size_t i = 0; i < instances_.size(); ++i) {
        Instance& fmu = *instances_[i];
        set_inputs(fmu, u);
        check(fmu.activate(fast, t), "fmi3ActivateModelPartition (fast clock)");
        print_row(fmu, out[i], t);
        if (n % ratio != 0) continue;
        if (o_.threads)
          worker.run(
              [&fmu, slow = slow, t] { check(fmu.activate(slow, t), "fmi3ActivateModelPartition (slow clock)"); });
        else
          check(fmu.activate(slow, t), "fmi3ActivateModelPartition (slow clock)");
      }
    }
    worker.wait();
    close_traces(out);
    terminate_all();
    return 0;
  }

  int model_exchange() {
    Inputs inputs(o_, d_, dt_);
    std::vector<FILE*> out = open_traces();
    std::vector<std::vector<bool>> done(instances_.size(), std::vector<bool>(o_.set_at.size(), false));
    std::vector<std::unique_ptr<Cvode>> solvers;
    for (auto& fmu : instances_) solvers.push_back(std::make_unique<Cvode>(*fmu, o_.tolerance));
    for (long k = 0; k <= steps_; ++k) {
      const double t = static_cast<double>(k) * dt_;
      const auto u = inputs.at(t);
      for (std::size_t i = 0; i < instances_.size(); ++i) {
        Instance& fmu = *instances_[i];
        Cvode& cvode = *solvers[i];
        fmu.set_time(t);
        fmu.set_states(cvode.x);
        set_due(fmu, done[i], t, true);
        set_inputs(fmu, u);
        print_row(fmu, out[i], t);
        if (k == steps_) continue;
        cvode.integrate(t, static_cast<double>(k + 1) * dt_);
        fmu.set_time(static_cast<double>(k + 1) * dt_);
        fmu.set_states(cvode.x);
        fmu.completed_step();
      }
    }
    close_traces(out);
    terminate_all();
    return 0;
  }

  void terminate_all() {
    for (auto& fmu : instances_) fmu->terminate();
    free_all();
  }
  void free_all() {
    for (auto& fmu : instances_) fmu->free_instance();
  }

  const Options& o_;
  const Description& d_;
  std::unique_ptr<Library> library_;
  std::unique_ptr<Fmi3> fmi3_;
  std::unique_ptr<Fmi2> fmi2_;
  std::vector<std::unique_ptr<Instance>> instances_;
  double dt_ = 0, t_end_ = 0;
  long steps_ = 0;
  std::string header_;
  std::vector<std::uint32_t> columns_;
  std::size_t values_count_ = 0;
  std::vector<double> values_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--compare") {
    if (argc < 4) fail(kUsage, "usage: fmu_importer --compare A.csv B.csv [--tolerance X] [--columns NAME,...]");
    double tolerance = 0;
    std::string columns;
    for (int i = 4; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--tolerance" && i + 1 < argc)
        tolerance = number(argv[++i], a);
      else if (a == "--columns" && i + 1 < argc)
        columns = argv[++i];
      else
        fail(kUsage, "--compare: unknown argument " + a);
    }
    return compare(argv[2], argv[3], tolerance, columns);
  }
  if (argc == 3 && std::string(argv[1]) == "--build-args") return build_args(argv[2]);
  const Options o = parse(argc, argv);
  const Description d = read_description(o.dir);
  Run run(o, d);
  return run.run();
}
