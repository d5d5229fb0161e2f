# dualrate_add_model(<target> MODEL <file.yaml> [SCHEME <s>] [STEP <h>] [RATIO <r>] [SCALAR float|double]
#                    [LINEARIZATION exact|frozen|scheduled] [SCHEDULE_BY <expr> [<expr>]]
#                    [ALLOW_UNSTABLE] [JACOBIAN] [NAMESPACE <ns>] [INSTANCES <name> [<name>]]
#                    [GENERATOR <dualrate executable or target>])
#
# The generator is dualrate::dualrate (the CLI of find_package(dualrate), or of this build)
# unless GENERATOR names another executable.
# Generates <name>.hpp (with NAMESPACE: <ns>.hpp, its code in namespace <ns>) from the model file at build time (regenerated when the model
# changes) and defines an INTERFACE library <target> that puts the generated header and the
# dualrate runtime on the include path of whatever links it. The generator runs in
# PROJECT_SOURCE_DIR and the header names the model file relative to it; the global property
# DUALRATE_GENERATED_HEADERS lists every header generated this way.
function(dualrate_add_model target)
  cmake_parse_arguments(ARG "ALLOW_UNSTABLE;JACOBIAN" "MODEL;SCHEME;STEP;RATIO;SCALAR;LINEARIZATION;GENERATOR;NAMESPACE"
                        "SCHEDULE_BY;INSTANCES" ${ARGN})
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "dualrate_add_model(${target}): MODEL is required")
  endif()
  if(NOT ARG_GENERATOR)
    set(ARG_GENERATOR dualrate::dualrate)
  endif()
  set(generator ${ARG_GENERATOR})
  set(generator_depends ${ARG_GENERATOR})
  if(TARGET ${ARG_GENERATOR})
    get_target_property(aliased ${ARG_GENERATOR} ALIASED_TARGET)
    if(aliased)
      set(ARG_GENERATOR ${aliased})
    endif()
    set(generator $<TARGET_FILE:${ARG_GENERATOR}>)
    get_target_property(imported ${ARG_GENERATOR} IMPORTED)
    # A target of this build: a target-level dependency; an imported one: its file.
    set(generator_depends ${ARG_GENERATOR})
    if(imported)
      set(generator_depends ${generator})
    endif()
  endif()
  get_filename_component(model_path ${ARG_MODEL} ABSOLUTE)
  # The generator runs in the project's top directory and is given the model's path from there,
  # which the header names: no machine's absolute path in generated code.
  file(RELATIVE_PATH model_argument ${PROJECT_SOURCE_DIR} ${model_path})
  file(STRINGS ${model_path} name_line REGEX "^name:")
  string(REGEX REPLACE "^name:[ \t]*([A-Za-z0-9_]+).*" "\\1" model_name "${name_line}")
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(options)
  if(ARG_NAMESPACE)
    set(model_name ${ARG_NAMESPACE})
    list(APPEND options --namespace ${ARG_NAMESPACE})
  endif()
  foreach(opt SCHEME STEP RATIO SCALAR LINEARIZATION)
    if(ARG_${opt})
      string(TOLOWER ${opt} flag)
      list(APPEND options --${flag} ${ARG_${opt}})
    endif()
  endforeach()
  foreach(value ${ARG_SCHEDULE_BY})
    list(APPEND options --schedule-by ${value})
  endforeach()
  if(ARG_ALLOW_UNSTABLE)
    list(APPEND options --allow-unstable)
  endif()
  if(ARG_JACOBIAN)
    list(APPEND options --jacobian)
  endif()
  if(ARG_INSTANCES)
    string(REPLACE ";" "," instances "${ARG_INSTANCES}")
    list(APPEND options --instances ${instances})
  endif()
  add_custom_command(
    OUTPUT ${out_dir}/${model_name}.hpp
    COMMAND ${generator} generate ${model_argument} ${options} -o ${out_dir}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    DEPENDS ${model_path} ${generator_depends}
    COMMENT "dualrate: generating ${model_name}.hpp"
    VERBATIM)
  add_custom_target(${target}_header DEPENDS ${out_dir}/${model_name}.hpp)
  set_property(GLOBAL APPEND PROPERTY DUALRATE_GENERATED_HEADERS ${out_dir}/${model_name}.hpp)
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_header)
  target_include_directories(${target} INTERFACE ${out_dir})
  target_link_libraries(${target} INTERFACE dualrate::runtime)
endfunction()
