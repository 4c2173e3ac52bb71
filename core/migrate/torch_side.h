// Runs the PyTorch script in a child process: Debian's python3 with torch and our capture hook
// (capture/torch_capture.py, compiled into gradstep and written beside the capture), so torch's
// own threads and start-up stay out of gradstep's process. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep::migrate {

/// The hook's source (generated from capture/torch_capture.py).
std::string_view torchCaptureSource();

enum class TorchStatus { Captured, TorchMissing, ScriptFailed, Cancelled };

struct TorchRun {
    TorchStatus status = TorchStatus::Captured;
    int exitCode = 0;
    std::string output; ///< what the script and the hook printed (stdout and stderr)
    double seconds = 0;
};

/// Runs `python SCRIPT ARGS...` under the hook until `steps` optimizer steps are recorded into
/// DIRECTORY/torch.json and torch.bin. `python` is the interpreter holding torch. `cancelled`
/// (polled every 50 ms when given) true kills the child: the run ends Cancelled.
TorchRun runTorchSide(const std::string& python, const std::string& script, const std::vector<std::string>& args,
                      const std::string& directory, std::int64_t steps,
                      const std::function<bool()>& cancelled = {});

} // namespace gradstep::migrate
