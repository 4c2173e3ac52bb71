// What if > Ranks: the open script on N data-parallel ranks, rank 0 in the window's own session
// (Note [rank 0 in the window] in session/rank_relay.cpp) and ranks 1..N-1 processes mpirun
// starts, all driven over sockets by the Ranks panel's controller (session/rank_controller.h), so
// the window's views show rank 0 and its run commands step every rank. The window cannot fork
// (Qt, Python threads) nor be an MPI rank itself. SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "dist/remote_world.h"
#include "session/rank_relay.h"
#include "session/rank_server.h"
#include "views/console_view.h"
#include "views/source_view.h"
#include "views/window/ranks_panel.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <algorithm>
#include <memory>
#include <thread>
#include <unistd.h>

namespace gradstep::views {

namespace {

/// More ranks than cores only queue on the cores; a few more still show how ranks differ.
int sensibleMostRanks()
{
    return std::clamp(int(std::thread::hardware_concurrency()) * 2, 4, 64);
}

} // namespace

void MainWindow::askForRanks()
{
    bool ok = false;
    const int n = QInputDialog::getInt(this, tr("Ranks"),
                                       tr("Run the script on how many data-parallel ranks (each under its own "
                                          "debugger, stepped together)?"),
                                       2, 2, sensibleMostRanks(), 1, &ok);
    if (ok)
        startRanks(n);
}

bool MainWindow::startRanks(int ranks)
{
    const QString script = m_source->filePath();
    if (script.isEmpty()) {
        m_console->append(tr("open a script to run it on ranks\n"), ConsoleView::Kind::Diagnostic);
        return false;
    }
    session::RankControllerOptions options;
    options.launcher = m_ranksLauncher ? m_ranksLauncher(ranks) : std::vector<std::string>{};
    if (options.launcher.empty()) {
        m_console->append(tr("cannot start ranks here: they need Open MPI's mpirun (Debian: openmpi-bin) and "
                             "gradstep's own launcher\n"),
                          ConsoleView::Kind::Diagnostic);
        showView(View::Console);
        return false;
    }
    const std::string path = QFileInfo(script).absoluteFilePath().toStdString();
    // Every rank runs the script as the window's session will as rank 0 (linkRanks): the API
    // profile, seed, checkpoint and memory cap of this window.
    const debug::SessionOptions& current = m_bridge->options();
    options.debugArguments = {path, "--quiet", "--api", current.apiProfile, "--memory-cap",
                              std::to_string(std::max<std::size_t>(1, m_memoryCapBytes >> 20))};
    if (current.overrides.seed) {
        options.debugArguments.emplace_back("--seed");
        options.debugArguments.push_back(std::to_string(*current.overrides.seed));
    }
    if (current.overrides.checkpoint) {
        options.debugArguments.emplace_back("--checkpoint");
        options.debugArguments.push_back(*current.overrides.checkpoint);
    }
    // The window's line breakpoints: Continue stops the ranks there too.
    QList<int> lines(m_breakpointLines.begin(), m_breakpointLines.end());
    std::sort(lines.begin(), lines.end());
    for (int line : lines) {
        options.debugArguments.emplace_back("--break");
        options.debugArguments.push_back(path + ":" + std::to_string(line));
    }
    options.ranks = ranks;
    options.captureOutput = true; // quoted in the panel when a rank fails
    options.rankZeroHere = true;
    unlinkRanks(true);
    m_linkedRanks = ranks;
    m_console->append(tr("starting %1 ranks of %2 (What if > Ranks): rank 0 in this window, ranks 1 to %3 under "
                         "mpirun\n")
                          .arg(ranks)
                          .arg(QFileInfo(script).fileName())
                          .arg(ranks - 1),
                      ConsoleView::Kind::Info);
    m_ranksPanel->start(std::move(options));
    showView(View::Ranks);
    if (m_docks[View::Ranks]->height() < height() * 3 / 5) // grown by the user: kept
        resizeDocks({m_docks[View::Ranks]}, {height() * 3 / 5}, Qt::Vertical);
    return true;
}

void MainWindow::connectRanks()
{
    connect(m_ranksPanel, &RanksPanel::launched, this, &MainWindow::linkRanks);
    connect(m_ranksPanel, &RanksPanel::ended, this, [this] {
        if (!m_ranksLinked)
            return;
        unlinkRanks(false);
        m_console->append(tr("the ranks ended; this window's session stays where rank 0 was (Restart runs the "
                             "script alone)\n"),
                          ConsoleView::Kind::Info);
    });
    connect(m_ranksPanel, &RanksPanel::updated, this, [this] { updateActions(); });
    connect(m_ranksPanel, &RanksPanel::busyChanged, this, [this] { updateActions(); });
    connect(m_bridge, &SessionBridge::stateChanged, this, [this](const auto& state) { serveRankZero(*state); });
    // Whatever replaces the session (open, restart, a what-if switch, a comparison) ends the ranks
    // first: rank 0's server thread must let go of the session.
    m_bridge->setBeforeClose([this] {
        if (!m_ranksOpening)
            unlinkRanks(true);
    });
}

void MainWindow::linkRanks(int relayFd, const QString& socketPath)
{
    if (relayFd < 0 || !m_ranksPanel->running()) { // ended meanwhile
        if (relayFd >= 0)
            ::close(relayFd);
        return;
    }
    // Before the new session loads: its init() joins the ranks' world through the relay.
    try {
        dist::setRemoteWorld(session::relayWorld(relayFd));
    } catch (const std::exception& e) { // this window runs MPI itself (started under mpirun)
        m_console->append(QString::fromUtf8(e.what()) + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
        m_ranksPanel->stopAll();
        return;
    }
    m_ranksLinked = true;
    m_awaitingRankZero = true;
    m_rankZeroSocket = socketPath.toStdString();
    m_ranksPanel->setWindowRank(0);
    // The other ranks run to the window's line breakpoints from the start; so does rank 0.
    if (!m_breakpointLines.isEmpty())
        m_bridge->setFirstCommand(debug::RunCommand::of(debug::RunCommand::Kind::Continue));
    // The ranks run the script as written: switches they have no option for are not applied.
    debug::SessionOptions options = m_bridge->options();
    run::RunOverrides& o = options.overrides;
    if (o.hasAux != run::HasAuxOverride::AsWritten || o.gradApi != run::GradApiOverride::AsWritten
        || o.mode != run::ModeOverride::AsWritten || o.amp != run::AmpOverride::AsWritten)
        m_console->append(tr("the ranks run the script as written: the What if switches for has_aux, the gradient "
                             "API, the mode and amp are not applied to them (nor to rank 0 here)\n"),
                          ConsoleView::Kind::Info);
    o.hasAux = run::HasAuxOverride::AsWritten;
    o.gradApi = run::GradApiOverride::AsWritten;
    o.mode = run::ModeOverride::AsWritten;
    o.amp = run::AmpOverride::AsWritten;
    session::CompareSide shown; // the What if menus show what rank 0 runs
    shown.overrides = o;
    shown.apiProfile = options.apiProfile;
    checkSideSettings(shown);
    resetRunViews();
    // The line breakpoints go to the new session before it loads (it may run to them at once).
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_bridge, &SessionBridge::opened, this, [this, once] {
        disconnect(*once);
        restoreBreakpoints();
    });
    m_ranksOpening = true;
    m_bridge->reopen(std::move(options));
    m_ranksOpening = false;
    updateActions();
}

void MainWindow::serveRankZero(const debug::SessionState& state)
{
    if (!m_awaitingRankZero || state.status == debug::SessionStatus::Running
        || state.status == debug::SessionStatus::Idle || !m_bridge->session())
        return;
    m_awaitingRankZero = false;
    debug::Session* rankZero = m_bridge->session();
    m_rankZero = std::thread([rankZero, ranks = m_linkedRanks, socket = m_rankZeroSocket] {
        std::string error;
        try {
            session::serveRank(*rankZero, 0, ranks, socket, error);
        } catch (const std::exception&) { // a malformed command: the controller sees the connection close
        }
    });
    m_ranksPanel->joinRankZero();
}

void MainWindow::unlinkRanks(bool stopRanks)
{
    if (!m_ranksLinked && !m_rankZero.joinable())
        return;
    m_ranksLinked = false;
    m_awaitingRankZero = false;
    if (stopRanks)
        m_ranksPanel->shutdown(); // closes rank 0's connection too
    if (m_rankZero.joinable())
        m_rankZero.join(); // it sees its connection close within a poll
    dist::setRemoteWorld(nullptr);
    m_ranksPanel->setWindowRank(std::nullopt);
    updateActions();
}

} // namespace gradstep::views
