// `gradstep export`: the script runs on the runner's worker with a Recorder behind a StepWatcher,
// which records from the first depth-0 gradient call to the end of the optimizer update that
// follows it (or to the next gradient call when there is no optimizer) and then stops the script.
// The records become a DisplayGraph, laid out and written by core/display.
// SPDX-License-Identifier: MIT
#include "app/cli_export.h"

#include "app/cli_common.h"

#include "autodiff/observer.h"
#include "debug/recorder.h"
#include "display/export.h"
#include "python/host/host.h"
#include "python/host/script_runner.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace gradstep::app {

namespace {

constexpr const char* kUsage = R"(usage: gradstep export SCRIPT -o FILE [--graph forward|backward|train-step]
                       [--format svg|png|pdf|dot] [--collapse DEPTH] [--api 2.x|1.10] [--seed S]
                       [--quiet] [-- ARGS...]

Runs SCRIPT headless to the end of its first training step (the first value_and_grad / grad call
and the optimizer update after it), then stops it and draws that step's computation graph with
Graphviz: op and output shape on each node, Cells as clusters, forward / backward / update nodes
coloured, each backward node linked (dashed) to the forward node it differentiates.

options:
  -o FILE            where to write the graph (written atomically)
  --graph PART       forward, backward or train-step (default: train-step)
  --format FORMAT    svg, png, pdf or dot (default: from FILE's extension, else svg)
  --collapse DEPTH   draw Cells nested DEPTH or deeper as single nodes (0: every top-level Cell)
  --api PROFILE      the MindSpore API the script sees: 2.x (default) or 1.10
  --seed S           mindspore.set_seed(S) before the script starts
  --quiet            do not show what the script prints (errors are still reported)
  --help             show this help
  --                 everything after it is passed to the script

Graphs larger than 600 nodes are collapsed by depth automatically; above 3000 nodes a simple
layered layout replaces dot.

exit status: 0 the file was written, 1 the script failed or ran no training step to draw,
2 bad usage, 130 interrupted with Ctrl-C.
)";

struct Options {
    std::string script;
    std::vector<std::string> args;
    std::string output;
    display::GraphPart part = display::GraphPart::TrainStep;
    std::optional<display::ExportFormat> format;
    int collapse = -1;
    std::string api = "2.x";
    std::optional<std::uint64_t> seed;
    bool quiet = false;
    bool help = false;
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep export: %s\n(see gradstep export --help)\n", message.c_str());
    return 2;
}

/// Returns 0 when the options are usable, else the exit status of a usage error.
int parseOption(int argc, char** argv, int& i, Options& o)
{
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--help" || arg == "-h") {
        o.help = true;
    } else if (arg == "--quiet" || arg == "-q") {
        o.quiet = true;
    } else if (arg == "-o" || arg == "--output") {
        const char* v = value();
        if (!v)
            return usageError("-o needs a file name");
        o.output = v;
    } else if (arg == "--graph") {
        const char* v = value();
        if (!v || !display::parseGraphPart(v))
            return usageError("--graph must be forward, backward or train-step");
        o.part = *display::parseGraphPart(v);
    } else if (arg == "--format") {
        const char* v = value();
        if (!v || !display::parseExportFormat(v))
            return usageError("--format must be svg, png, pdf or dot");
        o.format = display::parseExportFormat(v);
    } else if (arg == "--collapse") {
        long long depth = 0;
        const char* v = value();
        if (!v || !parseWholeNumber(v, 64, depth))
            return usageError("--collapse needs a depth from 0 to 64");
        o.collapse = static_cast<int>(depth);
    } else if (arg == "--api") {
        const char* v = value();
        if (!v || (std::string(v) != "2.x" && std::string(v) != "1.10"))
            return usageError("--api must be 2.x or 1.10");
        o.api = v;
    } else if (arg == "--seed") {
        long long seed = 0;
        const char* v = value();
        if (!v || !parseWholeNumber(v, 0x7fffffffffffffffLL, seed))
            return usageError("--seed needs a non-negative integer");
        o.seed = static_cast<std::uint64_t>(seed);
    } else {
        return usageError("unknown option " + arg);
    }
    return 0;
}

int parse(int argc, char** argv, Options& o)
{
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            if (o.script.empty() && i + 1 < argc)
                o.script = argv[++i];
            for (++i; i < argc; ++i)
                o.args.emplace_back(argv[i]);
        } else if (arg.size() > 1 && arg[0] == '-') {
            if (const int status = parseOption(argc, argv, i, o))
                return status;
        } else if (o.script.empty()) {
            o.script = arg;
        } else {
            return usageError("unexpected argument " + arg + " (arguments for the script go after --)");
        }
    }
    if (o.help)
        return 0;
    if (o.script.empty())
        return usageError("no script given");
    if (o.output.empty())
        return usageError("no output file given (-o FILE)");
    if (!o.format) {
        const std::string ext = std::filesystem::path(o.output).extension().string();
        o.format = display::parseExportFormat(ext.empty() ? "svg" : ext.substr(1));
        if (!o.format)
            o.format = display::ExportFormat::Svg;
    }
    return 0;
}

/// Records the first training step and stops the script once it is over.
class StepWatcher : public ExecutionObserver {
public:
    StepWatcher(debug::Recorder& recorder, python::ScriptRunner& runner) : m_recorder(recorder), m_runner(runner) {}

    void nodeStarted(const NodeEvent& event) override
    {
        if (!m_done)
            m_recorder.nodeStarted(event);
    }
    void nodeFinished(const NodeEvent& event) override
    {
        if (!m_done)
            m_recorder.nodeFinished(event);
    }
    void gradCallStarted(const GradCallEvent& event) override
    {
        if (event.depth != 0 || m_done)
            return;
        if (m_stepCalled) {
            finish(); // a second step began without an optimizer update in between
            return;
        }
        m_stepCalled = true;
        m_recorder.clear(); // what ran before the step (setup, inference) is not part of it
        m_recorder.stepStarted(1);
    }
    void gradCallFinished(const GradCallEvent& event) override
    {
        if (event.depth == 0 && m_stepCalled)
            m_gradFinished = true;
    }
    void updateFinished(const UpdateEvent&) override
    {
        if (m_gradFinished && !m_done)
            finish();
    }

    bool stepComplete() const { return m_done; }
    bool stepCalled() const { return m_stepCalled; }

private:
    void finish()
    {
        m_done = true;
        m_runner.stop();
    }

    debug::Recorder& m_recorder;
    python::ScriptRunner& m_runner;
    std::atomic<bool> m_done{false};
    bool m_stepCalled = false;
    bool m_gradFinished = false;
};

int draw(const Options& o, const std::vector<debug::RecordPtr>& records)
{
    display::BuildOptions build;
    build.part = o.part;
    display::DisplayGraph graph = display::buildFromRecords(records, build);
    if (graph.nodes.empty()) {
        std::fprintf(stderr, "gradstep export: the first step has no %s nodes to draw\n", display::graphPartName(o.part));
        return 1;
    }
    if (o.collapse >= 0)
        graph = display::collapse(graph, display::CollapseState{o.collapse, {}, {}});
    const auto shared = std::make_shared<const display::DisplayGraph>(std::move(graph));
    const display::LayoutOptions options;
    const auto layout = display::LayoutEngine::instance().layout(shared, options);
    display::exportGraph(*layout, *o.format, o.output, options);
    std::fprintf(stderr, "gradstep export: wrote %s (%zu nodes, %zu edges; %s layout in %.2f s%s)\n",
                 o.output.c_str(), layout->graph->nodes.size(), layout->graph->edges.size(),
                 layout->method == display::LayoutMethod::Dot ? "dot" : "layered", layout->seconds,
                 layout->collapseDepth >= 0 ? (", collapsed to depth " + std::to_string(layout->collapseDepth)).c_str() : "");
    return 0;
}

} // namespace

int exportCommand(int argc, char** argv)
{
    Options o;
    if (const int status = parse(argc, argv, o))
        return status;
    if (o.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (!startPython("export"))
        return 1;
    debug::Recorder recorder(debug::RecorderOptions{0, false, 1});
    python::RunResult result;
    bool interrupted = false, complete = false, called = false;
    {
        python::ScriptRunner runner;
        StepWatcher watcher(recorder, runner);
        python::RunRequest request;
        request.script = o.script;
        request.args = o.args;
        request.observer = &watcher;
        request.apiProfile = o.api;
        request.overrides.seed = o.seed;
        if (!o.quiet)
            request.output = [](run::OutputStream stream, std::string_view text) {
                stream == run::OutputStream::Stdout ? writeOut(text) : writeErr(text);
            };
        runner.start(std::move(request));
        result = waitWatchingCtrlC(runner, &interrupted);
        complete = watcher.stepComplete();
        called = watcher.stepCalled();
    }
    python::Host::shutdown();
    if (interrupted)
        return 130;
    const bool stoppedByUs = result.status == python::RunStatus::Stopped && complete;
    if (result.status != python::RunStatus::Ok && !stoppedByUs) {
        if (result.diagnostic)
            writeErr(result.diagnostic->format());
        return 1;
    }
    if (!called && o.part != display::GraphPart::Forward)
        std::fprintf(stderr, "gradstep export: the script made no gradient call; drawing every op it ran\n");
    try {
        return draw(o, recorder.currentRecords());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep export: %s\n", e.what());
        return 1;
    }
}

} // namespace gradstep::app
