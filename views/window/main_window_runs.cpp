// The window's saved runs (Note [saved runs]): each finished run is kept, listed in the Charts
// panel's Runs list of its script, renamed or deleted from there. SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "views/charts_view.h"
#include "views/console_view.h"

#include <QActionGroup>

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

} // namespace gradstep::views
