/* What newlib's fdlibm.h needs from <machine/ieeefp.h> when the C library is not newlib or
   picolibc (the host's glibc): the word order of a double. */
#pragma once
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __IEEE_LITTLE_ENDIAN
#else
#define __IEEE_BIG_ENDIAN
#endif
