// What if > Ranks: the open script on N data-parallel ranks in the Ranks panel. The window cannot
// fork (Qt, Python threads): the ranks are processes mpirun starts, driven over sockets by the
// panel's controller (session/rank_controller.h). SPDX-License-Identifier: MIT
#include "views/window/main_window.h"

#include "views/console_view.h"
#include "views/source_view.h"
#include "views/window/ranks_panel.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <algorithm>
#include <thread>

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
    options.debugArguments = {path, "--quiet"};
    // The window's line breakpoints: Continue stops the ranks there too.
    QList<int> lines(m_breakpointLines.begin(), m_breakpointLines.end());
    std::sort(lines.begin(), lines.end());
    for (int line : lines) {
        options.debugArguments.emplace_back("--break");
        options.debugArguments.push_back(path + ":" + std::to_string(line));
    }
    options.ranks = ranks;
    options.captureOutput = true; // quoted in the panel when a rank fails
    m_console->append(tr("starting %1 ranks of %2 (What if > Ranks)\n").arg(ranks).arg(QFileInfo(script).fileName()),
                      ConsoleView::Kind::Info);
    m_ranksPanel->start(std::move(options));
    showView(View::Ranks);
    if (m_docks[View::Ranks]->height() < height() * 3 / 5) // grown by the user: kept
        resizeDocks({m_docks[View::Ranks]}, {height() * 3 / 5}, Qt::Vertical);
    return true;
}

} // namespace gradstep::views
