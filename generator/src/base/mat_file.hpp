// MAT-file output of a trace through matio: version 5 (MATLAB, Octave, scipy.io.loadmat),
// uncompressed, one double column vector per trace column, named as the column.
#pragma once

#include <string>

#include "base/trace.hpp"

namespace dualrate {

// Writes `trace` to `path`. The header text is "MATLAB 5.0 MAT-file, Created by: <creator>"
// with no date, so the same trace gives the same bytes. Throws std::runtime_error, before
// the file is created, for a column name that is not a MATLAB variable name (a letter, then
// letters, digits or '_', at most 63 characters) or that repeats, a row whose length is not
// the number of columns, or more rows than a MAT 5 variable holds (2^31 bytes); after, when
// the file cannot be created, matio fails, or the file is not as long as MAT 5 makes it (matio
// does not report failed writes: a full disk).
void write_mat(const Trace& trace, const std::string& path, const std::string& creator);

}  // namespace dualrate
