// The FMI 3.0 functions of a dualrate FMU (docs/fmi.md): Co-Simulation and Model Exchange of
// the generated model through component.hpp's instances, or (an FMU built with --scheduled)
// Scheduled Execution of its dual-rate tasks. Saved states and directional derivatives are not
// offered: they return fmi3Error with a message.
#include <cstring>

#include "component.hpp"
#include "fmi3_api.h"

namespace {

using dualrate::fmi::Instance;
using dualrate::fmi::Kind;
using dualrate::fmi::Logger;
using dualrate::fmi::Status;

fmi3Status to_fmi3(Status s) { return static_cast<fmi3Status>(static_cast<int>(s)); }

void emit(const Logger& log, Status status, const char* category, const char* message) {
  reinterpret_cast<fmi3LogMessageCallback>(log.callback)(log.environment, to_fmi3(status), category, message);
}

Instance* instantiate(Kind kind, fmi3String name, fmi3String token, bool logging, fmi3InstanceEnvironment env,
                      fmi3LogMessageCallback log) {
  Logger logger;
  logger.emit = log ? emit : nullptr;
  logger.callback = reinterpret_cast<void*>(log);
  logger.environment = env;
  const auto say = [&](const char* message) {
    if (log) log(env, fmi3Error, "logStatusError", message);
  };
  if (!name || !*name) {
    say("instantiate: the instance needs a name");
    return nullptr;
  }
  if (!token || std::strcmp(token, dualrate_fmu::kInstantiationToken) != 0) {
    say("instantiate: the instantiation token is not this FMU's (its modelDescription.xml and binary differ)");
    return nullptr;
  }
  if ((kind == Kind::kScheduledExecution) != dualrate_fmu::kScheduledExecution) {
    say(dualrate_fmu::kScheduledExecution ? "instantiate: this FMU offers Scheduled Execution alone (dualrate fmu "
                                            "--scheduled); co-simulation and model exchange are another FMU"
                                          : "instantiate: this FMU offers co-simulation and model exchange; Scheduled "
                                            "Execution is another FMU (dualrate fmu --scheduled)");
    return nullptr;
  }
  logger.name(name);
  Instance* slot = dualrate::fmi::claim_slot();
  if (!slot) {
    say("instantiate: all of this FMU's instances are in use");
    return nullptr;
  }
  if (slot->instantiate(kind, logger) != Status::kOk) {
    slot->free();
    return nullptr;
  }
  (void)logging;
  return slot;
}

// The instance behind a handle, or null (an unknown or freed handle).
Instance* of(fmi3Instance i) { return dualrate::fmi::in_use(i); }

fmi3Status unsupported(fmi3Instance i, const char* function) {
  if (Instance* c = of(i)) c->refuse("%s: not offered by this FMU (docs/fmi.md)", function);
  return fmi3Error;
}

template <class F>
fmi3Status call(fmi3Instance i, F&& f) {
  Instance* c = of(i);
  return c ? to_fmi3(f(*c)) : fmi3Error;
}

}  // namespace

extern "C" {

const char* fmi3GetVersion(void) { return fmi3Version; }

fmi3Status fmi3SetDebugLogging(fmi3Instance i, fmi3Boolean, size_t, const fmi3String[]) {
  return of(i) ? fmi3OK : fmi3Error;
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token, fmi3String, fmi3Boolean,
                                          fmi3Boolean logging, fmi3InstanceEnvironment env,
                                          fmi3LogMessageCallback log) {
  return instantiate(Kind::kModelExchange, name, token, logging, env, log);
}

fmi3Instance fmi3InstantiateCoSimulation(fmi3String name, fmi3String token, fmi3String, fmi3Boolean,
                                         fmi3Boolean logging, fmi3Boolean event_mode_used, fmi3Boolean early_return,
                                         const fmi3ValueReference[], size_t, fmi3InstanceEnvironment env,
                                         fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback) {
  // Event mode and early return are not offered (canHandleEarlyReturn false, no events): an
  // importer that asks for them still gets plain steps.
  (void)event_mode_used;
  (void)early_return;
  return instantiate(Kind::kCoSimulation, name, token, logging, env, log);
}

// The tasks exchange their data through the runtime's double buffers (dualrate/dual_rate.hpp):
// a preempted slow partition needs no lock, so the preemption callbacks are not called.
fmi3Instance fmi3InstantiateScheduledExecution(fmi3String name, fmi3String token, fmi3String, fmi3Boolean,
                                               fmi3Boolean logging, fmi3InstanceEnvironment env,
                                               fmi3LogMessageCallback log, fmi3ClockUpdateCallback,
                                               fmi3LockPreemptionCallback, fmi3UnlockPreemptionCallback) {
  return instantiate(Kind::kScheduledExecution, name, token, logging, env, log);
}

void fmi3FreeInstance(fmi3Instance i) {
  if (Instance* c = of(i)) c->free();
}

fmi3Status fmi3EnterInitializationMode(fmi3Instance i, fmi3Boolean, fmi3Float64, fmi3Float64 start,
                                       fmi3Boolean stop_defined, fmi3Float64 stop) {
  return call(i, [&](Instance& c) { return c.enter_initialization(start, stop_defined, stop); });
}
fmi3Status fmi3ExitInitializationMode(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.exit_initialization(); });
}
fmi3Status fmi3EnterEventMode(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.enter_event_mode(); });
}
fmi3Status fmi3Terminate(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.terminate(); });
}
fmi3Status fmi3Reset(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.reset(); });
}

fmi3Status fmi3GetFloat64(fmi3Instance i, const fmi3ValueReference vr[], size_t n, fmi3Float64 values[],
                          size_t n_values) {
  return call(i, [&](Instance& c) { return c.get(vr, n, values, n_values); });
}
fmi3Status fmi3SetFloat64(fmi3Instance i, const fmi3ValueReference vr[], size_t n, const fmi3Float64 values[],
                          size_t n_values) {
  return call(i, [&](Instance& c) { return c.set(vr, n, values, n_values); });
}

#define DUALRATE_FMI3_NO_VARIABLES(T)                                                                    \
  fmi3Status fmi3Get##T(fmi3Instance i, const fmi3ValueReference[], size_t n, fmi3##T[], size_t) {       \
    return n == 0 && of(i) ? fmi3OK : unsupported(i, "fmi3Get" #T ": the FMU has no such variables");    \
  }                                                                                                      \
  fmi3Status fmi3Set##T(fmi3Instance i, const fmi3ValueReference[], size_t n, const fmi3##T[], size_t) { \
    return n == 0 && of(i) ? fmi3OK : unsupported(i, "fmi3Set" #T ": the FMU has no such variables");    \
  }
DUALRATE_FMI3_NO_VARIABLES(Float32)
DUALRATE_FMI3_NO_VARIABLES(Int8)
DUALRATE_FMI3_NO_VARIABLES(UInt8)
DUALRATE_FMI3_NO_VARIABLES(Int16)
DUALRATE_FMI3_NO_VARIABLES(UInt16)
DUALRATE_FMI3_NO_VARIABLES(Int32)
DUALRATE_FMI3_NO_VARIABLES(UInt32)
DUALRATE_FMI3_NO_VARIABLES(Int64)
DUALRATE_FMI3_NO_VARIABLES(UInt64)
DUALRATE_FMI3_NO_VARIABLES(Boolean)
DUALRATE_FMI3_NO_VARIABLES(String)
#undef DUALRATE_FMI3_NO_VARIABLES

fmi3Status fmi3GetBinary(fmi3Instance i, const fmi3ValueReference[], size_t n, size_t[], fmi3Binary[], size_t) {
  return n == 0 && of(i) ? fmi3OK : unsupported(i, "fmi3GetBinary: the FMU has no such variables");
}
fmi3Status fmi3SetBinary(fmi3Instance i, const fmi3ValueReference[], size_t n, const size_t[], const fmi3Binary[],
                         size_t) {
  return n == 0 && of(i) ? fmi3OK : unsupported(i, "fmi3SetBinary: the FMU has no such variables");
}
fmi3Status fmi3GetClock(fmi3Instance i, const fmi3ValueReference[], size_t, fmi3Clock[]) {
  return unsupported(i, "fmi3GetClock");
}
fmi3Status fmi3SetClock(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3Clock[]) {
  return unsupported(i, "fmi3SetClock");
}

fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance i, fmi3ValueReference, size_t*) {
  return unsupported(i, "fmi3GetNumberOfVariableDependencies");
}
fmi3Status fmi3GetVariableDependencies(fmi3Instance i, fmi3ValueReference, size_t[], fmi3ValueReference[], size_t[],
                                       fmi3DependencyKind[], size_t) {
  return unsupported(i, "fmi3GetVariableDependencies");
}
fmi3Status fmi3GetFMUState(fmi3Instance i, fmi3FMUState*) { return unsupported(i, "fmi3GetFMUState"); }
fmi3Status fmi3SetFMUState(fmi3Instance i, fmi3FMUState) { return unsupported(i, "fmi3SetFMUState"); }
fmi3Status fmi3FreeFMUState(fmi3Instance i, fmi3FMUState*) { return unsupported(i, "fmi3FreeFMUState"); }
fmi3Status fmi3SerializedFMUStateSize(fmi3Instance i, fmi3FMUState, size_t*) {
  return unsupported(i, "fmi3SerializedFMUStateSize");
}
fmi3Status fmi3SerializeFMUState(fmi3Instance i, fmi3FMUState, fmi3Byte[], size_t) {
  return unsupported(i, "fmi3SerializeFMUState");
}
fmi3Status fmi3DeserializeFMUState(fmi3Instance i, const fmi3Byte[], size_t, fmi3FMUState*) {
  return unsupported(i, "fmi3DeserializeFMUState");
}
fmi3Status fmi3GetDirectionalDerivative(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3ValueReference[],
                                        size_t, const fmi3Float64[], size_t, fmi3Float64[], size_t) {
  return unsupported(i, "fmi3GetDirectionalDerivative");
}
fmi3Status fmi3GetAdjointDerivative(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3ValueReference[],
                                    size_t, const fmi3Float64[], size_t, fmi3Float64[], size_t) {
  return unsupported(i, "fmi3GetAdjointDerivative");
}
fmi3Status fmi3EnterConfigurationMode(fmi3Instance i) { return unsupported(i, "fmi3EnterConfigurationMode"); }
fmi3Status fmi3ExitConfigurationMode(fmi3Instance i) { return unsupported(i, "fmi3ExitConfigurationMode"); }
fmi3Status fmi3GetIntervalDecimal(fmi3Instance i, const fmi3ValueReference vr[], size_t n, fmi3Float64 intervals[],
                                  fmi3IntervalQualifier qualifiers[]) {
  Instance* c = of(i);
  if (!c) return fmi3Error;
  if (n > 0 && (!vr || !intervals || !qualifiers))
    return to_fmi3(c->refuse("fmi3GetIntervalDecimal: no value references, intervals or qualifiers"));
  for (size_t k = 0; k < n; ++k) {
    const double interval = c->clock_interval(vr[k]);
    if (interval < 0) return to_fmi3(c->refuse("fmi3GetIntervalDecimal: %u is not a clock", vr[k]));
    intervals[k] = interval;
    qualifiers[k] = fmi3IntervalUnchanged;  // constant clocks: the interval is modelDescription.xml's
  }
  return fmi3OK;
}
fmi3Status fmi3GetIntervalFraction(fmi3Instance i, const fmi3ValueReference[], size_t, fmi3UInt64[], fmi3UInt64[],
                                   fmi3IntervalQualifier[]) {
  return unsupported(i, "fmi3GetIntervalFraction");
}
fmi3Status fmi3GetShiftDecimal(fmi3Instance i, const fmi3ValueReference[], size_t, fmi3Float64[]) {
  return unsupported(i, "fmi3GetShiftDecimal");
}
fmi3Status fmi3GetShiftFraction(fmi3Instance i, const fmi3ValueReference[], size_t, fmi3UInt64[], fmi3UInt64[]) {
  return unsupported(i, "fmi3GetShiftFraction");
}
fmi3Status fmi3SetIntervalDecimal(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3Float64[]) {
  return unsupported(i, "fmi3SetIntervalDecimal");
}
fmi3Status fmi3SetIntervalFraction(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3UInt64[],
                                   const fmi3UInt64[]) {
  return unsupported(i, "fmi3SetIntervalFraction");
}
fmi3Status fmi3SetShiftDecimal(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3Float64[]) {
  return unsupported(i, "fmi3SetShiftDecimal");
}
fmi3Status fmi3SetShiftFraction(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3UInt64[],
                                const fmi3UInt64[]) {
  return unsupported(i, "fmi3SetShiftFraction");
}
fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance i) { return of(i) ? fmi3OK : fmi3Error; }

// The model has no events: an event iteration ends at once.
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance i, fmi3Boolean* update_needed, fmi3Boolean* terminate,
                                    fmi3Boolean* nominals_changed, fmi3Boolean* values_changed,
                                    fmi3Boolean* next_event_defined, fmi3Float64* next_event) {
  if (!of(i)) return fmi3Error;
  if (update_needed) *update_needed = false;
  if (terminate) *terminate = false;
  if (nominals_changed) *nominals_changed = false;
  if (values_changed) *values_changed = false;
  if (next_event_defined) *next_event_defined = false;
  if (next_event) *next_event = 0;
  return fmi3OK;
}

fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.enter_continuous_time_mode(); });
}
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance i, fmi3Boolean, fmi3Boolean* enter_event, fmi3Boolean* terminate) {
  if (!of(i)) return fmi3Error;
  if (enter_event) *enter_event = false;
  if (terminate) *terminate = false;
  return fmi3OK;
}
fmi3Status fmi3SetTime(fmi3Instance i, fmi3Float64 t) {
  return call(i, [&](Instance& c) { return c.set_time(t); });
}
fmi3Status fmi3SetContinuousStates(fmi3Instance i, const fmi3Float64 x[], size_t n) {
  return call(i, [&](Instance& c) { return c.set_states(x, n); });
}
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance i, fmi3Float64 dx[], size_t n) {
  return call(i, [&](Instance& c) { return c.get_derivatives(dx, n); });
}
fmi3Status fmi3GetEventIndicators(fmi3Instance i, fmi3Float64[], size_t n) {
  return n == 0 && of(i) ? fmi3OK : unsupported(i, "fmi3GetEventIndicators: the model has no event indicators");
}
fmi3Status fmi3GetContinuousStates(fmi3Instance i, fmi3Float64 x[], size_t n) {
  return call(i, [&](Instance& c) { return c.get_states(x, n); });
}
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance i, fmi3Float64 x[], size_t n) {
  return call(i, [&](Instance& c) { return c.get_nominals(x, n); });
}
fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance i, size_t* n) {
  if (!of(i) || !n) return fmi3Error;
  *n = 0;
  return fmi3OK;
}
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance i, size_t* n) {
  Instance* c = of(i);
  if (!c || !n) return fmi3Error;
  *n = c->states();
  return fmi3OK;
}

fmi3Status fmi3EnterStepMode(fmi3Instance i) {
  return call(i, [](Instance& c) { return c.enter_step_mode(); });
}
fmi3Status fmi3GetOutputDerivatives(fmi3Instance i, const fmi3ValueReference[], size_t, const fmi3Int32[],
                                    fmi3Float64[], size_t) {
  return unsupported(i, "fmi3GetOutputDerivatives");
}
fmi3Status fmi3DoStep(fmi3Instance i, fmi3Float64 at, fmi3Float64 step, fmi3Boolean, fmi3Boolean* event_needed,
                      fmi3Boolean* terminate, fmi3Boolean* early_return, fmi3Float64* last_time) {
  Instance* c = of(i);
  if (!c) return fmi3Error;
  if (event_needed) *event_needed = false;
  if (terminate) *terminate = false;
  if (early_return) *early_return = false;
  const Status s = c->do_step(at, step);
  if (last_time) *last_time = c->time();
  return to_fmi3(s);
}

fmi3Status fmi3ActivateModelPartition(fmi3Instance i, fmi3ValueReference clock, fmi3Float64 t) {
  return call(i, [&](Instance& c) { return c.activate(clock, t); });
}

}  // extern "C"
