// Umbrella header included by generated code.
#pragma once

#include "data.hpp"
#include "dual_rate.hpp"
#include "fault.hpp"
#include "mass.hpp"
#include "math.hpp"
#include "model.hpp"
#include "status.hpp"
#include "version.hpp"
#include "schemes/euler.hpp"
#include "schemes/mrabm4.hpp"
#include "schemes/prk.hpp"
#include "schemes/quasistatic.hpp"
#include "schemes/rk2.hpp"
#include "schemes/rk4.hpp"
#include "schemes/smfe.hpp"
#include "schemes/sp_ll.hpp"
