// SPDX-License-Identifier: MIT
#include "migrate/migration.h"

#include "migrate/torch_side.h"

#include "python/host/script_runner.h"

#include "autodiff/observer.h"
#include "io/temporary_directory.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

namespace gradstep::migrate {

namespace {

/// The gradients of the port's optimizer updates, from gradstep's own update events: a
/// TrainOneStepCell updates inside C++, where the Python capture cannot see the gradients.
class UpdateRecorder : public ExecutionObserver {
public:
    struct Gradient {
        std::int64_t step = 0;
        std::string parameter;
        std::vector<std::int64_t> shape;
        std::vector<double> values;
    };

    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent&) override {}
    bool wantsNodeEvents() const override { return false; }
    void updateStarted(const UpdateEvent& event) override
    {
        for (std::size_t i = 0; i < event.parameters.size() && i < event.gradients.size(); ++i) {
            const Tensor& g = event.gradients[i];
            m_gradients.push_back({event.step, event.parameters[i].name(),
                                   g.shape().toVector(), g.toDoubles()});
        }
    }
    /// Adds the gradients the capture lacks, under the parameters' paths.
    void addTo(Capture& capture) const
    {
        const Json* names = capture.doc().find("parameter_names");
        for (const Gradient& g : m_gradients) {
            const Json* path = names ? names->find(g.parameter) : nullptr;
            const std::string name = path && path->isString() ? path->asString() : g.parameter;
            capture.addTensor("grad/" + std::to_string(g.step) + "/" + name, g.shape, "float32", g.values);
        }
    }

private:
    std::vector<Gradient> m_gradients;
};

/// The last lines of the PyTorch script's output (its traceback, when it raised).
std::string tail(const std::string& text, std::size_t lines)
{
    std::size_t pos = text.size();
    for (std::size_t n = 0; n <= lines && pos > 0; ++n)
        pos = text.rfind('\n', pos - 1);
    return pos == std::string::npos ? text : text.substr(pos + 1);
}

bool torchSide(const MigrationRequest& request, const std::string& directory, MigrationOutcome& outcome)
{
    const std::string python = request.python.empty() ? GRADSTEP_TORCH_PYTHON : request.python;
    const TorchRun run = runTorchSide(python, request.torchScript, {}, directory, request.steps, request.cancelled);
    outcome.torchOutput = run.output;
    outcome.torchSeconds = run.seconds;
    if (run.status == TorchStatus::Cancelled) {
        outcome.status = MigrationStatus::Cancelled;
        outcome.message = "the comparison was cancelled while the PyTorch script ran";
        return false;
    }
    if (run.status == TorchStatus::TorchMissing) {
        outcome.status = MigrationStatus::TorchMissing;
        outcome.message = "PyTorch is not installed for " + python
                          + ": install Debian's python3-torch (sudo apt-get install python3-torch)";
        return false;
    }
    if (run.status == TorchStatus::ScriptFailed) {
        outcome.status = MigrationStatus::TorchFailed;
        outcome.message = "the PyTorch script " + request.torchScript + " failed (exit status "
                          + std::to_string(run.exitCode) + "):\n" + tail(run.output, 12);
        return false;
    }
    return true;
}

/// Runs the port; with request.cancelled, polls it and stops the script when it says so (then
/// `stopped`: the capture ends a port after its last step by stopping it too).
python::RunResult runPort(python::ScriptRunner& runner, python::RunRequest run, const MigrationRequest& request,
                          bool& stopped)
{
    stopped = false;
    if (!request.cancelled)
        return runner.run(std::move(run));
    runner.start(std::move(run));
    for (;;) {
        if (std::optional<python::RunResult> result = runner.waitFor(std::chrono::milliseconds(50)))
            return *result;
        if (!stopped && request.cancelled()) {
            runner.stop();
            stopped = true;
        }
    }
}

void tell(const MigrationRequest& request, const char* stage)
{
    if (request.stageStarted)
        request.stageStarted(stage);
}

} // namespace

MigrationOutcome runMigration(const MigrationRequest& request)
{
    MigrationOutcome outcome;
    const TemporaryDirectory directory("gradstep-migrate"); // the two captures
    const std::string dir = directory.path().string();
    tell(request, "PyTorch side");
    if (!torchSide(request, dir, outcome))
        return outcome;
    const auto torchCapture = std::make_shared<const Capture>(Capture::load(dir, "torch"));
    const Capture& torch = *torchCapture;
    if (torch.doc()["root"].isNull()) {
        outcome.status = MigrationStatus::TorchFailed;
        outcome.message = "the PyTorch script " + request.torchScript
                          + " never called a module whose parameters then received gradients";
        return outcome;
    }

    python::RunRequest run;
    run.script = request.msScript;
    run.overrides.mode = run::ModeOverride::PyNative; // every Cell's output is seen by a hook
    run.migration = python::MigrationCapture{dir, request.steps, request.copyWeights,
                                             [&torch, &request](const std::string& asked) {
                                                 return answerMatchRequest(torch.doc(), asked, request.userMap);
                                             }};
    UpdateRecorder updates;
    run.observer = &updates;
    python::ScriptRunner runner;
    tell(request, "MindSpore side");
    bool cancelled = false;
    const python::RunResult result = runPort(runner, std::move(run), request, cancelled);
    outcome.msSeconds = result.seconds;
    if (cancelled) {
        outcome.status = MigrationStatus::Cancelled;
        outcome.message = "the comparison was cancelled while the MindSpore script ran";
        return outcome;
    }
    if (result.status == python::RunStatus::Error)
        outcome.msError = result.diagnostic;
    if (!std::filesystem::exists(dir + "/mindspore.json")) {
        outcome.status = MigrationStatus::MindsporeFailed;
        outcome.message = "the MindSpore script " + request.msScript + " did not run";
        return outcome;
    }
    auto ms = std::make_shared<Capture>(Capture::load(dir, "mindspore"));
    updates.addTo(*ms);
    if (ms->doc()["root"].isNull()) {
        outcome.status = MigrationStatus::MindsporeFailed;
        outcome.message = result.status == python::RunStatus::Error
                              ? "the MindSpore script " + request.msScript + " raised before its network ran"
                              : "the MindSpore script " + request.msScript
                                    + " never called a Cell holding trainable Parameters";
        return outcome;
    }
    CompareOptions options;
    options.tolerance = request.tolerance;
    options.weightsCopied = request.copyWeights;
    options.userMap = request.userMap;
    std::string msMessage;
    if (outcome.msError) {
        const run::Diagnostic& d = *outcome.msError;
        msMessage = d.type + ": " + d.message + " (" + d.span.displayFile + ":" + std::to_string(d.span.line) + ":"
                    + std::to_string(d.span.column) + ")";
    }
    tell(request, "comparing");
    outcome.result = compareCaptures(torch, *ms, options, msMessage);
    if (!torch.completed())
        outcome.result.notes.push_back("the PyTorch script recorded " + std::to_string(torch.steps()) + " of "
                                       + std::to_string(request.steps) + " steps");
    if (!ms->completed() && !outcome.msError)
        outcome.result.notes.push_back("the MindSpore script recorded " + std::to_string(ms->steps()) + " of "
                                       + std::to_string(request.steps) + " steps (no optimizer call seen)");
    outcome.torchCapture = torchCapture;
    outcome.msCapture = std::move(ms);
    return outcome;
}

} // namespace gradstep::migrate
