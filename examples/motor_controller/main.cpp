// A DC motor speed controller on a Cortex-M4F (QEMU's mps2-an386), with the generated plant
// model of motor.yaml as its virtual sensor, calibrated while it runs (README.md).
//
// The fast task, in SysTick every h = motor::kStep: a PI speed controller computes the voltage
// from the model's speed, and the model steps with it. The background, in main's idle loop:
// motor::calibrate(), which takes a set of values that a calibration tool wrote and committed,
// then sleeps until the next interrupt. After kTicks ticks main prints one line per tick
// ("tick omega current R Kt", the last two the values the step used) through semihosting.
#include <cstdint>
#include <cstdio>

#include "motor.hpp"

namespace {

volatile std::uint32_t& reg(std::uintptr_t address) { return *reinterpret_cast<volatile std::uint32_t*>(address); }
constexpr std::uintptr_t kSysTickControl = 0xE000E010, kSysTickReload = 0xE000E014, kSysTickCurrent = 0xE000E018;
constexpr float kCpuHz = 25.0e6F;  // mps2-an386's processor clock
constexpr long kTicks = 600;

// Speed control by proportional and integral action on the error, the voltage limited to the
// supply with the integral held while limited.
class SpeedController {
 public:
  float voltage(float reference, float omega) {
    const float error = reference - omega;
    const float unlimited = kP * error + kI * (integral_ + error * motor::kStep);
    if (unlimited > 0.0F && unlimited < kSupply) integral_ += error * motor::kStep;
    return unlimited < 0.0F ? 0.0F : unlimited > kSupply ? kSupply : unlimited;
  }

 private:
  static constexpr float kP = 0.05F, kI = 2.0F, kSupply = 24.0F;  // V s/rad, V/rad, V
  float integral_ = 0.0F;
};

struct Sample {
  float omega, current, r, kt;
};

struct Commit {
  std::uint32_t number;
  long from_tick, to_tick;
  dualrate::calibration::Status status;
};
constexpr int kCommitsLogged = 8;

SpeedController controller;
Sample samples[kTicks];
Commit commits[kCommitsLogged];
int commits_logged = 0;

}  // namespace

motor::Data plant;                  // the model instance: `dualrate a2l --instance plant`
volatile long ticks = 0;            // fast-task runs so far
volatile bool plant_fault = false;  // a step reported a fault (non-finite state)

extern "C" void SysTick_Handler() {
  const long n = ticks;
  if (n >= kTicks) {
    reg(kSysTickControl) = 0;
    return;
  }
  const float reference = n < kTicks / 2 ? 40.0F : 60.0F;  // rad/s
  motor::Model::Input u;
  u << controller.voltage(reference, plant.x[0]);
  if (motor::step(plant, u) != dualrate::Status::kOk) plant_fault = true;
  samples[n] = {plant.x[0], plant.x[1], motor::Model::R, motor::Model::Kt};
  ticks = n + 1;
}

int main() {
  reg(kSysTickReload) = static_cast<std::uint32_t>(kCpuHz * motor::kStep + 0.5F) - 1;
  reg(kSysTickCurrent) = 0;
  reg(kSysTickControl) = 0x7u;  // processor clock, interrupt, enabled
  while (ticks < kTicks) {
    const std::uint32_t handled = motor::calibration_handled.commit;
    const long from_tick = ticks;
    const dualrate::calibration::Status status = motor::calibrate();
    if (motor::calibration_handled.commit != handled && commits_logged < kCommitsLogged)
      commits[commits_logged++] = {motor::calibration_handled.commit, from_tick, ticks, status};
    __asm__ volatile("wfi");
  }
  for (long i = 0; i < kTicks; ++i)
    std::printf("%ld %.9g %.9g %.9g %.9g\n", i, static_cast<double>(samples[i].omega),
                static_cast<double>(samples[i].current), static_cast<double>(samples[i].r),
                static_cast<double>(samples[i].kt));
  for (int i = 0; i < commits_logged; ++i) {
    const dualrate::calibration::Status s = commits[i].status;
    std::printf("# commit %lu between ticks %ld and %ld: %s %s\n", static_cast<unsigned long>(commits[i].number),
                commits[i].from_tick, commits[i].to_tick, dualrate::calibration::to_string(s.result),
                s.value >= 0 ? motor::status_value_names[s.value] : "");
  }
  return plant_fault ? 3 : 0;
}
