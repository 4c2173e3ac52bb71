// What the Migration view says of one pair and which tensors it inspects: the pair's heading and
// difference in words (the first divergence's explanation from the comparison when it is that
// pair), and PyTorch's tensor, MindSpore's and their difference as inspector entries, from the
// captures' values. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/compared_pairs.h"
#include "views/tensor_inspector.h"

#include <QString>
#include <vector>

namespace gradstep::views {

/// "forward output", "loss", "gradient", "after the update", "buffer after the update"
QString pairKindText(migrate::DivergenceKind kind);
/// One line: "step 2 · 3 / 42 · forward output · conv1 (Conv2d) ↔ conv1 (Conv2d) · diverges".
QString pairHeading(const migrate::ComparedPair& pair, std::size_t index, std::size_t count, std::int64_t step,
                    const migrate::Capture& torch, const migrate::Capture& ms);
/// The pair's difference in words, with the first divergence's explanation when `first`.
QString pairExplanation(const migrate::ComparedPair& pair, const migrate::MigrationResult& result, bool first,
                        const migrate::Capture& torch, const migrate::Capture& ms);
/// PyTorch's tensor, MindSpore's (in its own layout) and, when their sizes agree, MindSpore's
/// minus PyTorch's in PyTorch's layout; the values exactly as captured (float64).
std::vector<InspectedTensor> pairTensors(const migrate::ComparedPair& pair, const migrate::Capture& torch,
                                         const migrate::Capture& ms);

} // namespace gradstep::views
