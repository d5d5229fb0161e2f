// verify's result as JSON: the one schema of the object `dualrate verify --json` prints
// (VerifyResult::json) and of what reads it back (a campaign's point). Declared on
// nlohmann/json_fwd.hpp so that including this stays light; the conversions are used with
// nlohmann/json.hpp (`nlohmann::ordered_json j = result;`, `j.get<VerifyResult>()`).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "verify/verify.hpp"

namespace dualrate {

// The fields in a fixed order, each group only when it was measured (the -1 and empty values
// of VerifyResult are left out); the measured errors and tolerances to 7 significant digits,
// instruction means and latencies to 0.1, other numbers exactly. Not written: the local
// check's per-sample times and ratios, the handlers' instruction counts and the budget's
// verdict (it is in `error`).
void to_json(nlohmann::ordered_json& j, const VerifyResult& r);

// What to_json wrote back into r; a field that is absent keeps VerifyResult's default (-1: not
// measured), and a number written as null (JSON has no infinity: a trace with NaN has an
// infinite max_error) reads as infinity.
void from_json(const nlohmann::ordered_json& j, VerifyResult& r);

}  // namespace dualrate
