// Helpers shared by the graph-mode tests (jit_test.cpp, jit_loop_test.cpp): running a script
// with the mode override, recording its compiles, gradients and node events, and comparing the
// two modes. SPDX-License-Identifier: MIT
#pragma once

#include "tests/python/python_test_support.h"

#include "autodiff/observer.h"
#include "graph/graph.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gradstep::python::test {

struct Compile {
    std::string function;
    std::string signature;
    std::size_t compiles = 0;
    std::size_t ifNodes = 0;
    std::size_t whileNodes = 0;
    std::size_t customBpropNodes = 0;
    std::size_t nodes = 0;
    std::string text; ///< the compiled graph's text form
    std::size_t backwardNodes = 0; ///< top-level nodes in Phase::Backward
    std::size_t updateNodes = 0;   ///< top-level nodes in Phase::Update
};

/// Gradients of the first gradient-function calls (copied), every compile, and how many times
/// each op's node started.
class Recorder : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent& e) override
    {
        if (e.op)
            ++started[std::string(e.op->name)];
    }
    void nodeFinished(const NodeEvent&) override {}
    void gradCallFinished(const GradCallEvent& e) override;
    void graphCompiled(const GraphCompileEvent& e) override;

    static constexpr std::size_t kSteps = 8;
    std::vector<std::vector<std::vector<double>>> grads;
    std::vector<Compile> compiles;
    std::map<std::string, int> started;
};

struct ModeRun {
    Outcome outcome;
    Recorder recorder;
};

void runInMode(const std::filesystem::path& script, ModeOverride mode, ModeRun& run);
/// Writes `source` as main.py in a new temporary directory and runs it in graph mode.
ModeRun runGraphSource(const std::string& source);
std::filesystem::path sample(const std::string& name);
/// max |a - b| / max(max |b|, tiny).
double relativeError(const std::vector<double>& a, const std::vector<double>& b);
/// Runs the script in both modes: same printed output, compiles only in graph mode, and the same
/// recorded gradients within `tolerance`.
void checkSameInBothModes(const std::filesystem::path& script, double tolerance);

inline const std::string kPrelude = R"PY(import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
)PY";

} // namespace gradstep::python::test
