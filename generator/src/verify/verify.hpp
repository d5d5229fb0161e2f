// `dualrate verify`: generated code, compiled and run, against the reference core.
#pragma once

#include <Eigen/Dense>

#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "emit/cpp_emitter.hpp"
#include "model/model.hpp"
#include "verify/result.hpp"

namespace dualrate {

struct VerifyOptions {
  // The header's request. A design along the reference trajectory (scheduled constants, smfe's
  // h_s) follows it to generate.t_end (0: the model's simulation.t_end, as `generate` designs
  // it), not to the run's t_end: verify --t-end checks the header generate emits, or --header's.
  GenerateRequest generate;
  double t_end = 0;
  int every = 1;
  std::string target = "host";
  std::string keep_dir;  // keep everything here (empty: a temporary directory, removed after)
  // Verify this header instead of generating one (a hand-edited or deliberately broken one);
  // empty: generate it. It must define the model's namespace with the scheme and scalar above.
  std::string header_file;
  // Dual-rate schemes:
  Tasks tasks = Tasks::kMulti;  // kSingle: the sequential executive only; kMulti: also the preemptive one
  int slow_core = 0;            // 1: the slow task on a second core (CrossTarget::cores 2)
  long slow_delay_ticks = 0;    // > 0: slow job MACRO/2 busy-waits this many ticks (forced overrun)
  int icount_shift = -1;        // Cortex-M: QEMU's -icount shift (-1: kIcountShift)
  long tick_cycles = 0;         // Cortex-M: SysTick period in board cycles (0: h at the part's clock, below)
  // Cortex-M: the part the budget is estimated for (0: the target's default part_hz and cpi).
  // The emulated tick follows: h at cpu_hz / cpi instructions per second.
  double cpu_hz = 0;
  double cpi = 0;
  // Calibration writes of the scenario (verify --calibration, or the model's simulation:
  // calibration:): the generated code makes them in its trace programs, the reference core in
  // its runs, and both must decide each alike.
  std::vector<CalibrationWrite> calibration;
  // The accuracy the generated trace is judged with against the high-accuracy solution
  // (verify/accuracy.hpp): verify --tolerance and --absolute-tolerance over the model's
  // simulation: tolerance: and absolute_tolerance: (trace_comparison.hpp merged).
  ErrorTolerance tolerance;
  // Told each stage as it starts ("building for cortex-m4f", ...): the CLI shows it on a
  // terminal. Null: quiet.
  std::function<void(const std::string& stage)> progress;
};

// Why the header `text` is not one generated from `model` with the scheme, step and scalar of
// `generate` (what verify --header compares against), read from its first two lines; empty
// when it is.
std::string header_mismatch(const std::string& text, const Model& model, const GenerateRequest& generate);

// Returns a result whatever happens on the way (a file that cannot be written, ...: its
// error), so that `verify --json` prints one JSON object, except for a ModelError (a model
// the generator refuses), which is thrown, positioned in the model file.
VerifyResult verify(const Model& model, const VerifyOptions& options);

}  // namespace dualrate
