// Trace program for a generated model: runs the generated step function and prints one CSV
// row (t, states, outputs) every EVERY steps, with the inputs of the model file's scenario.
// Built by `dualrate verify` with -DDUALRATE_MODEL_HEADER="<name>.hpp" -DDUALRATE_MODEL_NS=<name>.
// Usage: trace STEPS EVERY OUT.csv. Exit 0, or 3 with a message when a step reports a fault.
// With EIGEN_RUNTIME_NO_MALLOC defined, every step runs with Eigen's heap use forbidden.
#include DUALRATE_MODEL_HEADER

#include <cstdio>
#include <cstdlib>

namespace model = DUALRATE_MODEL_NS;
using Scalar = model::Model::Scalar;

namespace {

void print_row(std::FILE* out, const model::Data& d) {
  const Scalar t = d.time(model::kStep);
  const model::Model::Input u = model::Model::scenario_inputs(t);
  model::Model::Output y;
  model::Model::outputs(t, d.x, u, y);
  const int digits = sizeof(Scalar) == sizeof(float) ? 9 : 17;  // exact round trip
  std::fprintf(out, "%.*g", digits, static_cast<double>(t));
  for (int i = 0; i < model::Model::kStates; ++i) std::fprintf(out, ",%.*g", digits, static_cast<double>(d.x[i]));
  for (int i = 0; i < model::Model::kOutputs; ++i) std::fprintf(out, ",%.*g", digits, static_cast<double>(y[i]));
  std::fprintf(out, "\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s STEPS EVERY OUT.csv\n", argv[0]);
    return 1;
  }
  const long steps = std::atol(argv[1]);
  const long every = std::atol(argv[2]);
  std::FILE* out = std::fopen(argv[3], "w");
  if (!out || steps < 0 || every < 1) {
    std::fprintf(stderr, "bad arguments\n");
    return 1;
  }
  std::fprintf(out, "t");
  for (const char* name : model::Model::state_names) std::fprintf(out, ",%s", name);
  for (const char* name : model::Model::output_names) std::fprintf(out, ",%s", name);
  std::fprintf(out, "\n");

  model::Data d;
  print_row(out, d);
  for (long i = 0; i < steps; ++i) {
    const model::Model::Input u = model::Model::scenario_inputs(d.time(model::kStep));
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(false);
#endif
    const dualrate::Status status = model::step(d, u);
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(true);
#endif
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "step %ld at t = %.17g: %s\n", i, static_cast<double>(d.time(model::kStep)),
                   dualrate::to_string(status));
      std::fclose(out);
      return 3;
    }
    if ((i + 1) % every == 0 || i + 1 == steps) print_row(out, d);
  }
  return std::fclose(out) == 0 ? 0 : 1;
}
