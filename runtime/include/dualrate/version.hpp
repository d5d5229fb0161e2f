// dualrate runtime version. Generated headers check DUALRATE_RUNTIME_API and refuse to
// compile against a runtime whose generated-code interface differs from the one they
// were emitted for.
#pragma once

#define DUALRATE_RUNTIME_VERSION_MAJOR 0
#define DUALRATE_RUNTIME_VERSION_MINOR 9
#define DUALRATE_RUNTIME_VERSION_PATCH 0

// Interface between generated code and runtime; bumped on any incompatible change.
#define DUALRATE_RUNTIME_API 9
