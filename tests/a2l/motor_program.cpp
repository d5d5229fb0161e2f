// A stand-in for a program built with tests/models/calibration/motor.yaml's generated header: the
// objects of the contract `dualrate a2l` reads (generator/src/a2l/calibration_layout.hpp), declared
// by hand, and a main that uses them. SCALAR: float (default) or double. The EPK is read through a
// volatile pointer: `used` does not keep an object through the linker's --gc-sections (and GCC
// ignores `retain` for arm-none-eabi), a reference does.
#include <cstdint>

#ifndef SCALAR
#define SCALAR float
#endif
using Scalar = SCALAR;

namespace motor {
struct Calibration {
  Scalar R;
  Scalar Kt;
  Scalar friction[4];
};
inline Calibration calibration __attribute__((section(".dualrate.calibration"), used)) = {
    Scalar(1.0), Scalar(0.05), {Scalar(0.08), Scalar(0.1), Scalar(0.13), Scalar(0.2)}};
inline const char epk[] __attribute__((used)) = "motor 3f2a a2l test program";
struct CalibrationStatus {
  std::int32_t result;
  std::int32_t value;
};
inline CalibrationStatus calibration_status __attribute__((used)) = {0, -1};
}  // namespace motor

namespace dualrate_trace {
struct Data {
  Scalar x[2];  // the states omega (slow), I (fast)
  Scalar dx[2];
  std::int32_t steps;
};
inline Data data __attribute__((used));
inline Scalar inputs[1] __attribute__((used));
inline Scalar outputs[1] __attribute__((used));
}  // namespace dualrate_trace

int main() {
  using namespace dualrate_trace;
  inputs[0] = Scalar(12);
  data.x[1] = (inputs[0] - motor::calibration.R * data.x[1]) * motor::calibration.friction[3];
  outputs[0] = motor::calibration.Kt * data.x[1];
  const char* volatile epk = motor::epk;
  return epk[0] == 'm' && motor::calibration_status.value == -1 ? 0 : 1;
}
