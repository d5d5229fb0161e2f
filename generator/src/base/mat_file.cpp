#include "base/mat_file.hpp"

#include <fmt/format.h>
#include <matio.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace dualrate {

namespace {

struct CloseMat {
  void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct FreeMatVar {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, CloseMat>;
using MatVar = std::unique_ptr<matvar_t, FreeMatVar>;

// MATLAB's namelengthmax.
constexpr std::size_t kMaxNameLength = 63;
// matio writes a MAT 5 matrix element's size as a signed 32-bit number: 8 bytes per double
// plus at most 112 (flags 16, dimensions 16, a name of up to 63 characters 72, data tag 8).
constexpr std::size_t kMaxRows = (INT32_MAX - 112) / sizeof(double);

// The size of the uncompressed MAT 5 file of the trace's columns: the 128-byte header, then
// per column a matrix element: tag 8, flags 16, dimensions 16, the name (up to 4 characters
// packed in 8 bytes, else a tag 8 and the name padded to a multiple of 8), data tag 8, doubles.
std::uintmax_t mat5_size(const Trace& trace) {
  std::uintmax_t size = 128;
  for (const auto& name : trace.columns) {
    const std::uintmax_t name_bytes = name.size() <= 4 ? 8 : 8 + (name.size() + 7) / 8 * 8;
    size += 8 + 16 + 16 + name_bytes + 8 + sizeof(double) * trace.rows.size();
  }
  return size;
}

void check(const Trace& trace, const std::string& path) {
  static const std::regex matlab_name("[A-Za-z][A-Za-z0-9_]*");
  std::set<std::string> seen;
  for (const auto& name : trace.columns) {
    if (!std::regex_match(name, matlab_name) || name.size() > kMaxNameLength)
      throw std::runtime_error(
          fmt::format("{}: column '{}' is not a MATLAB variable name (a letter, then letters, "
                      "digits or '_', at most {} characters)",
                      path, name, kMaxNameLength));
    if (!seen.insert(name).second) throw std::runtime_error(fmt::format("{}: column '{}' appears twice", path, name));
  }
  for (std::size_t i = 0; i < trace.rows.size(); ++i)
    if (trace.rows[i].size() != trace.columns.size())
      throw std::runtime_error(fmt::format("{}: row {} has {} values for {} columns", path, i + 1, trace.rows[i].size(),
                                           trace.columns.size()));
  if (trace.rows.size() > kMaxRows)
    throw std::runtime_error(
        fmt::format("{}: {} rows are more than a MAT 5 variable holds ({})", path, trace.rows.size(), kMaxRows));
}

}  // namespace

void write_mat(const Trace& trace, const std::string& path, const std::string& creator) {
  check(trace, path);
  const std::string header = "MATLAB 5.0 MAT-file, Created by: " + creator;
  MatFile file(Mat_CreateVer(path.c_str(), header.c_str(), MAT_FT_MAT5));
  if (!file) throw std::runtime_error(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
  std::vector<double> column(trace.rows.size());
  for (std::size_t c = 0; c < trace.columns.size(); ++c) {
    for (std::size_t r = 0; r < trace.rows.size(); ++r) column[r] = trace.rows[r][c];
    std::size_t dims[2] = {column.size(), 1};
    MatVar var(Mat_VarCreate(trace.columns[c].c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, column.data(),
                             MAT_F_DONT_COPY_DATA));
    if (!var) throw std::runtime_error(fmt::format("{}: matio cannot create variable '{}'", path, trace.columns[c]));
    const int status = Mat_VarWrite(file.get(), var.get(), MAT_COMPRESSION_NONE);
    if (status != MATIO_E_NO_ERROR)
      throw std::runtime_error(
          fmt::format("{}: matio cannot write variable '{}' (error {})", path, trace.columns[c], status));
  }
  errno = 0;
  if (Mat_Close(file.release()) != MATIO_E_NO_ERROR)
    throw std::runtime_error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  // matio ignores what fwrite returns, and its seeks flush the buffer, so a full disk leaves a
  // short file and Mat_Close succeeds: the size tells.
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw std::runtime_error(fmt::format("cannot write {}: {}", path, error.message()));
  if (size != mat5_size(trace))
    throw std::runtime_error(fmt::format("cannot write {}: {} of {} bytes written", path, size, mat5_size(trace)));
}

}  // namespace dualrate
