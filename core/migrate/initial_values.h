// Without copied weights (`gradstep migrate --no-copy-weights`) each side starts from its own
// initialiser: the initial distributions of every matched parameter, compared, and the words that
// name those that differ. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/comparison.h"

#include <map>
#include <string>
#include <vector>

namespace gradstep::migrate {

/// Each matched parameter's initial values on both sides (init/NAME), summarised, with the
/// initialiser each side used; `toMs` maps PyTorch's module paths to the matched Cells'.
std::vector<InitialRow> compareInitialValues(const Capture& torch, const Capture& ms, const std::vector<ParamPair>& pairs,
                                             const std::vector<ParamInfo>& torchParams,
                                             const std::map<std::string, std::string>& toMs);

/// "0.weight kaiming_uniform(a=sqrt(5)) (std 0.11) vs 0.weight HeUniform() (std 0.271); ..." for
/// the rows that differ (three, the rest counted); empty when none does.
std::string differingInitialisers(const std::vector<InitialRow>& rows);

} // namespace gradstep::migrate
