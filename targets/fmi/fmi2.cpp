// The FMI 2.0 functions of a dualrate FMU (docs/fmi.md): Co-Simulation and Model Exchange of
// the generated model through component.hpp's instances, with the importer's input
// derivatives (fmi2SetRealInputDerivatives) for the inputs the model holds linearly or
// quadratically. Saved states, directional derivatives and asynchronous steps are not offered:
// they return fmi2Error with a message.
#include <cstring>

#include "component.hpp"
#include "fmi2_api.h"

namespace {

using dualrate::fmi::Instance;
using dualrate::fmi::Kind;
using dualrate::fmi::Logger;
using dualrate::fmi::Status;

fmi2Status to_fmi2(Status s) { return static_cast<fmi2Status>(static_cast<int>(s)); }

void emit(const Logger& log, Status status, const char* category, const char* message) {
  reinterpret_cast<fmi2CallbackLogger>(log.callback)(log.environment, log.instance, to_fmi2(status), category, "%s",
                                                     message);
}

Instance* of(fmi2Component c) { return dualrate::fmi::in_use(c); }

fmi2Status unsupported(fmi2Component c, const char* function) {
  if (Instance* i = of(c)) i->refuse("%s: not offered by this FMU (docs/fmi.md)", function);
  return fmi2Error;
}

template <class F>
fmi2Status call(fmi2Component c, F&& f) {
  Instance* i = of(c);
  return i ? to_fmi2(f(*i)) : fmi2Error;
}

// FMI 2.0's start and stop times come with fmi2SetupExperiment, before initialization.
struct Experiment {
  double start = 0, stop = 0;
  bool stop_defined = false;
};
Experiment experiments[dualrate_fmu::kSlots];
Experiment& experiment(const Instance* i) {
  const auto& all = dualrate::fmi::slots();
  for (std::size_t k = 0; k < all.size(); ++k)
    if (all[k] == i) return experiments[k];
  return experiments[0];
}

}  // namespace

extern "C" {

const char* fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
const char* fmi2GetVersion(void) { return fmi2Version; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean, size_t, const fmi2String[]) {
  return of(c) ? fmi2OK : fmi2Error;
}

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String,
                              const fmi2CallbackFunctions* functions, fmi2Boolean, fmi2Boolean) {
  const fmi2CallbackLogger log = functions ? functions->logger : nullptr;
  void* env = functions ? functions->componentEnvironment : nullptr;
  const char* instance = name ? name : "";
  const auto say = [&](const char* message) {
    if (log) log(env, instance, fmi2Error, "logStatusError", "%s", message);
  };
  if (!name || !*name) {
    say("fmi2Instantiate: the instance needs a name");
    return nullptr;
  }
  if (dualrate_fmu::kScheduledExecution) {
    say("fmi2Instantiate: this FMU was built for FMI 3.0's Scheduled Execution");
    return nullptr;
  }
  if (!guid || std::strcmp(guid, dualrate_fmu::kInstantiationToken) != 0) {
    say("fmi2Instantiate: the GUID is not this FMU's (its modelDescription.xml and binary differ)");
    return nullptr;
  }
  Logger logger;
  logger.emit = log ? emit : nullptr;
  logger.callback = reinterpret_cast<void*>(log);
  logger.environment = env;
  logger.name(instance);
  const Kind kind = type == fmi2ModelExchange ? Kind::kModelExchange : Kind::kCoSimulation;
  Instance* slot = dualrate::fmi::claim_slot();
  if (!slot) {
    say("fmi2Instantiate: all of this FMU's instances are in use");
    return nullptr;
  }
  if (slot->instantiate(kind, logger) != Status::kOk) {
    slot->free();
    return nullptr;
  }
  experiment(slot) = {};
  return slot;
}

void fmi2FreeInstance(fmi2Component c) {
  if (Instance* i = of(c)) i->free();
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean, fmi2Real, fmi2Real start, fmi2Boolean stop_defined,
                               fmi2Real stop) {
  Instance* i = of(c);
  if (!i) return fmi2Error;
  experiment(i) = {start, stop, stop_defined != 0};
  return fmi2OK;
}
fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  return call(c, [](Instance& i) {
    const Experiment& e = experiment(&i);
    return i.enter_initialization(e.start, e.stop_defined, e.stop);
  });
}
fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  return call(c, [](Instance& i) { return i.exit_initialization(); });
}
fmi2Status fmi2Terminate(fmi2Component c) {
  return call(c, [](Instance& i) { return i.terminate(); });
}
fmi2Status fmi2Reset(fmi2Component c) {
  return call(c, [](Instance& i) { return i.reset(); });
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real values[]) {
  return call(c, [&](Instance& i) { return i.get(vr, n, values, n); });
}
fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real values[]) {
  return call(c, [&](Instance& i) { return i.set(vr, n, values, n); });
}
fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference[], size_t n, fmi2Integer[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2GetInteger: the FMU has no such variables");
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference[], size_t n, fmi2Boolean[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2GetBoolean: the FMU has no such variables");
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference[], size_t n, fmi2String[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2GetString: the FMU has no such variables");
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference[], size_t n, const fmi2Integer[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2SetInteger: the FMU has no such variables");
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference[], size_t n, const fmi2Boolean[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2SetBoolean: the FMU has no such variables");
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference[], size_t n, const fmi2String[]) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2SetString: the FMU has no such variables");
}

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate*) { return unsupported(c, "fmi2GetFMUstate"); }
fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate) { return unsupported(c, "fmi2SetFMUstate"); }
fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate*) { return unsupported(c, "fmi2FreeFMUstate"); }
fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate, size_t*) {
  return unsupported(c, "fmi2SerializedFMUstateSize");
}
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate, fmi2Byte[], size_t) {
  return unsupported(c, "fmi2SerializeFMUstate");
}
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte[], size_t, fmi2FMUstate*) {
  return unsupported(c, "fmi2DeSerializeFMUstate");
}
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2ValueReference[],
                                        size_t, const fmi2Real[], fmi2Real[]) {
  return unsupported(c, "fmi2GetDirectionalDerivative");
}

fmi2Status fmi2EnterEventMode(fmi2Component c) {
  return call(c, [](Instance& i) { return i.enter_event_mode(); });
}
// The model has no events: an event iteration ends at once.
fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  if (!of(c) || !info) return fmi2Error;
  *info = fmi2EventInfo{fmi2False, fmi2False, fmi2False, fmi2False, fmi2False, 0.0};
  return fmi2OK;
}
fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  return call(c, [](Instance& i) { return i.enter_continuous_time_mode(); });
}
fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean, fmi2Boolean* enter_event, fmi2Boolean* terminate) {
  if (!of(c)) return fmi2Error;
  if (enter_event) *enter_event = fmi2False;
  if (terminate) *terminate = fmi2False;
  return fmi2OK;
}
fmi2Status fmi2SetTime(fmi2Component c, fmi2Real t) {
  return call(c, [&](Instance& i) { return i.set_time(t); });
}
fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  return call(c, [&](Instance& i) { return i.set_states(x, n); });
}
fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  return call(c, [&](Instance& i) { return i.get_derivatives(dx, n); });
}
fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real[], size_t n) {
  return n == 0 && of(c) ? fmi2OK : unsupported(c, "fmi2GetEventIndicators: the model has no event indicators");
}
fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  return call(c, [&](Instance& i) { return i.get_states(x, n); });
}
fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  return call(c, [&](Instance& i) { return i.get_nominals(x, n); });
}

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                       const fmi2Integer order[], const fmi2Real value[]) {
  return call(c, [&](Instance& i) {
    if (n > 0 && (!vr || !order || !value))
      return i.refuse("fmi2SetRealInputDerivatives: no value references, orders or values");
    for (size_t k = 0; k < n; ++k)
      if (const Status s = i.set_input_rate(vr[k], order[k], value[k]); s != Status::kOk) return s;
    return Status::kOk;
  });
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2Integer[],
                                        fmi2Real[]) {
  return unsupported(c, "fmi2GetRealOutputDerivatives");
}
fmi2Status fmi2DoStep(fmi2Component c, fmi2Real at, fmi2Real step, fmi2Boolean) {
  return call(c, [&](Instance& i) { return i.do_step(at, step); });
}
fmi2Status fmi2CancelStep(fmi2Component c) { return unsupported(c, "fmi2CancelStep: steps are synchronous"); }
fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status*) {
  return unsupported(c, "fmi2GetStatus: steps are synchronous");
}
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Real* value) {
  Instance* i = of(c);
  if (!i || !value || kind != fmi2LastSuccessfulTime) return unsupported(c, "fmi2GetRealStatus");
  *value = i->time();
  return fmi2OK;
}
fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind, fmi2Integer*) {
  return unsupported(c, "fmi2GetIntegerStatus");
}
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Boolean* value) {
  if (!of(c) || !value || kind != fmi2Terminated) return unsupported(c, "fmi2GetBooleanStatus");
  *value = fmi2False;
  return fmi2OK;
}
fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind, fmi2String*) {
  return unsupported(c, "fmi2GetStringStatus");
}

}  // extern "C"
