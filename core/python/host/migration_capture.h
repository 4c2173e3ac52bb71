// A run recorded for `gradstep migrate` (core/migrate): the request that arms the MindSpore side's
// capture (mindspore/_migrate_capture.py) before the user's port starts. No Python header here.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gradstep::python {

struct MigrationCapture {
    /// Holds torch.json / torch.bin from the PyTorch side; the run writes mindspore.json / .bin.
    std::string directory;
    std::int64_t steps = 1;  ///< optimizer updates recorded before the script is stopped
    bool copyWeights = true; ///< copy PyTorch's initial Parameters and buffers into the network
    /// Matches the network's Parameters to PyTorch's: gets {"params": [...]} as JSON text, returns
    /// {"pairs": [{"torch", "mindspore", "transpose"}]} (core/migrate/matching.h). Called once, on
    /// the worker, when the network is found.
    std::function<std::string(const std::string&)> match;
};

/// Arms the capture for the run being set up (GIL held); throws what Python raised.
void armMigrationCapture(const MigrationCapture& capture);
/// Writes what was recorded and takes the capture's wrappers off (GIL held; never throws).
void finishMigrationCapture() noexcept;

} // namespace gradstep::python
