// The identifiers generated C++ code gives the names of a model: its own where they do not
// collide with the generated code's, renamed one-to-one where they would.
#pragma once

#include <string>

namespace dualrate {

// Whether the generated C++ code or what it includes already uses `name` for something of
// its own: a name ending in '_' (the generated code's locals and arrays), a name it declares
// (Scalar, Model, derivatives, ...), a namespace it uses (std, Eigen, dualrate) or a macro of
// the C library, the compiler, Eigen or the target programs (NULL, M_PI, linux, EIGEN_...,
// DUALRATE_...).
bool cpp_reserved(const std::string& name);
// The identifier generated code gives the model name `name`: the name itself, or for a name
// cpp_reserved says is taken, the name followed by "0_". One-to-one: a name kept as it is does
// not end in '_', a renamed one does, and no name the generated code declares ends in "_0_"
// or is a reserved name followed by "0_".
std::string cpp_name(const std::string& name);
// The identifier of the generated code's array `what` of model name `name` (a table's "values",
// "axis0", ...): name_what_, or cpp_name(name) followed by what_ for a name cpp_reserved says
// is taken (never two '_' in a row, which C++ reserves).
std::string cpp_array(const std::string& name, const std::string& what);

}  // namespace dualrate
