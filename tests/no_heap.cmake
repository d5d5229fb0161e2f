# Generates MODEL in double and float, compiles each into an object file with the product's
# strict flags (warnings are errors) and fails if the object references malloc, calloc,
# realloc, free or operator new/delete: the generated step uses no heap.
# Inputs: CLI MODEL NAME CXX RUNTIME EIGEN WORK, optionally GENERATE_ARGS (e.g. "--scheme
# quasistatic --step 0.01").
separate_arguments(generate_args UNIX_COMMAND "${GENERATE_ARGS}")
foreach(scalar double float)
  set(dir ${WORK}/${scalar})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND ${CLI} generate ${MODEL} ${generate_args} --scalar ${scalar} -o ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generate failed (${scalar}):\n${out}")
  endif()
  file(WRITE ${dir}/probe.cpp
"#include \"${NAME}.hpp\"
// One step and one output evaluation, with external linkage so that nothing is optimised away.
extern \"C\" int dualrate_probe_step(${NAME}::Data* d, const ${NAME}::Model::Input* u, ${NAME}::Model::Output* y) {
  const dualrate::Status s = ${NAME}::step(*d, *u);
  ${NAME}::Model::outputs(d->time(${NAME}::kStep), d->x, *u, *y);
  return static_cast<int>(s);
}
")
  execute_process(COMMAND ${CXX} -std=c++17 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion -Werror
                          -fno-exceptions -fno-rtti -I${dir} -I${RUNTIME} -isystem ${EIGEN}
                          -c ${dir}/probe.cpp -o ${dir}/probe.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generated code (${scalar}) does not compile warning-free:\n${out}")
  endif()
  execute_process(COMMAND nm -C --undefined-only ${dir}/probe.o RESULT_VARIABLE rc OUTPUT_VARIABLE symbols)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${dir}/probe.o")
  endif()
  string(REGEX MATCHALL "[^\n]*(malloc|calloc|realloc|[^a-z_]free|operator new|operator delete)[^\n]*" heap "${symbols}")
  if(heap)
    message(FATAL_ERROR "the generated step (${scalar}) references the heap:\n${heap}")
  endif()
  execute_process(COMMAND nm ${dir}/probe.o OUTPUT_VARIABLE defined)
  if(NOT defined MATCHES "T dualrate_probe_step")
    message(FATAL_ERROR "probe object has no step function: the check would prove nothing\n${defined}")
  endif()
  message(STATUS "${NAME} (${scalar}): no heap symbols; undefined symbols:\n${symbols}")
endforeach()
