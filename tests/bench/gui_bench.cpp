// The desktop app's speed, offscreen (issue 6 targets): LeNet5's default sample opened and its
// first full training-step graph drawn (< 1 s), a synthetic 2,000-node forward + backward graph
// opened with its Cells collapsed (< 3 s), and one step from the Step Into event to the repainted
// window (< 30 ms, median). Figures are printed with the machine's load; nothing is asserted.
// SPDX-License-Identifier: MIT
#include "display/display_graph.h"
#include "display/layout.h"
#include "python/host/host.h"
#include "views/graph_view.h"
#include "views/window/main_window.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace gradstep;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

/// Processes events until the window showed a state after `before` that is not Running.
bool waitForStop(views::MainWindow& window, std::uint64_t before)
{
    QDeadlineTimer deadline(120000);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        const auto state = window.bridge().state();
        if (window.statesShown() > before && state && state->status != debug::SessionStatus::Running)
            return true;
    }
    return false;
}

struct OpenFigures {
    double firstPause = 0; ///< openScript to the first node shown
    double stepRun = 0;    ///< run to the end of step 1 until its state is shown
    double drawn = 0;      ///< that state shown to the step's graph laid out and painted
    double total = 0;
    std::size_t nodes = 0;
};

OpenFigures openLeNet(const QString& sample)
{
    display::LayoutEngine::instance().clearCache();
    OpenFigures f;
    views::MainWindow window(false);
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();
    const auto t0 = Clock::now();
    window.openScript(sample);
    if (!waitForStop(window, 0))
        std::fprintf(stderr, "gui_bench: the sample did not pause\n");
    f.firstPause = msSince(t0);
    const auto t1 = Clock::now();
    const std::uint64_t shown = window.statesShown();
    window.bridge().session()->runToEndOfStep();
    waitForStop(window, shown);
    f.stepRun = msSince(t1);
    const auto t2 = Clock::now();
    window.graphView()->waitForLayout();
    window.repaint();
    f.drawn = msSince(t2);
    f.total = msSince(t0);
    f.nodes = window.graphView()->picture().nodes.size();
    return f;
}

debug::RecordPtr synthetic(std::uint64_t seq, Phase phase, const char* op, const std::string& scope,
                           std::uint64_t input, const char* parameter)
{
    auto r = std::make_shared<debug::NodeRecord>();
    r->seq = seq;
    r->opSeq = seq;
    r->phase = phase;
    r->op = op;
    r->scope = scope;
    r->fullName = debug::recordFullName(phase, scope, op);
    if (input) {
        debug::TensorRecord in;
        in.id = debug::TensorId::ofOutput(input, 0);
        in.stats.shape = Shape{32, 64};
        r->inputs.push_back(in);
    }
    if (parameter) {
        debug::TensorRecord p;
        p.id = debug::TensorId::ofParameter(scope + "." + parameter);
        p.stats.shape = Shape{64, 64};
        r->inputs.push_back(p);
    }
    debug::TensorRecord out;
    out.id = debug::TensorId::ofOutput(seq, 0);
    out.stats.shape = Shape{32, 64};
    r->outputs.push_back(out);
    return r;
}

/// 20 blocks of 10 layers of 5 ops forward, and their backward nodes linked to them: 2,000 op
/// nodes (plus the parameters) in three levels of Cells.
std::vector<debug::RecordPtr> syntheticStep()
{
    const char* ops[] = {"MatMul", "BiasAdd", "LayerNorm", "GeLU", "Add"};
    const char* params[] = {"weight", "bias", "gamma", nullptr, nullptr};
    std::vector<debug::RecordPtr> records;
    std::vector<debug::RecordPtr> forward;
    std::uint64_t seq = 0;
    for (int b = 0; b < 20; ++b)
        for (int l = 0; l < 10; ++l)
            for (int o = 0; o < 5; ++o) {
                const std::string scope = "Net/block" + std::to_string(b) + "/layer" + std::to_string(l);
                ++seq;
                forward.push_back(synthetic(seq, Phase::Forward, ops[o], scope, seq - 1, params[o]));
            }
    records = forward;
    std::uint64_t previous = 0;
    for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
        ++seq;
        auto r = std::const_pointer_cast<debug::NodeRecord>(
            synthetic(seq, Phase::Backward, (*it)->op.c_str(), (*it)->scope, previous, nullptr));
        r->forwardRecord = (*it)->seq;
        r->forwardSeq = (*it)->opSeq;
        records.push_back(r);
        previous = seq;
    }
    return records;
}

void benchSynthetic()
{
    const std::vector<debug::RecordPtr> records = syntheticStep();
    std::vector<double> times;
    std::size_t shown = 0, full = 0;
    int depth = 0;
    double opened = 0;
    std::size_t openedNodes = 0;
    for (int run = 0; run < 3; ++run) {
        display::LayoutEngine::instance().clearCache();
        views::GraphView view;
        view.resize(1000, 700);
        view.show();
        QCoreApplication::processEvents();
        const auto t0 = Clock::now();
        auto graph = std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records));
        full = graph->nodes.size();
        view.setGraph(graph);
        view.waitForLayout(60000);
        view.repaint();
        times.push_back(msSince(t0));
        shown = view.picture().nodes.size();
        depth = view.collapseState().depth;
        if (run == 0) {
            const auto t1 = Clock::now();
            view.toggleCell(QStringLiteral("Net/block0"));
            view.toggleCell(QStringLiteral("Gradients/Net/block0"));
            view.waitForLayout(60000);
            view.repaint();
            opened = msSince(t1);
            openedNodes = view.picture().nodes.size();
        }
    }
    std::printf("%-58s median %8.1f ms  min %8.1f ms  (%zu nodes, %zu drawn, collapsed at depth %d)\n",
                "2,000-node graph: records -> laid out and painted", median(times),
                *std::min_element(times.begin(), times.end()), full, shown, depth);
    std::printf("  %-56s %8.1f ms  (%zu nodes drawn)\n", "then opening block0 forward and backward", opened, openedNodes);
}

/// The Session without a window: Step Into until the pause is there.
void benchSessionSteps(const QString& sample)
{
    debug::SessionOptions options;
    options.script = sample.toStdString();
    debug::Session session(options);
    session.load();
    session.waitForPause(std::chrono::seconds(60));
    session.runToEndOfStep();
    session.waitForPause(std::chrono::seconds(60));
    std::vector<double> times;
    for (int i = 0; i < 80; ++i) {
        const auto t0 = Clock::now();
        if (!session.stepInto() || !session.waitForPause(std::chrono::seconds(60)))
            break;
        times.push_back(msSince(t0));
    }
    std::printf("  %-56s median %8.1f ms\n", "(the Session alone, no window: step into -> paused)", median(times));
}

void benchSteps(const QString& sample)
{
    views::MainWindow window(false);
    window.resize(1600, 1000);
    window.show();
    window.openScript(sample);
    waitForStop(window, 0);
    // Into step 2: the whole step is drawn from step 1, a step recolours it.
    std::uint64_t shown = window.statesShown();
    window.bridge().session()->runToEndOfStep();
    waitForStop(window, shown);
    // Where the time goes: every view updated (stateShown, after the step tools), then the
    // widgets that changed painted.
    Clock::time_point updated;
    QObject::connect(&window, &views::MainWindow::stateShown, &window, [&updated] { updated = Clock::now(); },
                     Qt::DirectConnection);
    std::vector<double> times, delivery, paint, full;
    for (int i = 0; i < 80; ++i) {
        shown = window.statesShown();
        const auto t0 = Clock::now();
        window.stepInto();
        if (!waitForStop(window, shown))
            break;
        const auto t1 = Clock::now();
        // What a user sees: the widgets that changed repaint from their posted update requests.
        window.graphView()->waitForLayout();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        times.push_back(msSince(t0));
        delivery.push_back(std::chrono::duration<double, std::milli>(updated - t0).count());
        paint.push_back(msSince(t1));
        const auto t2 = Clock::now();
        window.repaint();
        full.push_back(msSince(t2));
    }
    std::printf("%-58s median %8.1f ms  p90 %8.1f ms  max %8.1f ms  (%zu steps)\n",
                "step into: event -> state shown -> changes painted", median(times), percentile(times, 0.9),
                times.empty() ? 0.0 : *std::max_element(times.begin(), times.end()), times.size());
    std::printf("  %-56s median %8.1f ms\n", "step command -> every view updated", median(delivery));
    std::printf("  %-56s median %8.1f ms\n", "changed widgets painted", median(paint));
    std::printf("  %-56s median %8.1f ms\n", "(for comparison: the whole window repainted)", median(full));

}

} // namespace

int main(int argc, char** argv)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    python::Host::start();
    int status = 0;
    {
        int qtArgc = 1;
        QApplication app(qtArgc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("gradstep-bench"));
        const QString sample = argc > 1 ? QString::fromLocal8Bit(argv[1])
                                        : QStringLiteral(GRADSTEP_SOURCE_DIR "/samples/lenet5_digits.py");
        std::printf("gui_bench (QT_QPA_PLATFORM=%s), load average before: %s\n", std::getenv("QT_QPA_PLATFORM"),
                    loadAverage().c_str());
        std::vector<OpenFigures> runs;
        for (int i = 0; i < 3; ++i)
            runs.push_back(openLeNet(sample));
        const auto pick = [&](double OpenFigures::*field) {
            std::vector<double> v;
            for (const OpenFigures& f : runs)
                v.push_back(f.*field);
            return median(v);
        };
        std::printf("LeNet5 sample, first full training-step graph (%zu nodes drawn), median of %zu:\n",
                    runs.front().nodes, runs.size());
        std::printf("  %-56s %8.1f ms\n", "open -> first pause shown", pick(&OpenFigures::firstPause));
        std::printf("  %-56s %8.1f ms\n", "run to the end of step 1 -> state shown", pick(&OpenFigures::stepRun));
        std::printf("  %-56s %8.1f ms\n", "state shown -> full step graph laid out and painted", pick(&OpenFigures::drawn));
        std::printf("  %-56s %8.1f ms\n", "total: open -> full step graph on screen", pick(&OpenFigures::total));
        benchSynthetic();
        benchSteps(sample);
        benchSessionSteps(sample);
        std::printf("load average after: %s\n", loadAverage().c_str());
    }
    python::Host::shutdown();
    return status;
}
