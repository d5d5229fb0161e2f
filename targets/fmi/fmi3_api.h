/* fmi3_api.h - the FMI 3.0 C API: every type and function the standard defines
 * for an FMU's binary interface, declared here for dualrate's FMU wrapper and
 * for its test importer. Written for dualrate; the signatures follow the FMI 3.0
 * specification exactly so that any conforming importer can call them. */
#ifndef DUALRATE_FMI3_API_H
#define DUALRATE_FMI3_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef DUALRATE_FMI_EXPORT
#define DUALRATE_FMI_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version string reported by fmi3GetVersion. */
#define fmi3Version "3.0"

/* ---- Scalar and handle types ------------------------------------------- */

typedef void *fmi3Instance;            /* opaque handle of one FMU instance   */
typedef void *fmi3InstanceEnvironment; /* importer's pointer, passed back     */
typedef void *fmi3FMUState;            /* opaque snapshot of an instance      */
typedef uint32_t fmi3ValueReference;   /* identifies a variable               */

typedef float fmi3Float32;
typedef double fmi3Float64;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte *fmi3Binary;
typedef bool fmi3Clock;

#define fmi3True true
#define fmi3False false
#define fmi3ClockActive true
#define fmi3ClockInactive false

/* ---- Enumerations ------------------------------------------------------- */

typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;

typedef enum { fmi3Independent, fmi3Constant, fmi3Fixed, fmi3Tunable, fmi3Discrete, fmi3Dependent } fmi3DependencyKind;

typedef enum { fmi3IntervalNotYetKnown, fmi3IntervalUnchanged, fmi3IntervalChanged } fmi3IntervalQualifier;

/* ---- Callbacks supplied by the importer -------------------------------- */

typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment instanceEnvironment, fmi3Status status,
                                       fmi3String category, fmi3String message);

typedef void (*fmi3ClockUpdateCallback)(fmi3InstanceEnvironment instanceEnvironment);

typedef void (*fmi3IntermediateUpdateCallback)(fmi3InstanceEnvironment instanceEnvironment,
                                               fmi3Float64 intermediateUpdateTime,
                                               fmi3Boolean intermediateVariableSetRequested,
                                               fmi3Boolean intermediateVariableGetAllowed,
                                               fmi3Boolean intermediateStepFinished, fmi3Boolean canReturnEarly,
                                               fmi3Boolean *earlyReturnRequested, fmi3Float64 *earlyReturnTime);

/* Neither takes arguments (the standard spells the list "()"; "(void)" is the
 * same calling convention and keeps C's -Wstrict-prototypes quiet). */
typedef void (*fmi3LockPreemptionCallback)(void);
typedef void (*fmi3UnlockPreemptionCallback)(void);

/* ---- Function types (an importer uses fmi3<Name>TYPE* for dlsym results) - */

/* Shared by all interface kinds */
typedef const char *fmi3GetVersionTYPE(void);
typedef fmi3Status fmi3SetDebugLoggingTYPE(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                                           const fmi3String categories[]);

typedef fmi3Instance fmi3InstantiateModelExchangeTYPE(fmi3String instanceName, fmi3String instantiationToken,
                                                      fmi3String resourcePath, fmi3Boolean visible,
                                                      fmi3Boolean loggingOn,
                                                      fmi3InstanceEnvironment instanceEnvironment,
                                                      fmi3LogMessageCallback logMessage);

typedef fmi3Instance fmi3InstantiateCoSimulationTYPE(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3Boolean eventModeUsed, fmi3Boolean earlyReturnAllowed,
    const fmi3ValueReference requiredIntermediateVariables[], size_t nRequiredIntermediateVariables,
    fmi3InstanceEnvironment instanceEnvironment, fmi3LogMessageCallback logMessage,
    fmi3IntermediateUpdateCallback intermediateUpdate);

typedef fmi3Instance fmi3InstantiateScheduledExecutionTYPE(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment, fmi3LogMessageCallback logMessage,
    fmi3ClockUpdateCallback clockUpdate, fmi3LockPreemptionCallback lockPreemption,
    fmi3UnlockPreemptionCallback unlockPreemption);

typedef void fmi3FreeInstanceTYPE(fmi3Instance instance);

typedef fmi3Status fmi3EnterInitializationModeTYPE(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                                   fmi3Float64 tolerance, fmi3Float64 startTime,
                                                   fmi3Boolean stopTimeDefined, fmi3Float64 stopTime);
typedef fmi3Status fmi3ExitInitializationModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3EnterEventModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3TerminateTYPE(fmi3Instance instance);
typedef fmi3Status fmi3ResetTYPE(fmi3Instance instance);

/* Reading variables: values[] holds nValues elements (arrays flattened). */
typedef fmi3Status fmi3GetFloat32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, fmi3Float32 values[], size_t nValues);
typedef fmi3Status fmi3GetFloat64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, fmi3Float64 values[], size_t nValues);
typedef fmi3Status fmi3GetInt8TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                   size_t nValueReferences, fmi3Int8 values[], size_t nValues);
typedef fmi3Status fmi3GetUInt8TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3UInt8 values[], size_t nValues);
typedef fmi3Status fmi3GetInt16TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Int16 values[], size_t nValues);
typedef fmi3Status fmi3GetUInt16TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, fmi3UInt16 values[], size_t nValues);
typedef fmi3Status fmi3GetInt32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Int32 values[], size_t nValues);
typedef fmi3Status fmi3GetUInt32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, fmi3UInt32 values[], size_t nValues);
typedef fmi3Status fmi3GetInt64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Int64 values[], size_t nValues);
typedef fmi3Status fmi3GetUInt64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, fmi3UInt64 values[], size_t nValues);
typedef fmi3Status fmi3GetBooleanTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, fmi3Boolean values[], size_t nValues);
typedef fmi3Status fmi3GetStringTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, fmi3String values[], size_t nValues);
typedef fmi3Status fmi3GetBinaryTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, size_t valueSizes[], fmi3Binary values[], size_t nValues);
/* Clocks carry no nValues: one entry per value reference. */
typedef fmi3Status fmi3GetClockTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Clock values[]);

/* Writing variables */
typedef fmi3Status fmi3SetFloat32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, const fmi3Float32 values[], size_t nValues);
typedef fmi3Status fmi3SetFloat64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, const fmi3Float64 values[], size_t nValues);
typedef fmi3Status fmi3SetInt8TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                   size_t nValueReferences, const fmi3Int8 values[], size_t nValues);
typedef fmi3Status fmi3SetUInt8TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3UInt8 values[], size_t nValues);
typedef fmi3Status fmi3SetInt16TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Int16 values[], size_t nValues);
typedef fmi3Status fmi3SetUInt16TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const fmi3UInt16 values[], size_t nValues);
typedef fmi3Status fmi3SetInt32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Int32 values[], size_t nValues);
typedef fmi3Status fmi3SetUInt32TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const fmi3UInt32 values[], size_t nValues);
typedef fmi3Status fmi3SetInt64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Int64 values[], size_t nValues);
typedef fmi3Status fmi3SetUInt64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const fmi3UInt64 values[], size_t nValues);
typedef fmi3Status fmi3SetBooleanTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, const fmi3Boolean values[], size_t nValues);
typedef fmi3Status fmi3SetStringTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const fmi3String values[], size_t nValues);
typedef fmi3Status fmi3SetBinaryTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const size_t valueSizes[], const fmi3Binary values[],
                                     size_t nValues);
typedef fmi3Status fmi3SetClockTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Clock values[]);

/* Dependency information */
typedef fmi3Status fmi3GetNumberOfVariableDependenciesTYPE(fmi3Instance instance, fmi3ValueReference valueReference,
                                                           size_t *nDependencies);
typedef fmi3Status fmi3GetVariableDependenciesTYPE(fmi3Instance instance, fmi3ValueReference dependent,
                                                   size_t elementIndicesOfDependent[],
                                                   fmi3ValueReference independents[],
                                                   size_t elementIndicesOfIndependents[],
                                                   fmi3DependencyKind dependencyKinds[], size_t nDependencies);

/* Saving, restoring and serialising instance state */
typedef fmi3Status fmi3GetFMUStateTYPE(fmi3Instance instance, fmi3FMUState *FMUState);
typedef fmi3Status fmi3SetFMUStateTYPE(fmi3Instance instance, fmi3FMUState FMUState);
typedef fmi3Status fmi3FreeFMUStateTYPE(fmi3Instance instance, fmi3FMUState *FMUState);
typedef fmi3Status fmi3SerializedFMUStateSizeTYPE(fmi3Instance instance, fmi3FMUState FMUState, size_t *size);
typedef fmi3Status fmi3SerializeFMUStateTYPE(fmi3Instance instance, fmi3FMUState FMUState, fmi3Byte serializedState[],
                                             size_t size);
typedef fmi3Status fmi3DeserializeFMUStateTYPE(fmi3Instance instance, const fmi3Byte serializedState[], size_t size,
                                               fmi3FMUState *FMUState);

/* Partial derivatives */
typedef fmi3Status fmi3GetDirectionalDerivativeTYPE(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                                    size_t nUnknowns, const fmi3ValueReference knowns[], size_t nKnowns,
                                                    const fmi3Float64 seed[], size_t nSeed, fmi3Float64 sensitivity[],
                                                    size_t nSensitivity);
typedef fmi3Status fmi3GetAdjointDerivativeTYPE(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                                size_t nUnknowns, const fmi3ValueReference knowns[], size_t nKnowns,
                                                const fmi3Float64 seed[], size_t nSeed, fmi3Float64 sensitivity[],
                                                size_t nSensitivity);

/* Configuration / reconfiguration mode */
typedef fmi3Status fmi3EnterConfigurationModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3ExitConfigurationModeTYPE(fmi3Instance instance);

/* Clock timing: intervals and shifts, as decimals or as counter/resolution */
typedef fmi3Status fmi3GetIntervalDecimalTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences, fmi3Float64 intervals[],
                                              fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetIntervalFractionTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences, fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                               fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetShiftDecimalTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, fmi3Float64 shifts[]);
typedef fmi3Status fmi3GetShiftFractionTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences, fmi3UInt64 counters[], fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetIntervalDecimalTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences, const fmi3Float64 intervals[]);
typedef fmi3Status fmi3SetIntervalFractionTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences, const fmi3UInt64 counters[],
                                               const fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetShiftDecimalTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, const fmi3Float64 shifts[]);
typedef fmi3Status fmi3SetShiftFractionTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences, const fmi3UInt64 counters[],
                                            const fmi3UInt64 resolutions[]);

/* Discrete-state handling (event mode) */
typedef fmi3Status fmi3EvaluateDiscreteStatesTYPE(fmi3Instance instance);
typedef fmi3Status fmi3UpdateDiscreteStatesTYPE(fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
                                                fmi3Boolean *terminateSimulation,
                                                fmi3Boolean *nominalsOfContinuousStatesChanged,
                                                fmi3Boolean *valuesOfContinuousStatesChanged,
                                                fmi3Boolean *nextEventTimeDefined, fmi3Float64 *nextEventTime);

/* Model Exchange only */
typedef fmi3Status fmi3EnterContinuousTimeModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3CompletedIntegratorStepTYPE(fmi3Instance instance, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi3Boolean *enterEventMode, fmi3Boolean *terminateSimulation);
typedef fmi3Status fmi3SetTimeTYPE(fmi3Instance instance, fmi3Float64 time);
typedef fmi3Status fmi3SetContinuousStatesTYPE(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                               size_t nContinuousStates);
typedef fmi3Status fmi3GetContinuousStateDerivativesTYPE(fmi3Instance instance, fmi3Float64 derivatives[],
                                                         size_t nContinuousStates);
typedef fmi3Status fmi3GetEventIndicatorsTYPE(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                              size_t nEventIndicators);
typedef fmi3Status fmi3GetContinuousStatesTYPE(fmi3Instance instance, fmi3Float64 continuousStates[],
                                               size_t nContinuousStates);
typedef fmi3Status fmi3GetNominalsOfContinuousStatesTYPE(fmi3Instance instance, fmi3Float64 nominals[],
                                                         size_t nContinuousStates);
typedef fmi3Status fmi3GetNumberOfEventIndicatorsTYPE(fmi3Instance instance, size_t *nEventIndicators);
typedef fmi3Status fmi3GetNumberOfContinuousStatesTYPE(fmi3Instance instance, size_t *nContinuousStates);

/* Co-Simulation only */
typedef fmi3Status fmi3EnterStepModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3GetOutputDerivativesTYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                                size_t nValueReferences, const fmi3Int32 orders[], fmi3Float64 values[],
                                                size_t nValues);
typedef fmi3Status fmi3DoStepTYPE(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                  fmi3Float64 communicationStepSize, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                  fmi3Boolean *eventHandlingNeeded, fmi3Boolean *terminateSimulation,
                                  fmi3Boolean *earlyReturn, fmi3Float64 *lastSuccessfulTime);

/* Scheduled Execution only */
typedef fmi3Status fmi3ActivateModelPartitionTYPE(fmi3Instance instance, fmi3ValueReference clockReference,
                                                  fmi3Float64 activationTime);

/* ---- Exported entry points (plain, unprefixed names) -------------------- */

DUALRATE_FMI_EXPORT fmi3GetVersionTYPE fmi3GetVersion;
DUALRATE_FMI_EXPORT fmi3SetDebugLoggingTYPE fmi3SetDebugLogging;
DUALRATE_FMI_EXPORT fmi3InstantiateModelExchangeTYPE fmi3InstantiateModelExchange;
DUALRATE_FMI_EXPORT fmi3InstantiateCoSimulationTYPE fmi3InstantiateCoSimulation;
DUALRATE_FMI_EXPORT fmi3InstantiateScheduledExecutionTYPE fmi3InstantiateScheduledExecution;
DUALRATE_FMI_EXPORT fmi3FreeInstanceTYPE fmi3FreeInstance;
DUALRATE_FMI_EXPORT fmi3EnterInitializationModeTYPE fmi3EnterInitializationMode;
DUALRATE_FMI_EXPORT fmi3ExitInitializationModeTYPE fmi3ExitInitializationMode;
DUALRATE_FMI_EXPORT fmi3EnterEventModeTYPE fmi3EnterEventMode;
DUALRATE_FMI_EXPORT fmi3TerminateTYPE fmi3Terminate;
DUALRATE_FMI_EXPORT fmi3ResetTYPE fmi3Reset;

DUALRATE_FMI_EXPORT fmi3GetFloat32TYPE fmi3GetFloat32;
DUALRATE_FMI_EXPORT fmi3GetFloat64TYPE fmi3GetFloat64;
DUALRATE_FMI_EXPORT fmi3GetInt8TYPE fmi3GetInt8;
DUALRATE_FMI_EXPORT fmi3GetUInt8TYPE fmi3GetUInt8;
DUALRATE_FMI_EXPORT fmi3GetInt16TYPE fmi3GetInt16;
DUALRATE_FMI_EXPORT fmi3GetUInt16TYPE fmi3GetUInt16;
DUALRATE_FMI_EXPORT fmi3GetInt32TYPE fmi3GetInt32;
DUALRATE_FMI_EXPORT fmi3GetUInt32TYPE fmi3GetUInt32;
DUALRATE_FMI_EXPORT fmi3GetInt64TYPE fmi3GetInt64;
DUALRATE_FMI_EXPORT fmi3GetUInt64TYPE fmi3GetUInt64;
DUALRATE_FMI_EXPORT fmi3GetBooleanTYPE fmi3GetBoolean;
DUALRATE_FMI_EXPORT fmi3GetStringTYPE fmi3GetString;
DUALRATE_FMI_EXPORT fmi3GetBinaryTYPE fmi3GetBinary;
DUALRATE_FMI_EXPORT fmi3GetClockTYPE fmi3GetClock;

DUALRATE_FMI_EXPORT fmi3SetFloat32TYPE fmi3SetFloat32;
DUALRATE_FMI_EXPORT fmi3SetFloat64TYPE fmi3SetFloat64;
DUALRATE_FMI_EXPORT fmi3SetInt8TYPE fmi3SetInt8;
DUALRATE_FMI_EXPORT fmi3SetUInt8TYPE fmi3SetUInt8;
DUALRATE_FMI_EXPORT fmi3SetInt16TYPE fmi3SetInt16;
DUALRATE_FMI_EXPORT fmi3SetUInt16TYPE fmi3SetUInt16;
DUALRATE_FMI_EXPORT fmi3SetInt32TYPE fmi3SetInt32;
DUALRATE_FMI_EXPORT fmi3SetUInt32TYPE fmi3SetUInt32;
DUALRATE_FMI_EXPORT fmi3SetInt64TYPE fmi3SetInt64;
DUALRATE_FMI_EXPORT fmi3SetUInt64TYPE fmi3SetUInt64;
DUALRATE_FMI_EXPORT fmi3SetBooleanTYPE fmi3SetBoolean;
DUALRATE_FMI_EXPORT fmi3SetStringTYPE fmi3SetString;
DUALRATE_FMI_EXPORT fmi3SetBinaryTYPE fmi3SetBinary;
DUALRATE_FMI_EXPORT fmi3SetClockTYPE fmi3SetClock;

DUALRATE_FMI_EXPORT fmi3GetNumberOfVariableDependenciesTYPE fmi3GetNumberOfVariableDependencies;
DUALRATE_FMI_EXPORT fmi3GetVariableDependenciesTYPE fmi3GetVariableDependencies;

DUALRATE_FMI_EXPORT fmi3GetFMUStateTYPE fmi3GetFMUState;
DUALRATE_FMI_EXPORT fmi3SetFMUStateTYPE fmi3SetFMUState;
DUALRATE_FMI_EXPORT fmi3FreeFMUStateTYPE fmi3FreeFMUState;
DUALRATE_FMI_EXPORT fmi3SerializedFMUStateSizeTYPE fmi3SerializedFMUStateSize;
DUALRATE_FMI_EXPORT fmi3SerializeFMUStateTYPE fmi3SerializeFMUState;
DUALRATE_FMI_EXPORT fmi3DeserializeFMUStateTYPE fmi3DeserializeFMUState;

DUALRATE_FMI_EXPORT fmi3GetDirectionalDerivativeTYPE fmi3GetDirectionalDerivative;
DUALRATE_FMI_EXPORT fmi3GetAdjointDerivativeTYPE fmi3GetAdjointDerivative;

DUALRATE_FMI_EXPORT fmi3EnterConfigurationModeTYPE fmi3EnterConfigurationMode;
DUALRATE_FMI_EXPORT fmi3ExitConfigurationModeTYPE fmi3ExitConfigurationMode;

DUALRATE_FMI_EXPORT fmi3GetIntervalDecimalTYPE fmi3GetIntervalDecimal;
DUALRATE_FMI_EXPORT fmi3GetIntervalFractionTYPE fmi3GetIntervalFraction;
DUALRATE_FMI_EXPORT fmi3GetShiftDecimalTYPE fmi3GetShiftDecimal;
DUALRATE_FMI_EXPORT fmi3GetShiftFractionTYPE fmi3GetShiftFraction;
DUALRATE_FMI_EXPORT fmi3SetIntervalDecimalTYPE fmi3SetIntervalDecimal;
DUALRATE_FMI_EXPORT fmi3SetIntervalFractionTYPE fmi3SetIntervalFraction;
DUALRATE_FMI_EXPORT fmi3SetShiftDecimalTYPE fmi3SetShiftDecimal;
DUALRATE_FMI_EXPORT fmi3SetShiftFractionTYPE fmi3SetShiftFraction;

DUALRATE_FMI_EXPORT fmi3EvaluateDiscreteStatesTYPE fmi3EvaluateDiscreteStates;
DUALRATE_FMI_EXPORT fmi3UpdateDiscreteStatesTYPE fmi3UpdateDiscreteStates;

DUALRATE_FMI_EXPORT fmi3EnterContinuousTimeModeTYPE fmi3EnterContinuousTimeMode;
DUALRATE_FMI_EXPORT fmi3CompletedIntegratorStepTYPE fmi3CompletedIntegratorStep;
DUALRATE_FMI_EXPORT fmi3SetTimeTYPE fmi3SetTime;
DUALRATE_FMI_EXPORT fmi3SetContinuousStatesTYPE fmi3SetContinuousStates;
DUALRATE_FMI_EXPORT fmi3GetContinuousStateDerivativesTYPE fmi3GetContinuousStateDerivatives;
DUALRATE_FMI_EXPORT fmi3GetEventIndicatorsTYPE fmi3GetEventIndicators;
DUALRATE_FMI_EXPORT fmi3GetContinuousStatesTYPE fmi3GetContinuousStates;
DUALRATE_FMI_EXPORT fmi3GetNominalsOfContinuousStatesTYPE fmi3GetNominalsOfContinuousStates;
DUALRATE_FMI_EXPORT fmi3GetNumberOfEventIndicatorsTYPE fmi3GetNumberOfEventIndicators;
DUALRATE_FMI_EXPORT fmi3GetNumberOfContinuousStatesTYPE fmi3GetNumberOfContinuousStates;

DUALRATE_FMI_EXPORT fmi3EnterStepModeTYPE fmi3EnterStepMode;
DUALRATE_FMI_EXPORT fmi3GetOutputDerivativesTYPE fmi3GetOutputDerivatives;
DUALRATE_FMI_EXPORT fmi3DoStepTYPE fmi3DoStep;

DUALRATE_FMI_EXPORT fmi3ActivateModelPartitionTYPE fmi3ActivateModelPartition;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DUALRATE_FMI3_API_H */
