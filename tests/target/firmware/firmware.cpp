// Runs N steps of the generated pendulum model (N from the command line) and reports.
#include <cstdio>
#include <cstdlib>

#include "pendulum_particle.hpp"

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 0;
  pendulum_particle::Data d;
  for (long i = 0; i < n; ++i)
    if (pendulum_particle::step(d, pendulum_particle::Model::scenario_inputs(d.time(pendulum_particle::kStep))) !=
        dualrate::Status::kOk)
      return 3;
  std::printf("%ld steps ok, theta = %g\n", n, static_cast<double>(d.x[0]));
  return 0;
}
