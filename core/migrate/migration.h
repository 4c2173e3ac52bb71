// `gradstep migrate` as one call: the PyTorch script in a child python3, its MindSpore port in
// gradstep's embedded interpreter from the same weights and batch, and the comparison. The API the
// command line uses and a view can use (it returns the result; it prints nothing).
// SPDX-License-Identifier: MIT
#pragma once

#include "migrate/comparison.h"

#include "run/diagnostic.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::migrate {

struct MigrationRequest {
    std::string torchScript, msScript;
    std::int64_t steps = 1;
    double tolerance = 1e-5;
    bool copyWeights = true;
    std::map<std::string, std::string> userMap; ///< --map: {"torch name": "mindspore name"}
    std::string python;                          ///< python3 with torch; empty: the configured one
    /// Polled while a side runs (a window's Stop): true ends the PyTorch child or stops the
    /// port, and the outcome says Cancelled. Null: never.
    std::function<bool()> cancelled;
    /// Told each stage as it starts ("PyTorch side", "MindSpore side", "comparing"), on the
    /// calling thread. Null: nothing told.
    std::function<void(const std::string& stage)> stageStarted;
};

enum class MigrationStatus {
    Compared,        ///< both ran far enough to compare (the port may have raised: a divergence)
    TorchMissing,    ///< python3 cannot import torch
    TorchFailed,     ///< the PyTorch script raised or never reached a training step
    MindsporeFailed, ///< the port raised before its network ran, or never ran one
    Cancelled,       ///< request.cancelled said so before the comparison was done
};

struct MigrationOutcome {
    MigrationStatus status = MigrationStatus::Compared;
    MigrationResult result;
    std::string message;                   ///< why it could not compare (TorchMissing/Failed, MindsporeFailed)
    std::optional<run::Diagnostic> msError; ///< the port's error, when it raised
    std::string torchOutput;               ///< what the PyTorch script printed
    double torchSeconds = 0, msSeconds = 0;
    /// What each side recorded (Compared only): the tensors a view shows beside the result. The
    /// MindSpore capture holds the gradients taken from gradstep's update events too.
    std::shared_ptr<const Capture> torchCapture, msCapture;
};

/// Runs both scripts and compares them. The embedded Python must be running (python::Host).
MigrationOutcome runMigration(const MigrationRequest& request);

} // namespace gradstep::migrate
