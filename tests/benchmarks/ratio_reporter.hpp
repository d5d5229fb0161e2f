// Console output as Google Benchmark prints it, plus the CPU time per iteration of each
// benchmark by name, so that a benchmark program can print ratios measured in the same run.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace dualrate::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration) cpu[r.benchmark_name()] = r.GetAdjustedCPUTime();
  }
  // CPU time of benchmark `a` over that of `b`, or 0 when either was filtered out.
  double ratio(const std::string& a, const std::string& b) const {
    const auto x = cpu.find(a), y = cpu.find(b);
    return x == cpu.end() || y == cpu.end() ? 0 : x->second / y->second;
  }
  std::map<std::string, double> cpu;
};

}  // namespace dualrate::bench
