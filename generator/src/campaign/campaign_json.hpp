// The JSON of a campaign's point, shared by the project's campaign.json, a point's result and
// the report (a result counts for a point only while the two agree). Internal to campaign/.
#pragma once

#include <nlohmann/json.hpp>

#include "campaign/campaign.hpp"

namespace dualrate {

nlohmann::ordered_json point_json(const CampaignPoint& point);

}  // namespace dualrate
