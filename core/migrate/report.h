// The comparison as `gradstep migrate` prints it (a text table) and writes it (--report JSON, the
// format issue 20 specifies). SPDX-License-Identifier: MIT
#pragma once

#include "migrate/comparison.h"

#include "io/json.h"

#include <string>

namespace gradstep::migrate {

/// {"verdict", "first_divergence", "layers", "params", "unmatched"} (+ "initial" when the weights
/// were not copied); non-finite numbers are written as null.
Json reportJson(const MigrationResult& result);

/// The verdict and first divergence, the layer table, the parameter table and what is unmatched.
std::string reportText(const MigrationResult& result);

} // namespace gradstep::migrate
