// The window's saved runs (Note [saved runs]): each finished run is kept, listed in the Charts
// panel's Runs list of its script, renamed or deleted from there. SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "views/charts_view.h"
#include "views/console_view.h"
#include "views/window/compare_view.h"

#include <QActionGroup>
#include <QAction>

namespace gradstep::views {

void MainWindow::connectSavedRuns()
{
    m_runStore = std::make_unique<RunStore>();
    connect(m_charts, &ChartsView::savedRunRenameRequested, this, [this](int index, const QString& label) {
        if (index < 0 || std::size_t(index) >= m_savedRuns.size())
            return;
        if (!m_runStore->rename(m_savedRuns[std::size_t(index)], label))
            m_console->append(tr("cannot rename the run in %1\n").arg(m_savedRuns[std::size_t(index)].path),
                              ConsoleView::Kind::Diagnostic);
        loadSavedRuns();
    });
    connect(m_charts, &ChartsView::stepClicked, this, &MainWindow::goToStep);
    connect(m_charts, &ChartsView::savedRunDeleteRequested, this, [this](int index) {
        if (index < 0 || std::size_t(index) >= m_savedRuns.size())
            return;
        if (!m_runStore->remove(m_savedRuns[std::size_t(index)]))
            m_console->append(tr("cannot delete %1\n").arg(m_savedRuns[std::size_t(index)].path),
                              ConsoleView::Kind::Diagnostic);
        loadSavedRuns();
    });
}

void MainWindow::loadSavedRuns()
{
    const std::string& script = m_bridge->options().script;
    m_savedRuns = script.empty() ? std::vector<SavedRun>{} : m_runStore->runsOf(QString::fromStdString(script));
    std::vector<ChartRun> runs;
    for (const SavedRun& r : m_savedRuns)
        runs.push_back(r.run);
    m_charts->setSavedRuns(std::move(runs));
}

QString MainWindow::runSettingsText() const
{
    QStringList changed;
    for (QActionGroup* g : {m_mode, m_hasAux, m_gradApi})
        if (g->checkedAction()->data().toInt() != 0) // 0: as written
            changed << g->checkedAction()->text().toLower();
    if (m_apiProfile->checkedAction()->data().toInt() != 0)
        changed << m_apiProfile->checkedAction()->text();
    return changed.isEmpty() ? tr("as written") : changed.join(QStringLiteral(", "));
}

void MainWindow::saveFinishedRun(const debug::SessionState& state)
{
    if (m_runSaved || state.status != debug::SessionStatus::Finished || state.history.empty())
        return;
    m_runSaved = true;
    const debug::SessionOptions& options = m_bridge->options();
    const QString mode = state.compiledGraphs.empty() ? QStringLiteral("pynative") : QStringLiteral("graph");
    const QString error = m_runStore->save(QString::fromStdString(options.script), runSettingsText(), mode,
                                           QString::fromStdString(options.apiProfile), state.history);
    if (!error.isEmpty()) {
        m_console->append(tr("the run was not saved: %1\n").arg(error), ConsoleView::Kind::Diagnostic);
        return;
    }
    loadSavedRuns();
}

namespace {

void checkData(QActionGroup* group, int data)
{
    for (QAction* action : group->actions())
        if (action->data().toInt() == data)
            action->setChecked(true);
}

} // namespace

void MainWindow::checkSideSettings(const session::CompareSide& side)
{
    // The menus' data are the override enums' values (0: as written); the API menu's 0 is 2.x.
    checkData(m_hasAux, int(side.overrides.hasAux));
    checkData(m_gradApi, int(side.overrides.gradApi));
    checkData(m_mode, int(side.overrides.mode));
    checkData(m_apiProfile, side.apiProfile == "1.10" ? 1 : 0);
}

void MainWindow::goToStep(const QString& runLabel, std::int64_t step)
{
    if (comparing() || step < 1 || m_bridge->options().script.empty())
        return;
    debug::SessionOptions options = m_bridge->options();
    takeMenuSettings(options);
    // A side of the comparison: its settings as session::settingSides defines them, over the
    // menus' others (as the comparison had them).
    const auto& c = m_compare->comparison();
    if (c && !c->interrupted && c->what != session::CompareWhat::Scripts && c->what != session::CompareWhat::Saved) {
        session::CompareOptions base;
        base.base = options.overrides;
        base.baseApiProfile = options.apiProfile;
        const auto [a, b] = session::settingSides(options.script, c->what, base);
        if (runLabel == QStringLiteral("A: ") + QString::fromStdString(c->a.label))
            checkSideSettings(a);
        else if (runLabel == QStringLiteral("B: ") + QString::fromStdString(c->b.label))
            checkSideSettings(b);
        takeMenuSettings(options);
    }
    m_goToStep = step;
    m_goToStepRan = false;
    reopenWith(std::move(options), tr("re-running to step %1 of %2 (%3); runs are deterministic\n")
                                       .arg(step)
                                       .arg(runLabel, runSettingsText()));
}

void MainWindow::continueGoToStep(const debug::SessionState& state)
{
    if (!m_goToStep || state.status == debug::SessionStatus::Running)
        return;
    const std::int64_t target = *m_goToStep;
    if (state.status != debug::SessionStatus::Paused) {
        m_goToStep.reset();
        m_console->append(tr("the run ended at step %1, before step %2\n").arg(state.step).arg(target),
                          ConsoleView::Kind::Diagnostic);
        return;
    }
    if (state.step >= target) {
        m_goToStep.reset();
        return;
    }
    if (!m_goToStepRan) {
        m_goToStepRan = true;
        runSteps(int(target - state.step)); // pauses at the end of step target - 1
        return;
    }
    if (state.step + 1 == target && state.why.reason == debug::PauseReason::Command) {
        stepInto(); // the next node starts the target step
        return;
    }
    m_goToStep.reset(); // a breakpoint or watchpoint stopped the run first: it stays there
}

} // namespace gradstep::views
