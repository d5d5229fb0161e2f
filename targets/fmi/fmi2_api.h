/* fmi2_api.h - the FMI 2.0 C API: the platform types, callback structures and
 * every function the standard defines for Model Exchange and Co-Simulation,
 * declared for dualrate's FMU wrapper and its test importer. Written for
 * dualrate; signatures match FMI 2.0 exactly so any importer can call them. */
#ifndef DUALRATE_FMI2_API_H
#define DUALRATE_FMI2_API_H

#include <stddef.h>

#ifndef DUALRATE_FMI_EXPORT
#define DUALRATE_FMI_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Strings returned by fmi2GetTypesPlatform and fmi2GetVersion. */
#define fmi2TypesPlatform "default"
#define fmi2Version "2.0"

/* ---- Platform types ("default" platform) ------------------------------ */

typedef void *fmi2Component;            /* opaque handle of one FMU instance */
typedef void *fmi2ComponentEnvironment; /* importer's pointer, passed back   */
typedef void *fmi2FMUstate;             /* opaque snapshot of an instance    */
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

/* ---- Enumerations ------------------------------------------------------- */

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;

typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

/* ---- Importer-supplied callbacks ---------------------------------------- */

/* message is a printf-style format; the variadic part supplies its args. */
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment componentEnvironment, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void *obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment componentEnvironment, fmi2Status status);

/* Passed by pointer to fmi2Instantiate; every member is read-only. */
typedef struct {
  const fmi2CallbackLogger logger;
  const fmi2CallbackAllocateMemory allocateMemory;
  const fmi2CallbackFreeMemory freeMemory;
  const fmi2StepFinished stepFinished;
  const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* Filled in by fmi2NewDiscreteStates. */
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* ---- Function types (an importer uses fmi2<Name>TYPE* for dlsym results) - */

/* Shared by Model Exchange and Co-Simulation */
typedef const char *fmi2GetTypesPlatformTYPE(void);
typedef const char *fmi2GetVersionTYPE(void);
typedef fmi2Status fmi2SetDebugLoggingTYPE(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[]);

typedef fmi2Component fmi2InstantiateTYPE(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                          fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn);
typedef void fmi2FreeInstanceTYPE(fmi2Component c);

typedef fmi2Status fmi2SetupExperimentTYPE(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                           fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime);
typedef fmi2Status fmi2EnterInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2ExitInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2TerminateTYPE(fmi2Component c);
typedef fmi2Status fmi2ResetTYPE(fmi2Component c);

/* Reading and writing variables: one value per reference. */
typedef fmi2Status fmi2GetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]);
typedef fmi2Status fmi2GetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]);
typedef fmi2Status fmi2GetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]);
typedef fmi2Status fmi2GetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]);

typedef fmi2Status fmi2SetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]);
typedef fmi2Status fmi2SetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Integer value[]);
typedef fmi2Status fmi2SetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Boolean value[]);
typedef fmi2Status fmi2SetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     const fmi2String value[]);

/* Saving, restoring and serialising instance state */
typedef fmi2Status fmi2GetFMUstateTYPE(fmi2Component c, fmi2FMUstate *FMUstate);
typedef fmi2Status fmi2SetFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate);
typedef fmi2Status fmi2FreeFMUstateTYPE(fmi2Component c, fmi2FMUstate *FMUstate);
typedef fmi2Status fmi2SerializedFMUstateSizeTYPE(fmi2Component c, fmi2FMUstate FMUstate, size_t *size);
typedef fmi2Status fmi2SerializeFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[],
                                             size_t size);
typedef fmi2Status fmi2DeSerializeFMUstateTYPE(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                               fmi2FMUstate *FMUstate);

/* Partial derivatives */
typedef fmi2Status fmi2GetDirectionalDerivativeTYPE(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                                    size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                                    size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]);

/* Model Exchange only */
typedef fmi2Status fmi2EnterEventModeTYPE(fmi2Component c);
typedef fmi2Status fmi2NewDiscreteStatesTYPE(fmi2Component c, fmi2EventInfo *fmi2eventInfo);
typedef fmi2Status fmi2EnterContinuousTimeModeTYPE(fmi2Component c);
typedef fmi2Status fmi2CompletedIntegratorStepTYPE(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation);
typedef fmi2Status fmi2SetTimeTYPE(fmi2Component c, fmi2Real time);
typedef fmi2Status fmi2SetContinuousStatesTYPE(fmi2Component c, const fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetDerivativesTYPE(fmi2Component c, fmi2Real derivatives[], size_t nx);
typedef fmi2Status fmi2GetEventIndicatorsTYPE(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
typedef fmi2Status fmi2GetContinuousStatesTYPE(fmi2Component c, fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetNominalsOfContinuousStatesTYPE(fmi2Component c, fmi2Real x_nominal[], size_t nx);

/* Co-Simulation only */
typedef fmi2Status fmi2SetRealInputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[], const fmi2Real value[]);
typedef fmi2Status fmi2GetRealOutputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[]);
typedef fmi2Status fmi2DoStepTYPE(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                                  fmi2Boolean noSetFMUStatePriorToCurrentPoint);
typedef fmi2Status fmi2CancelStepTYPE(fmi2Component c);

/* Status queries after an asynchronous or failed step */
typedef fmi2Status fmi2GetStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Status *value);
typedef fmi2Status fmi2GetRealStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Real *value);
typedef fmi2Status fmi2GetIntegerStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value);
typedef fmi2Status fmi2GetBooleanStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value);
typedef fmi2Status fmi2GetStringStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2String *value);

/* ---- Exported entry points (plain, unprefixed names) -------------------- */

DUALRATE_FMI_EXPORT fmi2GetTypesPlatformTYPE fmi2GetTypesPlatform;
DUALRATE_FMI_EXPORT fmi2GetVersionTYPE fmi2GetVersion;
DUALRATE_FMI_EXPORT fmi2SetDebugLoggingTYPE fmi2SetDebugLogging;
DUALRATE_FMI_EXPORT fmi2InstantiateTYPE fmi2Instantiate;
DUALRATE_FMI_EXPORT fmi2FreeInstanceTYPE fmi2FreeInstance;
DUALRATE_FMI_EXPORT fmi2SetupExperimentTYPE fmi2SetupExperiment;
DUALRATE_FMI_EXPORT fmi2EnterInitializationModeTYPE fmi2EnterInitializationMode;
DUALRATE_FMI_EXPORT fmi2ExitInitializationModeTYPE fmi2ExitInitializationMode;
DUALRATE_FMI_EXPORT fmi2TerminateTYPE fmi2Terminate;
DUALRATE_FMI_EXPORT fmi2ResetTYPE fmi2Reset;

DUALRATE_FMI_EXPORT fmi2GetRealTYPE fmi2GetReal;
DUALRATE_FMI_EXPORT fmi2GetIntegerTYPE fmi2GetInteger;
DUALRATE_FMI_EXPORT fmi2GetBooleanTYPE fmi2GetBoolean;
DUALRATE_FMI_EXPORT fmi2GetStringTYPE fmi2GetString;
DUALRATE_FMI_EXPORT fmi2SetRealTYPE fmi2SetReal;
DUALRATE_FMI_EXPORT fmi2SetIntegerTYPE fmi2SetInteger;
DUALRATE_FMI_EXPORT fmi2SetBooleanTYPE fmi2SetBoolean;
DUALRATE_FMI_EXPORT fmi2SetStringTYPE fmi2SetString;

DUALRATE_FMI_EXPORT fmi2GetFMUstateTYPE fmi2GetFMUstate;
DUALRATE_FMI_EXPORT fmi2SetFMUstateTYPE fmi2SetFMUstate;
DUALRATE_FMI_EXPORT fmi2FreeFMUstateTYPE fmi2FreeFMUstate;
DUALRATE_FMI_EXPORT fmi2SerializedFMUstateSizeTYPE fmi2SerializedFMUstateSize;
DUALRATE_FMI_EXPORT fmi2SerializeFMUstateTYPE fmi2SerializeFMUstate;
DUALRATE_FMI_EXPORT fmi2DeSerializeFMUstateTYPE fmi2DeSerializeFMUstate;
DUALRATE_FMI_EXPORT fmi2GetDirectionalDerivativeTYPE fmi2GetDirectionalDerivative;

DUALRATE_FMI_EXPORT fmi2EnterEventModeTYPE fmi2EnterEventMode;
DUALRATE_FMI_EXPORT fmi2NewDiscreteStatesTYPE fmi2NewDiscreteStates;
DUALRATE_FMI_EXPORT fmi2EnterContinuousTimeModeTYPE fmi2EnterContinuousTimeMode;
DUALRATE_FMI_EXPORT fmi2CompletedIntegratorStepTYPE fmi2CompletedIntegratorStep;
DUALRATE_FMI_EXPORT fmi2SetTimeTYPE fmi2SetTime;
DUALRATE_FMI_EXPORT fmi2SetContinuousStatesTYPE fmi2SetContinuousStates;
DUALRATE_FMI_EXPORT fmi2GetDerivativesTYPE fmi2GetDerivatives;
DUALRATE_FMI_EXPORT fmi2GetEventIndicatorsTYPE fmi2GetEventIndicators;
DUALRATE_FMI_EXPORT fmi2GetContinuousStatesTYPE fmi2GetContinuousStates;
DUALRATE_FMI_EXPORT fmi2GetNominalsOfContinuousStatesTYPE fmi2GetNominalsOfContinuousStates;

DUALRATE_FMI_EXPORT fmi2SetRealInputDerivativesTYPE fmi2SetRealInputDerivatives;
DUALRATE_FMI_EXPORT fmi2GetRealOutputDerivativesTYPE fmi2GetRealOutputDerivatives;
DUALRATE_FMI_EXPORT fmi2DoStepTYPE fmi2DoStep;
DUALRATE_FMI_EXPORT fmi2CancelStepTYPE fmi2CancelStep;
DUALRATE_FMI_EXPORT fmi2GetStatusTYPE fmi2GetStatus;
DUALRATE_FMI_EXPORT fmi2GetRealStatusTYPE fmi2GetRealStatus;
DUALRATE_FMI_EXPORT fmi2GetIntegerStatusTYPE fmi2GetIntegerStatus;
DUALRATE_FMI_EXPORT fmi2GetBooleanStatusTYPE fmi2GetBooleanStatus;
DUALRATE_FMI_EXPORT fmi2GetStringStatusTYPE fmi2GetStringStatus;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DUALRATE_FMI2_API_H */
