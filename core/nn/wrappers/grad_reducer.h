// nn.DistributedGradReducer's work in data-parallel training: every gradient is summed over the
// ranks of a group (an AllReduce node each, so the debugger shows them) and, with gradients_mean,
// divided by the degree (the number of ranks). SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>

namespace gradstep {

struct GradientReduction {
    bool mean = false;        ///< divide the sums by degree (set_auto_parallel_context's gradients_mean)
    std::int64_t degree = 1;  ///< ranks whose gradients are summed (device_num)
    std::string group = "hccl_world_group";
};

/// The reduced gradients, one per input, in order; undefined entries stay undefined.
TensorList reduceGradients(const TensorList& gradients, const GradientReduction& reduction);

} // namespace gradstep
