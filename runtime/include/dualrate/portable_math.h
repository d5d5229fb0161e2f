/* dualrate's portable elementary functions: newlib's fdlibm, built from Debian's
   newlib-source for the host and for each target with the same flags (-ffp-contract=off,
   no builtins), so that a model calling sin, exp or pow computes the same bits everywhere
   (library runtime/portable_math, libdualrate_libm.a). fdlibm's errors are below one unit in
   the last place; its own symbol names are local to the library, which therefore neither
   clashes with nor replaces the platform's libm. C linkage, usable from C and C++.
   For each NAME in the lists: double dualrate_libm_NAME(double[, double]) and
   float dualrate_libm_NAMEf(float[, float]). */
#ifndef DUALRATE_PORTABLE_MATH_H
#define DUALRATE_PORTABLE_MATH_H

/* The one list of the portable functions: X(name) for each. */
#define DUALRATE_LIBM_UNARY(X) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(exp) X(log)
#define DUALRATE_LIBM_BINARY(X) X(atan2) X(pow)

#ifdef __cplusplus
extern "C" {
#endif

#define DUALRATE_LIBM_DECLARE1(name)     \
  double dualrate_libm_##name(double x); \
  float dualrate_libm_##name##f(float x);
#define DUALRATE_LIBM_DECLARE2(name)               \
  double dualrate_libm_##name(double x, double y); \
  float dualrate_libm_##name##f(float x, float y);
DUALRATE_LIBM_UNARY(DUALRATE_LIBM_DECLARE1)
DUALRATE_LIBM_BINARY(DUALRATE_LIBM_DECLARE2)
#undef DUALRATE_LIBM_DECLARE1
#undef DUALRATE_LIBM_DECLARE2

#ifdef __cplusplus
}
#endif

#endif
