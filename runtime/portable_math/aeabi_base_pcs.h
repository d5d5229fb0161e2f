/* Forced into each soft-fp source: the ARM run-time ABI's helper functions take their
   arguments and return their results in core registers (the base procedure call standard)
   even when the program uses the hard-float ABI, as on Cortex-M4F, whose doubles are
   software. Declaring them so first makes the soft-fp definitions follow it. */
#define DUALRATE_BASE_PCS __attribute__((pcs("aapcs")))
double __aeabi_dadd(double, double) DUALRATE_BASE_PCS;
double __aeabi_dsub(double, double) DUALRATE_BASE_PCS;
double __aeabi_dmul(double, double) DUALRATE_BASE_PCS;
double __aeabi_ddiv(double, double) DUALRATE_BASE_PCS;
double __aeabi_i2d(int) DUALRATE_BASE_PCS;
double __aeabi_ui2d(unsigned) DUALRATE_BASE_PCS;
double __aeabi_l2d(long long) DUALRATE_BASE_PCS;
double __aeabi_ul2d(unsigned long long) DUALRATE_BASE_PCS;
double __aeabi_f2d(float) DUALRATE_BASE_PCS;
float __aeabi_d2f(double) DUALRATE_BASE_PCS;
float __aeabi_fadd(float, float) DUALRATE_BASE_PCS;
float __aeabi_fsub(float, float) DUALRATE_BASE_PCS;
float __aeabi_fmul(float, float) DUALRATE_BASE_PCS;
float __aeabi_fdiv(float, float) DUALRATE_BASE_PCS;
float __aeabi_i2f(int) DUALRATE_BASE_PCS;
float __aeabi_ui2f(unsigned) DUALRATE_BASE_PCS;
float __aeabi_l2f(long long) DUALRATE_BASE_PCS;
float __aeabi_ul2f(unsigned long long) DUALRATE_BASE_PCS;
