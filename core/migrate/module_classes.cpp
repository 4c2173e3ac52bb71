// SPDX-License-Identifier: MIT
#include "migrate/module_classes.h"

#include <array>
#include <utility>

namespace gradstep::migrate {

bool correspondingClasses(const std::string& torch, const std::string& ms)
{
    if (torch == ms)
        return true;
    static const std::array<std::pair<const char*, const char*>, 8> renamed = {{
        {"Linear", "Dense"},
        {"Sequential", "SequentialCell"},
        {"ModuleList", "CellList"},
        {"ModuleDict", "CellDict"},
        {"ConvTranspose1d", "Conv1dTranspose"},
        {"ConvTranspose2d", "Conv2dTranspose"},
        {"ConvTranspose3d", "Conv3dTranspose"},
        {"CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits"},
    }};
    for (const auto& [t, m] : renamed)
        if (torch == t && ms == m)
            return true;
    return false;
}

bool isNormClass(const std::string& torchClass)
{
    return torchClass.rfind("BatchNorm", 0) == 0 || torchClass == "LayerNorm" || torchClass == "GroupNorm"
           || torchClass.rfind("InstanceNorm", 0) == 0 || torchClass == "SyncBatchNorm";
}

} // namespace gradstep::migrate
