// MainWindow: Compare... (the side-by-side view, run on a worker), Run N steps, the status bar's
// progress with Cancel, the breakpoint and watchpoint lists, and the exports (graph: whole or
// visible part; charts: PNG, SVG, CSV). SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "views/charts_view.h"
#include "views/console_view.h"
#include "views/graph_export.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/window/breakpoints_panel.h"
#include "views/window/compare_runner.h"
#include "views/window/compare_view.h"
#include "views/migration/migration_runner.h"
#include "views/window/ranks_panel.h"
#include "views/window/run_progress.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

namespace gradstep::views {

namespace {

QMenu* menuTitled(QMenuBar* bar, const QString& title)
{
    for (QAction* a : bar->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    return nullptr;
}


/// A side's curve as the Charts panel draws runs.
ChartRun chartRunOf(const session::StepFigures& side, const QString& prefix)
{
    ChartRun run;
    run.label = prefix + QString::fromStdString(side.label);
    for (const session::CurvePoint& p : side.steps) {
        debug::StepSummary step;
        step.step = p.step;
        step.finished = true;
        step.loss = p.loss.value_or(std::nan(""));
        step.learningRate = p.learningRate.value_or(std::nan(""));
        for (const session::ParamNorms& n : p.params) {
            debug::ParameterSummary param;
            param.name = n.name;
            param.gradientNorm = n.gradNorm;
            param.weightNorm = n.valueNorm;
            step.parameters.push_back(std::move(param));
        }
        run.steps.push_back(std::move(step));
    }
    return run;
}


} // namespace

QScrollArea* MainWindow::scrolling(QWidget* panel)
{
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

void MainWindow::createTools()
{
    createToolDocks();
    createMigration();
    createToolActions();
    createExportActions();
    createRunProgress();
    connectTools();
}

void MainWindow::createToolDocks()
{
    m_compare = new CompareView;
    m_compareRunner = new CompareRunner(this);
    BreakpointsPanel::Hooks hooks;
    hooks.session = [this] { return m_bridge->session(); };
    hooks.scriptFile = [this] { return QFileInfo(m_source->filePath()).fileName(); };
    hooks.gutterLines = [this] { return m_breakpointLines; };
    hooks.toggleLine = [this](int line) { toggleBreakpoint(line); };
    m_conditions = new BreakpointsPanel(std::move(hooks));

    auto* compareDock = new QDockWidget(tr("Compare"), this);
    compareDock->setObjectName(QStringLiteral("compare"));
    compareDock->setWidget(scrolling(m_compare));
    addDockWidget(Qt::BottomDockWidgetArea, compareDock);
    tabifyDockWidget(m_docks[View::Console], compareDock);
    m_docks[View::Compare] = compareDock;
    auto* conditionsDock = new QDockWidget(tr("Breakpoints"), this);
    conditionsDock->setObjectName(QStringLiteral("breakpoints"));
    conditionsDock->setWidget(scrolling(m_conditions));
    addDockWidget(Qt::RightDockWidgetArea, conditionsDock);
    tabifyDockWidget(m_docks[View::Variables], conditionsDock);
    m_docks[View::Breakpoints] = conditionsDock;
    m_ranksPanel = new RanksPanel; // What if > Ranks (main_window_ranks.cpp)
    auto* ranksDock = new QDockWidget(tr("Ranks"), this);
    ranksDock->setObjectName(QStringLiteral("ranks"));
    ranksDock->setWidget(scrolling(m_ranksPanel));
    addDockWidget(Qt::BottomDockWidgetArea, ranksDock);
    tabifyDockWidget(compareDock, ranksDock);
    m_docks[View::Ranks] = ranksDock;
    connectRanks();
    m_docks[View::Inspector]->raise();
    m_docks[View::Gradients]->raise();
}

QAction* MainWindow::addToolAction(const QString& key, const QString& text, const QKeySequence& shortcut,
                                   std::function<void()> slot)
{
    auto* action = new QAction(text, this);
    action->setShortcut(shortcut);
    connect(action, &QAction::triggered, this, std::move(slot));
    m_actions[key] = action;
    return action;
}

void MainWindow::createToolActions()
{
    QAction* runN = addToolAction(QStringLiteral("runSteps"), tr("Run N Steps..."), Qt::CTRL | Qt::Key_F5, [this] {
        bool ok = false;
        const int n = QInputDialog::getInt(this, tr("Run N steps"), tr("Training steps to run (the current one counts):"),
                                           1, 1, 1000000, 1, &ok);
        if (ok)
            runSteps(n);
    });
    QAction* compare = addToolAction(QStringLiteral("compare"), tr("Compare..."), Qt::CTRL | Qt::Key_K, [this] {
        const session::CompareWhat choices[] = {session::CompareWhat::HasAux, session::CompareWhat::Mode,
                                                session::CompareWhat::GradApi, session::CompareWhat::Api,
                                                session::CompareWhat::FiniteDifferences, session::CompareWhat::Amp,
                                                session::CompareWhat::Ranks};
        QStringList names;
        int current = 0;
        for (int i = 0; i < static_cast<int>(std::size(choices)); ++i) {
            names << compareWhatText(choices[i]);
            current = choices[i] == m_compare->what() ? i : current;
        }
        bool ok = false;
        const QString picked = QInputDialog::getItem(this, tr("Compare"),
            m_compare->steps() == 1
                ? tr("Run the first training step twice, as A and as B, flipping:")
                : tr("Run %1 training steps twice, as A and as B (the Compare panel's Steps), flipping:")
                      .arg(m_compare->steps()),
            names, current, false, &ok);
        if (ok)
            startCompare(choices[std::max<qsizetype>(names.indexOf(picked), 0)]);
    });
    if (QMenu* debugMenu = menuTitled(menuBar(), tr("&Debug"))) {
        debugMenu->addAction(runN);
        debugMenu->addSeparator();
        debugMenu->addAction(compare);
    }
    if (auto* toolbar = findChild<QToolBar*>(QStringLiteral("debugToolbar"))) {
        toolbar->addAction(runN);
        toolbar->addAction(compare);
    }
}

void MainWindow::createExportActions()
{
    // File: Export Graph asks whole graph or visible part; Export Charts beside it.
    QAction* exportGraphAction = m_actions.at(QStringLiteral("exportGraph"));
    disconnect(exportGraphAction, &QAction::triggered, nullptr, nullptr);
    connect(exportGraphAction, &QAction::triggered, this, [this] {
        QString filter;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QStringLiteral("graph.svg"),
            tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot *.gv)"), &filter);
        if (path.isEmpty())
            return;
        bool ok = false;
        const QStringList extents{tr("The whole graph"), tr("The current view (what is visible)")};
        const QString extent = QInputDialog::getItem(this, tr("Export graph"), tr("Export:"), extents, 0, false, &ok);
        if (ok)
            extent == extents.front() ? exportGraph(path) : exportVisibleGraph(path);
    });
    QAction* exportChartsAction = addToolAction(QStringLiteral("exportCharts"), tr("Export &Charts..."), QKeySequence(), [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export charts"), QStringLiteral("charts.png"),
            tr("PNG (*.png);;SVG (*.svg);;CSV data (*.csv)"));
        if (!path.isEmpty())
            exportCharts(path);
    });
    if (QMenu* file = menuTitled(menuBar(), tr("&File"))) {
        const QList<QAction*> items = file->actions();
        const qsizetype at = items.indexOf(exportGraphAction);
        file->insertAction(at + 1 < items.size() ? items[at + 1] : nullptr, exportChartsAction);
    }
    if (QMenu* view = menuTitled(menuBar(), tr("&View"))) {
        view->addAction(m_docks.at(View::Compare)->toggleViewAction());
        view->addAction(m_docks.at(View::Breakpoints)->toggleViewAction());
        view->addAction(m_docks.at(View::Ranks)->toggleViewAction());
    }
}

void MainWindow::createRunProgress()
{
    m_progress = new RunProgress;
    statusBar()->addPermanentWidget(m_progress);
    m_progress->setSource([this]() -> std::optional<RunProgress::Progress> {
        if (migrating())
            return RunProgress::Progress{tr("comparing with PyTorch: %1").arg(m_migrationRunner->stage()), 0, 0};
        if (comparing()) {
            const int runs = std::max(m_compareRunner->runs(), 1);
            return RunProgress::Progress{tr("comparing: %1").arg(m_compareRunner->runLabel()),
                                         std::max(m_compareRunner->run() - 1, 0), runs};
        }
        if (!m_bridge->busy())
            return std::nullopt;
        const std::int64_t step = m_bridge->session()->recorder().currentStep();
        // The last state says paused; the status line follows the run until the next one.
        const run::ModeOverride mode = m_bridge->options().overrides.mode;
        const auto last = m_bridge->state();
        const bool graph = mode == run::ModeOverride::Graph
                           || (mode == run::ModeOverride::AsWritten && last && !last->compiledGraphs.empty());
        m_status->setText(tr("running | step %1 | mode %2").arg(step).arg(graph ? tr("graph") : tr("PyNative")));
        if (m_runStepsFrom >= 0)
            return RunProgress::Progress{tr("running %1 steps: step %2").arg(m_runStepsCount).arg(step),
                                         int(std::clamp<std::int64_t>(step - m_runStepsFrom, 0, m_runStepsCount)),
                                         m_runStepsCount};
        return RunProgress::Progress{tr("running: step %1").arg(step), 0, 0};
    });
    connect(m_progress, &RunProgress::cancelRequested, this,
            [this] { comparing() ? cancelCompare() : migrating() ? cancelMigration() : pause(); });
}

void MainWindow::connectTools()
{
    connect(m_compare, &CompareView::compareRequested, this, [this](session::CompareWhat what) { startCompare(what); });
    connect(m_compare, &CompareView::cancelRequested, this, [this] { cancelCompare(); });
    connect(m_compareRunner, &CompareRunner::progress, m_compare, &CompareView::setProgress);
    connect(m_compareRunner, &CompareRunner::finished, this,
            [this](const std::shared_ptr<const session::Comparison>& c) { finishCompare(*c); });

    // Queued: after MainWindow::toggleBreakpoint handled the gutter's click.
    connect(m_source, &SourceView::breakpointToggleRequested, m_conditions, [this] { m_conditions->refresh(); },
            Qt::QueuedConnection);
    connect(m_bridge, &SessionBridge::opened, this, [this] {
        m_conditions->sessionReplaced();
        // After the window restored the gutter's lines to the new session.
        QTimer::singleShot(0, this, [this] { m_conditions->restore(); });
    });
    connect(this, &MainWindow::stateShown, this, [this] {
        if (!m_bridge->busy())
            m_runStepsFrom = -1;
        m_conditions->refresh();
    });
}

void MainWindow::runSteps(int n)
{
    debug::Session* session = m_bridge->session();
    if (!session || session->status() != debug::SessionStatus::Paused || n < 1 || m_ranksLinked)
        return;
    const auto state = session->state();
    m_runStepsFrom = state ? state->step : 1; // the current step is the first of the n
    m_runStepsCount = n;
    if (!session->runSteps(n))
        m_runStepsFrom = -1;
    // At once: the bar may still be up from the run before (it polls every 50 ms) and must not
    // show that run's text and range for this one.
    m_progress->poll();
    updateActions();
}

bool MainWindow::comparing() const
{
    return m_compareStarting || (m_compareRunner && m_compareRunner->running());
}

void MainWindow::startCompare(session::CompareWhat what)
{
    if (comparing() || migrating())
        return;
    const debug::SessionOptions& current = m_bridge->options();
    if (current.script.empty()) {
        m_console->append(tr("open a script to compare\n"), ConsoleView::Kind::Diagnostic);
        return;
    }
    session::CompareOptions options;
    options.steps = m_compare->steps();
    options.args = current.args;
    options.runOnRanks = m_runOnRanks;
    options.base = current.overrides;
    options.baseApiProfile = current.apiProfile;
    options.seed = current.overrides.seed.value_or(0);
    m_compare->setWhat(what);
    // What both sides share: every switch but the flipped one, as the What-if menu has it.
    QStringList shared;
    if (what != session::CompareWhat::HasAux)
        shared << tr("has_aux %1").arg(m_hasAux->checkedAction()->text().toLower());
    if (what != session::CompareWhat::GradApi)
        shared << tr("gradient API %1").arg(m_gradApi->checkedAction()->text().toLower());
    if (what != session::CompareWhat::Mode)
        shared << tr("mode %1").arg(m_mode->checkedAction()->text().toLower());
    if (what != session::CompareWhat::Api)
        shared << m_apiProfile->checkedAction()->text();
    m_compare->setBaseDescription(shared.join(QStringLiteral(", ")));
    // The interpreter runs one script at a time: the session stops while the comparison runs,
    // and afterwards re-runs to where the user was (runs are deterministic).
    m_reloadAfterCompare = m_bridge->session() != nullptr;
    m_resumeAfterCompare.reset();
    if (const auto state = m_bridge->state(); state && state->status == debug::SessionStatus::Paused && state->liveNode)
        m_resumeAfterCompare = std::pair{state->step, state->liveNode->seq};
    if (m_reloadAfterCompare) {
        m_bridge->close();
        m_console->append(tr("comparing %1: the debugging session stops meanwhile and reloads afterwards\n")
                              .arg(compareWhatText(what)),
                          ConsoleView::Kind::Info);
    }
    m_compare->setRunning(true);
    showView(View::Compare);
    if (m_docks[View::Compare]->height() < height() * 9 / 20) // grown by the user: kept
        resizeDocks({m_docks[View::Compare]}, {height() * 9 / 20}, Qt::Vertical);
    // After the closed session ended (a blocked script takes seconds to be given up on).
    auto compareOptions = std::make_shared<session::CompareOptions>(std::move(options));
    m_compareStarting = true;
    m_compareCancelledEarly = false;
    m_bridge->afterRetired([this, script = current.script, what, compareOptions] {
        m_compareStarting = false;
        if (m_compareCancelledEarly) { // Cancel came before anything ran
            session::Comparison cancelled;
            cancelled.what = what;
            cancelled.interrupted = true;
            cancelled.a.error = cancelled.b.error = "interrupted";
            finishCompare(cancelled);
            return;
        }
        m_compareRunner->start(script, what, std::move(*compareOptions));
        updateActions();
    });
    updateActions();
}

void MainWindow::updateToolActions()
{
    // While comparing nothing may start a session: the interpreter runs one script at a time.
    const bool free = !comparing() && !migrating();
    for (QActionGroup* g : {m_hasAux, m_gradApi, m_apiProfile, m_mode})
        g->setEnabled(free);
    QAction* restart = m_actions.at(QStringLiteral("restart"));
    restart->setEnabled(free && restart->isEnabled());
    m_actions.at(QStringLiteral("open"))->setEnabled(free);
    QAction* checkpoint = m_actions.at(QStringLiteral("openCheckpoint"));
    checkpoint->setEnabled(free && checkpoint->isEnabled());
    m_recentMenu->setEnabled(free && !m_recentMenu->actions().isEmpty());
    // Run N steps is rank 0's alone: not while the ranks step together.
    m_actions.at(QStringLiteral("runSteps"))->setEnabled(m_actions.at(QStringLiteral("continue"))->isEnabled()
                                                         && !m_ranksLinked);
    m_actions.at(QStringLiteral("compare"))->setEnabled(free && !m_bridge->options().script.empty());
    if (const auto migrate = m_actions.find(QStringLiteral("migrate")); migrate != m_actions.end())
        migrate->second->setEnabled(free);
}

void MainWindow::setCompareExecutable(const std::filesystem::path& executable)
{
    m_compareRunner->setSideExecutable(executable);
}

void MainWindow::cancelCompare()
{
    // While the closed session is still ending, the runner has not started: it must not start.
    if (m_compareStarting)
        m_compareCancelledEarly = true;
    else if (comparing())
        m_compareRunner->cancel();
}

void MainWindow::finishCompare(const session::Comparison& comparison)
{
    m_compare->setComparison(comparison);
    // Over several steps the two curves are the result: the Charts panel overlays them.
    if (!comparison.interrupted && comparison.steps > 1 && !comparison.a.steps.empty()
        && !comparison.b.steps.empty()) {
        m_charts->setComparedRuns({chartRunOf(comparison.a, QStringLiteral("A: ")),
                                   chartRunOf(comparison.b, QStringLiteral("B: "))},
                                  comparison.firstDivergence
                                      ? std::optional<std::int64_t>(comparison.firstDivergence->step)
                                      : std::nullopt);
        showView(View::Charts);
    }
    m_console->append(comparison.interrupted ? tr("comparison cancelled\n")
                                             : tr("comparison done: %1 vs %2\n")
                                                   .arg(QString::fromStdString(comparison.a.label),
                                                        QString::fromStdString(comparison.b.label)),
                      ConsoleView::Kind::Info);
    if (m_reloadAfterCompare) {
        m_reloadAfterCompare = false;
        resetRunViews();
        m_bridge->open(m_bridge->options(), m_resumeAfterCompare);
        restoreBreakpoints();
    }
    updateActions();
}

bool MainWindow::exportVisibleGraph(const QString& path)
{
    const QString error = views::exportVisibleGraph(*m_graph, path);
    if (error.isEmpty()) {
        m_console->append(tr("visible part of the graph written to %1\n").arg(path), ConsoleView::Kind::Info);
        return true;
    }
    m_console->append(error + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
    return false;
}

bool MainWindow::exportCharts(const QString& path)
{
    const QString error = m_charts->exportTo(path);
    if (error.isEmpty()) {
        m_console->append(tr("charts written to %1\n").arg(path), ConsoleView::Kind::Info);
        return true;
    }
    m_console->append(error + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
    return false;
}

} // namespace gradstep::views
