/* dualrate's portable elementary functions: newlib's fdlibm, built from Debian's
   newlib-source for the host and for each target with the same flags (-ffp-contract=off,
   no builtins), so that a model calling sin, exp or pow computes the same bits everywhere
   (library runtime/portable_math, libdualrate_libm.a). fdlibm's errors are below one unit in
   the last place; its own symbol names are local to the library, which therefore neither
   clashes with nor replaces the platform's libm. C linkage, usable from C and C++. */
#ifndef DUALRATE_PORTABLE_MATH_H
#define DUALRATE_PORTABLE_MATH_H

#ifdef __cplusplus
extern "C" {
#endif

#define DUALRATE_LIBM_DECLARE1(name) \
  double dualrate_libm_##name(double x); \
  float dualrate_libm_##name##f(float x);
#define DUALRATE_LIBM_DECLARE2(name) \
  double dualrate_libm_##name(double x, double y); \
  float dualrate_libm_##name##f(float x, float y);

DUALRATE_LIBM_DECLARE1(sin)
DUALRATE_LIBM_DECLARE1(cos)
DUALRATE_LIBM_DECLARE1(tan)
DUALRATE_LIBM_DECLARE1(asin)
DUALRATE_LIBM_DECLARE1(acos)
DUALRATE_LIBM_DECLARE1(atan)
DUALRATE_LIBM_DECLARE2(atan2)
DUALRATE_LIBM_DECLARE1(sinh)
DUALRATE_LIBM_DECLARE1(cosh)
DUALRATE_LIBM_DECLARE1(tanh)
DUALRATE_LIBM_DECLARE1(exp)
DUALRATE_LIBM_DECLARE1(log)
DUALRATE_LIBM_DECLARE2(pow)

#undef DUALRATE_LIBM_DECLARE1
#undef DUALRATE_LIBM_DECLARE2

#ifdef __cplusplus
}
#endif

#endif
