// MainWindow: the run commands and how a Session state reaches every view.
// SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "display/display_graph.h"
#include "session/gradient_rows.h"
#include "views/charts_view.h"
#include "views/console_view.h"
#include "views/gradients_table.h"
#include "views/graph_picture.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/variables_view.h"
#include "views/window/ranks_panel.h"

#include <QAction>
#include <QFileInfo>
#include <QTextBlock>
#include <QLabel>
#include <cmath>
#include <exception>

namespace gradstep::views {

namespace {

bool paused(const SessionBridge& bridge)
{
    return bridge.session() && bridge.session()->status() == debug::SessionStatus::Paused;
}

/// The Session fills the histograms of the node it shows; a node, parameter or input picked in a
/// view gets them here from its snapshot.
debug::TensorStats withHistogram(debug::TensorStats stats, const Tensor& snapshot)
{
    if (!stats.hasHistogram && snapshot.defined())
        debug::fillHistogram(stats, snapshot);
    return stats;
}

QString tensorLabel(const char* side, std::size_t i, const debug::TensorRecord& t)
{
    QString label = QStringLiteral("%1 %2  %3").arg(QLatin1String(side)).arg(i)
                        .arg(QString::fromStdString(t.stats.shape.toString()));
    if (!t.parameter.empty())
        label += QStringLiteral("  (%1)").arg(QString::fromStdString(t.parameter));
    else if (t.id.kind == debug::TensorId::Kind::Parameter)
        label += QStringLiteral("  (%1)").arg(QString::fromStdString(t.id.name));
    return label;
}

} // namespace

// With the ranks linked, the run commands go to every rank (rank 0 is this window's session).
void MainWindow::stepInto() { if (m_ranksLinked) m_ranksPanel->stepAll(); else if (paused(*m_bridge)) m_bridge->session()->stepInto(); updateActions(); }
void MainWindow::stepOver() { if (m_ranksLinked) m_ranksPanel->stepOverAll(); else if (paused(*m_bridge)) m_bridge->session()->stepOver(); updateActions(); }
void MainWindow::stepOut() { if (m_ranksLinked) m_ranksPanel->stepOutAll(); else if (paused(*m_bridge)) m_bridge->session()->stepOut(); updateActions(); }
void MainWindow::continueRun() { if (m_ranksLinked) m_ranksPanel->continueAll(); else if (paused(*m_bridge)) m_bridge->session()->continueRun(); updateActions(); }
void MainWindow::stepBack() { if (!m_ranksLinked && paused(*m_bridge)) m_bridge->session()->stepBack(); updateActions(); }

void MainWindow::pause()
{
    if (m_ranksLinked)
        m_ranksPanel->pauseAll();
    else if (m_bridge->session())
        m_bridge->session()->pause();
}

void MainWindow::stop()
{
    if (m_ranksLinked) {
        m_ranksPanel->stopAll();
        return;
    }
    // Returns at once: the run ends as Cancelled, a blocked script a few seconds later.
    if (m_bridge->session())
        m_bridge->session()->cancel();
    updateActions();
}

void MainWindow::restart()
{
    if (m_bridge->options().script.empty())
        return;
    resetRunViews();
    m_console->clear();
    m_bridge->reopen(m_bridge->options());
    restoreBreakpoints();
    updateActions();
}

void MainWindow::resetRunViews()
{
    m_pictureStep = -1;
    m_pictureRecords = 0;
    m_growingStep = -1;
    m_historyShown = 0;
    m_runSaved = false;
    m_graph->clear();
    m_charts->setHistory({});
    m_gradients->setRows({});
    m_inspector->clear();
    m_variables->setStack({});
}

void MainWindow::updateActions()
{
    // Linked ranks are ready for a command when the panel is, and run while it waits for them.
    const bool ranksReady = m_ranksLinked && !m_awaitingRankZero && m_ranksPanel->ranks() > 0
                            && m_ranksPanel->running() && !m_ranksPanel->busy();
    const bool isPaused = m_ranksLinked ? ranksReady : paused(*m_bridge);
    const bool running = m_ranksLinked ? m_ranksPanel->running() && m_ranksPanel->busy() : m_bridge->busy();
    for (const char* key : {"continue", "stepOver", "stepInto", "stepOut", "stepBack"})
        m_actions.at(QString::fromLatin1(key))->setEnabled(isPaused);
    if (m_ranksLinked) // time travel may re-run the script, which rank 0 alone cannot
        m_actions.at(QStringLiteral("stepBack"))->setEnabled(false);
    m_actions.at(QStringLiteral("pause"))->setEnabled(running);
    m_actions.at(QStringLiteral("stop"))->setEnabled(running || isPaused);
    m_actions.at(QStringLiteral("restart"))->setEnabled(!m_bridge->options().script.empty());
    m_actions.at(QStringLiteral("openCheckpoint"))->setEnabled(!m_bridge->options().script.empty());
    updateToolActions();
}

void MainWindow::toggleBreakpoint(int line)
{
    if (m_breakpointLines.contains(line)) {
        m_breakpointLines.remove(line);
        if (const auto it = m_breakpointIds.find(line); it != m_breakpointIds.end()) {
            if (m_bridge->session())
                m_bridge->session()->removeBreakpoint(it->second);
            m_breakpointIds.erase(it);
        }
    } else {
        m_breakpointLines.insert(line);
        if (m_bridge->session()) {
            const QString text = QStringLiteral("%1:%2").arg(QFileInfo(m_source->filePath()).fileName()).arg(line);
            try {
                m_breakpointIds[line] = m_bridge->session()->addBreakpoint(text.toStdString());
            } catch (const std::exception& e) {
                m_breakpointLines.remove(line);
                m_console->append(QString::fromUtf8(e.what()) + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
            }
        }
    }
    m_source->setBreakpointLines(m_breakpointLines);
    showBreakpointMarks();
}

void MainWindow::showBreakpointMarks()
{
    QHash<int, QString> unverified;
    if (const debug::Session* session = m_bridge->session())
        for (const debug::Breakpoint& bp : session->breakpoints())
            for (const auto& [line, id] : m_breakpointIds)
                if (id == bp.id && !bp.unverified.empty())
                    unverified.insert(line, QString::fromStdString(bp.unverified));
    m_source->setUnverifiedLines(unverified);
}

void MainWindow::restoreBreakpoints()
{
    const QSet<int> lines = m_breakpointLines;
    m_breakpointLines.clear();
    m_breakpointIds.clear();
    for (int line : lines)
        toggleBreakpoint(line);
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::showState(const std::shared_ptr<const debug::SessionState>& state)
{
    ++m_statesShown;
    showStatus(*state);
    const debug::RecordPtr& node = state->node;
    const auto inShownFile = [&](const SourceLocation& at) {
        return at.file && QFileInfo(QString::fromStdString(*at.file)) == QFileInfo(m_source->filePath());
    };
    if (state->line && !state->timeTravel) {
        if (inShownFile(*state->line))
            m_source->setCurrentLine(state->line->line);
    } else if (node && inShownFile(node->location))
        m_source->setCurrentLine(node->location.line);
    else if (!state->stack.empty())
        m_source->setCurrentLine(state->stack.back().frame.span.line);
    if (state->diagnostic) {
        const run::Diagnostic& d = *state->diagnostic;
        m_console->append(QString::fromStdString(d.format()) + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
        m_source->setErrorMarker(d.span.line, QString::fromStdString(d.headline()));
        m_source->setCurrentLine(0);
    } else {
        m_source->setErrorMarker(0, QString());
    }
    // A diagnostic already says why the run ended (why.message repeats its headline or, for a
    // script given up on, its message); the status bar keeps the short form.
    if (!state->why.message.empty() && state->why.reason != debug::PauseReason::Command && !state->diagnostic)
        m_console->append(QString::fromStdString(state->why.message) + QLatin1Char('\n'), ConsoleView::Kind::Info);
    showGraph(*state);
    showGradients(*state);
    if (state->history.size() != m_historyShown) {
        m_historyShown = state->history.size();
        m_charts->setHistory(state->history);
    }
    saveFinishedRun(*state);
    continueGoToStep(*state);
    m_variables->setStack(state->stack);
    if (state->status != debug::SessionStatus::Running)
        showBreakpointMarks();
    showRecord(node);
    updateActions();
    emit stateShown();
}

void MainWindow::showStatus(const debug::SessionState& state)
{
    QString text = QString::fromLatin1(debug::sessionStatusName(state.status));
    if (state.node)
        text = QStringLiteral("%1 | %2 | step %3 | node %4 %5")
                   .arg(text, QString::fromLatin1(phaseName(state.node->phase))).arg(state.step)
                   .arg(state.records.size()).arg(QString::fromStdString(state.node->fullName));
    const run::RunOverrides& o = m_bridge->options().overrides;
    // As written, a script in graph mode shows by what it compiled.
    const bool graphMode = o.mode == run::ModeOverride::Graph
                           || (o.mode == run::ModeOverride::AsWritten && !state.compiledGraphs.empty());
    text += QStringLiteral(" | mode %1%2").arg(graphMode ? tr("graph") : tr("PyNative"),
                                               state.timeTravel ? tr(" (time travel)") : QString());
    if (state.line && !state.timeTravel)
        text += tr(" | before line %1").arg(state.line->line);
    if (!state.why.message.empty())
        text += QStringLiteral(" | ") + QString::fromStdString(state.why.message);
    if (m_ranksLinked)
        text = tr("rank 0 of %1 (the Ranks panel shows every rank) | ").arg(m_linkedRanks) + text;
    m_status->setText(text);
}

void MainWindow::showGraph(const debug::SessionState& state)
{
    // The whole step is drawn once from the previous step's records (the same keys), so nodes
    // never jump; the first step grows as it runs, and so does a step that runs nodes the
    // previous one did not (a data-dependent branch), from the moment it does.
    const debug::Recorder& recorder = m_bridge->session()->recorder();
    if (showLastTrainingStep(state))
        return;
    if (state.step != m_pictureStep && state.step != m_growingStep) {
        // Step 0 holds what ran before the first training step: never a template for step 1.
        const std::vector<debug::RecordPtr> previous =
            state.step >= 2 ? recorder.stepRecords(state.step - 1) : std::vector<debug::RecordPtr>{};
        if (!previous.empty()) {
            m_pictureTemplate = std::make_shared<const display::DisplayGraph>(display::buildFromRecords(previous));
            m_graph->setGraph(m_pictureTemplate);
            m_pictureStep = state.step;
        }
    }
    if (state.step == m_pictureStep && !m_pictureTemplate->holdsAll(state.records)) {
        m_growingStep = state.step;
        m_pictureStep = -1;
        m_pictureRecords = 0;
    }
    if (state.step != m_pictureStep && state.records.size() != m_pictureRecords) {
        m_graph->setGraph(std::make_shared<const display::DisplayGraph>(display::buildFromRecords(state.records)),
                          m_pictureRecords == 0);
        m_pictureRecords = state.records.size();
    }
    m_graph->setStates(state.records, state.node);
}

bool MainWindow::showLastTrainingStep(const debug::SessionState& state)
{
    // What runs after the last training step without a gradient call (an evaluation over the
    // test set, a prediction) is many forward calls of the same Cells: drawn as the current
    // step it is a grid of repeated calls. At the end the picture users want is the last training
    // step, all of it run; the console says where the rest went.
    if (state.status != debug::SessionStatus::Finished || state.history.empty() || !state.gradients.empty()
        || state.timeTravel || state.step <= state.history.back().step || state.records.empty())
        return false;
    const std::int64_t last = state.history.back().step;
    std::vector<debug::RecordPtr> records = m_bridge->session()->recorder().stepRecords(last);
    if (records.empty())
        return false;
    m_graph->setGraph(std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records)));
    m_graph->setStates(std::move(records), nullptr);
    m_pictureStep = -1;
    m_growingStep = -1;
    m_pictureRecords = 0;
    m_console->append(tr("The graph shows step %1, the last training step. The %2 nodes that ran after it computed "
                         "no gradient (forward only, as an evaluation does); the step timeline steps through them.\n")
                          .arg(last)
                          .arg(state.records.size()),
                      ConsoleView::Kind::Info);
    return true;
}

void MainWindow::showGradients(const debug::SessionState& state)
{
    debug::GradientRows table = debug::gradientRows(state);
    m_gradients->setRows(table.rows);
    m_gradients->setToolTip(table.fromStep ? tr("step %1's gradients: this step's arrive after its backward pass")
                                                 .arg(table.fromStep)
                                           : QString());
    GradientsTable::NormHistory history;
    for (auto& [name, norms] : table.normHistory)
        history[QString::fromStdString(name)] = std::move(norms);
    m_gradients->setNormHistory(std::move(history));
}

void MainWindow::showRecord(const debug::RecordPtr& shown)
{
    if (!shown) {
        m_inspector->clear();
        return;
    }
    const debug::NodeRecord* record = shown.get();
    const debug::Recorder& recorder = m_bridge->session()->recorder();
    std::vector<InspectedTensor> tensors;
    // Forward mode: each tensor's tangent, zeros for one the jvp's tangents did not reach.
    const auto withTangent = [](InspectedTensor t, const std::vector<debug::TensorRecord>& tangents, std::size_t i) {
        if (i >= tangents.size())
            return t;
        t.hasTangent = true;
        if (tangents[i].defined)
            t.tangent = tangents[i].snapshot;
        else if (t.snapshot.defined())
            t.tangent = Tensor::zeros(t.snapshot.shape(), t.snapshot.dtype());
        return t;
    };
    for (std::size_t i = 0; i < record->outputs.size(); ++i) {
        const debug::TensorRecord& out = record->outputs[i];
        tensors.push_back(withTangent({tensorLabel("output", i, out), withHistogram(out.stats, out.snapshot), out.snapshot},
                                      record->outputTangents, i));
    }
    for (std::size_t i = 0; i < record->inputs.size(); ++i) {
        const debug::TensorRecord& in = record->inputs[i];
        if (!in.defined)
            continue;
        const Tensor snapshot = recorder.snapshot(in.id).value_or(Tensor());
        tensors.push_back(withTangent({tensorLabel("input", i, in), withHistogram(in.stats, snapshot), snapshot},
                                      record->inputTangents, i));
    }
    m_inspector->setTensors(QString::fromStdString(record->where()), std::move(tensors));
}

void MainWindow::showSourceTensor(const QString& key)
{
    const auto state = m_bridge->state();
    const std::optional<debug::TensorId> source = display::sourceTensorOfKey(key.toStdString());
    if (!state || !m_bridge->session() || !source)
        return;
    const debug::TensorId id = *source;
    const bool parameter = id.kind == debug::TensorId::Kind::Parameter;
    const std::string rest = parameter ? id.name : std::to_string(id.node);
    const debug::Recorder& recorder = m_bridge->session()->recorder();
    std::vector<InspectedTensor> tensors;
    // Its latest value: the last record of this step that read it (stats always, values when a
    // snapshot is kept).
    for (auto r = state->records.rbegin(); r != state->records.rend() && tensors.empty(); ++r)
        for (const debug::TensorRecord& in : (*r)->inputs)
            if (in.defined && in.id == id) {
                const Tensor snapshot = recorder.snapshot(id).value_or(Tensor());
                tensors.push_back({tr("value  %1").arg(QString::fromStdString(in.stats.shape.toString())),
                                   withHistogram(in.stats, snapshot), snapshot});
                break;
            }
    if (parameter)
        for (const debug::ParameterGradient& g : state->gradients)
            if (g.name == rest && g.gradient.defined())
                tensors.push_back({tr("gradient  %1").arg(QString::fromStdString(g.stats.shape.toString())),
                                   withHistogram(g.stats, g.gradient), g.gradient});
    const QString name = parameter ? QString::fromStdString(rest) : tr("input %1").arg(QString::fromStdString(rest));
    m_inspector->setTensors(tensors.empty() ? tr("%1: not read yet in this step").arg(name) : name, std::move(tensors));
    showView(View::Inspector);
}

void MainWindow::showNodeFromGraph(int index)
{
    const GraphPicture& picture = m_graph->picture();
    if (index < 0 || std::size_t(index) >= picture.nodes.size() || !m_bridge->session())
        return;
    const PictureNode& node = picture.nodes[std::size_t(index)];
    if (node.kind == PictureKind::Parameter || node.kind == PictureKind::Input) {
        showSourceTensor(node.key);
        const std::optional<debug::TensorId> source = display::sourceTensorOfKey(node.key.toStdString());
        if (m_ranksLinked && source && source->kind == debug::TensorId::Kind::Parameter)
            m_ranksPanel->showGradientOf(QString::fromStdString(source->name));
        return;
    }
    if (node.state == NodeState::Pending || node.records.empty()) {
        m_inspector->setTensors(tr("%1 has not run yet in this step").arg(node.title), {});
        return;
    }
    if (const debug::RecordPtr record = m_bridge->session()->recorder().record(node.records.front())) {
        showRecord(record);
        showView(View::Inspector);
        // The same node on the rank chosen in the panel: the ranks number their nodes alike.
        if (m_ranksLinked && record->step == (m_bridge->state() ? m_bridge->state()->step : -1))
            m_ranksPanel->showTensor(QStringLiteral("#%1:0").arg(record->seq));
        if (record->location.line > 0)
            m_source->setTextCursor(QTextCursor(m_source->document()->findBlockByNumber(record->location.line - 1)));
    }
}

} // namespace gradstep::views
