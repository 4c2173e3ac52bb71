// MainWindow: File > Compare with PyTorch Script... and the Migration view's dock. The comparison
// runs on a MigrationRunner's worker; like Compare, it needs the embedded interpreter to itself,
// so the debugging session stops meanwhile and re-runs to where the user was afterwards.
// SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "views/console_view.h"
#include "views/migration/migration_runner.h"
#include "views/migration/migration_view.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QScrollArea>
#include <cstdlib>

namespace gradstep::views {

void MainWindow::createMigration()
{
    m_migration = new MigrationView;
    m_migrationRunner = new MigrationRunner(this);
    if (const char* python = std::getenv("GRADSTEP_MIGRATE_PYTHON"); python && *python)
        m_migrationPython = python;
    auto* migrationDock = new QDockWidget(tr("Migration"), this);
    migrationDock->setObjectName(QStringLiteral("migration"));
    migrationDock->setWidget(scrolling(m_migration));
    addDockWidget(Qt::BottomDockWidgetArea, migrationDock);
    tabifyDockWidget(m_docks[View::Compare], migrationDock);
    m_docks[View::Migration] = migrationDock;
    m_docks[View::Console]->raise();

    auto* action = new QAction(tr("Compare with &PyTorch Script..."), this);
    connect(action, &QAction::triggered, this, [this] { chooseMigrationScripts(); });
    m_actions[QStringLiteral("migrate")] = action;
    for (QAction* a : menuBar()->actions()) {
        if (!a->menu())
            continue;
        if (a->text() == tr("&File")) { // after Open Checkpoint...
            const QList<QAction*> items = a->menu()->actions();
            const qsizetype at = items.indexOf(m_actions.at(QStringLiteral("openCheckpoint")));
            a->menu()->insertAction(at + 1 < items.size() ? items[at + 1] : nullptr, action);
        } else if (a->text() == tr("&View")) {
            a->menu()->addAction(migrationDock->toggleViewAction());
        }
    }

    connect(m_migration, &MigrationView::runRequested, this,
            [this] { startMigration(m_migration->torchScript(), m_migration->msScript()); });
    connect(m_migration, &MigrationView::chooseRequested, this, [this] { chooseMigrationScripts(); });
    connect(m_migration, &MigrationView::cancelRequested, this, [this] { cancelMigration(); });
    connect(m_migrationRunner, &MigrationRunner::stageStarted, m_migration, &MigrationView::setStage);
    connect(m_migrationRunner, &MigrationRunner::finished, this,
            [this](const std::shared_ptr<const migrate::MigrationOutcome>& o) { finishMigration(o); });
}

void MainWindow::chooseMigrationScripts()
{
    if (comparing() || migrating())
        return;
    const QString torch = QFileDialog::getOpenFileName(this, tr("Compare with PyTorch script"), QString(),
                                                       tr("Python scripts (*.py)"));
    if (torch.isEmpty())
        return;
    QString ms = QString::fromStdString(m_bridge->options().script.string());
    if (ms.isEmpty()) {
        ms = QFileDialog::getOpenFileName(this, tr("Its MindSpore port"), QFileInfo(torch).absolutePath(),
                                          tr("Python scripts (*.py)"));
        if (ms.isEmpty())
            return;
    }
    startMigration(torch, ms);
}

bool MainWindow::migrating() const
{
    return m_migrationStarting || (m_migrationRunner && m_migrationRunner->running());
}

void MainWindow::startMigration(const QString& torchScript, const QString& msScript)
{
    if (comparing() || migrating())
        return;
    const debug::SessionOptions& current = m_bridge->options();
    const QString ms = msScript.isEmpty() ? QString::fromStdString(current.script.string()) : msScript;
    if (ms.isEmpty() || torchScript.isEmpty()) {
        m_console->append(tr("choose a PyTorch script and its MindSpore port to compare\n"), ConsoleView::Kind::Diagnostic);
        return;
    }
    migrate::MigrationRequest request;
    request.torchScript = torchScript.toStdString();
    request.msScript = ms.toStdString();
    request.python = m_migrationPython;
    request.userMap = m_migration->userMap(); // the view's corrections (gui --map's to begin with)
    m_migration->setScripts(torchScript, ms);
    m_migration->clear();
    m_migration->setRunning(true);
    // The interpreter runs one script at a time: the session stops and re-runs afterwards.
    m_reloadAfterMigration = m_bridge->session() != nullptr;
    m_resumeAfterMigration.reset();
    if (const auto state = m_bridge->state(); state && state->status == debug::SessionStatus::Paused && state->liveNode)
        m_resumeAfterMigration = std::pair{state->step, state->liveNode->seq};
    if (m_reloadAfterMigration) {
        m_bridge->close();
        m_console->append(tr("comparing with %1: the debugging session stops meanwhile and reloads afterwards\n")
                              .arg(QFileInfo(torchScript).fileName()),
                          ConsoleView::Kind::Info);
    }
    showView(View::Migration);
    if (m_docks[View::Migration]->height() < height() * 3 / 5) // grown by the user: kept
        resizeDocks({m_docks[View::Migration]}, {height() * 3 / 5}, Qt::Vertical);
    auto pending = std::make_shared<migrate::MigrationRequest>(std::move(request));
    m_migrationStarting = true;
    m_bridge->afterRetired([this, pending] {
        m_migrationStarting = false;
        m_migrationRunner->start(std::move(*pending));
        updateActions();
    });
    updateActions();
}

void MainWindow::cancelMigration()
{
    if (migrating())
        m_migrationRunner->cancel();
}

void MainWindow::finishMigration(const std::shared_ptr<const migrate::MigrationOutcome>& outcome)
{
    m_migration->setRunning(false);
    m_migration->setOutcome(outcome);
    const bool compared = outcome->status == migrate::MigrationStatus::Compared;
    m_console->append(compared ? tr("comparison with PyTorch done: %1\n").arg(m_migration->statusText())
                               : tr("comparison with PyTorch: %1\n").arg(QString::fromStdString(outcome->message)),
                      compared ? ConsoleView::Kind::Info : ConsoleView::Kind::Diagnostic);
    if (m_reloadAfterMigration) {
        m_reloadAfterMigration = false;
        resetRunViews();
        m_bridge->open(m_bridge->options(), m_resumeAfterMigration);
        restoreBreakpoints();
    }
    updateActions();
}

} // namespace gradstep::views
