/* The dualrate_libm_* entry points (declared in <dualrate/portable_math.h>) over newlib's
   fdlibm. The __ieee754_* kernels are used directly: fdlibm's w_* wrappers only add errno
   handling, which a step function does not consult (a non-finite result is caught by the
   runtime's fault check). */
#include "fdlibm.h"

#include <dualrate/portable_math.h>

/* fdlibm's sinh and cosh call exp and expf: these resolve to fdlibm's own kernels inside
   this library, never to the platform's libm (the names are made local with the rest). */
double exp(double x) { return __ieee754_exp(x); }
float expf(float x) { return __ieee754_expf(x); }

#define DUALRATE_LIBM_FORWARD1(name, double_call, float_call) \
  double dualrate_libm_##name(double x) { return double_call(x); } \
  float dualrate_libm_##name##f(float x) { return float_call(x); }
#define DUALRATE_LIBM_FORWARD2(name, double_call, float_call) \
  double dualrate_libm_##name(double x, double y) { return double_call(x, y); } \
  float dualrate_libm_##name##f(float x, float y) { return float_call(x, y); }

DUALRATE_LIBM_FORWARD1(sin, sin, sinf)
DUALRATE_LIBM_FORWARD1(cos, cos, cosf)
DUALRATE_LIBM_FORWARD1(tan, tan, tanf)
DUALRATE_LIBM_FORWARD1(asin, __ieee754_asin, __ieee754_asinf)
DUALRATE_LIBM_FORWARD1(acos, __ieee754_acos, __ieee754_acosf)
DUALRATE_LIBM_FORWARD1(atan, atan, atanf)
DUALRATE_LIBM_FORWARD2(atan2, __ieee754_atan2, __ieee754_atan2f)
DUALRATE_LIBM_FORWARD1(sinh, __ieee754_sinh, __ieee754_sinhf)
DUALRATE_LIBM_FORWARD1(cosh, __ieee754_cosh, __ieee754_coshf)
DUALRATE_LIBM_FORWARD1(tanh, tanh, tanhf)
DUALRATE_LIBM_FORWARD1(exp, __ieee754_exp, __ieee754_expf)
DUALRATE_LIBM_FORWARD1(log, __ieee754_log, __ieee754_logf)
DUALRATE_LIBM_FORWARD2(pow, __ieee754_pow, __ieee754_powf)
