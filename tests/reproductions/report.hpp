// What the report programs (seedNNN_report OUT_DIR) share: writing files, gnuplot SVGs in
// one style, and the main() that creates OUT_DIR, runs the report and turns an exception
// into a message and exit status 1.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>

#include "model/functions.hpp"
#include "base/process.hpp"

namespace dualrate::report {

namespace fs = std::filesystem;

inline void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Writes dir/<name>.gp (the common SVG settings, then `script`) and runs gnuplot on it,
// which writes dir/<name>.svg.
inline void plot(const fs::path& dir, const std::string& name, const std::string& script) {
  write(dir / (name + ".gp"), "set terminal svg size 720,480 dynamic font 'sans,12'\nset output '" + name +
                                  ".svg'\nset termoption noenhanced\nset key top left box opaque\nset grid\n" + script);
  const ProcessResult r = run_process({"sh", "-c", "cd '" + dir.string() + "' && gnuplot " + name + ".gp"});
  if (r.exit_code != 0) throw std::runtime_error("gnuplot failed on " + name + ".gp: " + r.output);
}

// main() of a report program: `body(dir)` returns the measured figures (Markdown), which
// are written to dir/measured.md and printed.
inline int main(int argc, char** argv, const std::function<std::string(const fs::path&)>& body) {
  const std::string program = fs::path(argv[0]).filename().string();
  if (argc != 2) {
    std::cerr << "usage: " << program << " OUT_DIR\n";
    return 1;
  }
  try {
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    init_symbolic();
    const std::string md = body(dir);
    write(dir / "measured.md", md);
    std::cout << md;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace dualrate::report
