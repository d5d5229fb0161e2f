#include "base/trace.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dualrate {

void write_csv(const Trace& trace, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  for (std::size_t i = 0; i < trace.columns.size(); ++i) out << (i ? "," : "") << trace.columns[i];
  out << '\n';
  for (const auto& row : trace.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << fmt::format("{:.17g}", row[i]);
    out << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

Trace read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  Trace trace;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty trace");
  std::stringstream header(line);
  for (std::string col; std::getline(header, col, ',');) trace.columns.push_back(col);
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) {
      char* end = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      if (end == cell.c_str() || *end != '\0')
        throw std::runtime_error(path + ":" + std::to_string(line_number) + ": not a number: '" + cell + "'");
      row.push_back(v);
    }
    if (row.size() != trace.columns.size())
      throw std::runtime_error(path + ":" + std::to_string(line_number) + ": expected " +
                               std::to_string(trace.columns.size()) + " values, got " + std::to_string(row.size()));
    trace.rows.push_back(std::move(row));
  }
  return trace;
}

}  // namespace dualrate
