# Sources of well-kept libraries, taken from Debian's source packages at configure time
# (installed by scripts/deps), never copied into this repository:
#   newlib-source  -> newlib's fdlibm (libm/math, libm/common): the portable elementary functions
#   gcc-12-source  -> libgcc's soft-fp (correctly rounded software floating point) and longlong.h
# dualrate_debian_sources(<dir>) extracts the needed parts into <dir>/newlib and <dir>/gcc
# once (a stamp file records it) and sets DUALRATE_NEWLIB_DIR and DUALRATE_GCC_DIR.
function(dualrate_debian_sources dir)
  file(GLOB newlib_tar /usr/src/newlib/newlib-*.tar.xz)
  file(GLOB gcc_tar /usr/src/gcc-12/gcc-12*.tar.xz)
  if(NOT newlib_tar OR NOT gcc_tar)
    message(FATAL_ERROR "dualrate needs Debian's newlib-source and gcc-12-source packages (portable libm and "
                        "soft-float sources); run scripts/deps or: apt-get install newlib-source gcc-12-source")
  endif()
  list(GET newlib_tar 0 newlib_tar)
  list(GET gcc_tar 0 gcc_tar)
  set(stamp "${dir}/extracted.stamp")
  set(wanted "${newlib_tar};${gcc_tar}")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" done)
  endif()
  if(NOT done STREQUAL wanted)
    file(REMOVE_RECURSE "${dir}/newlib" "${dir}/gcc")
    file(MAKE_DIRECTORY "${dir}/newlib" "${dir}/gcc")
    execute_process(COMMAND tar xJf "${newlib_tar}" --strip-components=1 --wildcards
                            "*/newlib/libm/math/*" "*/newlib/libm/common/*"
                    WORKING_DIRECTORY "${dir}/newlib" RESULT_VARIABLE newlib_rc)
    execute_process(COMMAND tar xJf "${gcc_tar}" --strip-components=1 --wildcards
                            "*/libgcc/soft-fp/*" "*/libgcc/config/arm/sfp-machine.h" "*/include/longlong.h"
                    WORKING_DIRECTORY "${dir}/gcc" RESULT_VARIABLE gcc_rc)
    if(NOT newlib_rc EQUAL 0 OR NOT gcc_rc EQUAL 0)
      message(FATAL_ERROR "could not extract ${newlib_tar} or ${gcc_tar} into ${dir}")
    endif()
    file(WRITE "${stamp}" "${wanted}")
  endif()
  set(DUALRATE_NEWLIB_DIR "${dir}/newlib/newlib" PARENT_SCOPE)
  set(DUALRATE_GCC_DIR "${dir}/gcc" PARENT_SCOPE)
endfunction()
