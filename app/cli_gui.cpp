// SPDX-License-Identifier: MIT
#include "app/cli_gui.h"

#include "app/cli_common.h"
#include "app/compare_ranks.h"
#include "app/install_layout.h"
#include "app/rank_launcher.h"
#include "migrate/matching.h"
#include "python/host/host.h"
#include "views/graph_view.h"
#include "views/window/compare_view.h"
#include "views/migration/migration_view.h"
#include "views/window/main_window.h"
#include "views/window/ranks_panel.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace gradstep::app {

namespace {

const char* kHelp =
    "usage: gradstep gui [SCRIPT] [--screenshot FILE.png] [--steps-into N] [--view VIEW]\n"
    "                    [--compare WHAT] [--compare-steps N] [--palette dark|light]\n"
    "                    [--memory-cap MIB] [--migrate TORCH_SCRIPT [--map MAP.json]]\n"
    "                    [--ranks N [--ranks-steps K]]\n"
    "Opens the debugger window on SCRIPT (default: the LeNet5 digits sample), paused after the\n"
    "first node.\n"
    "  --screenshot FILE.png  wait until N nodes ran, save the window as a PNG and exit\n"
    "                         (works with QT_QPA_PLATFORM=offscreen)\n"
    "  --steps-into N         nodes to run before the screenshot (default 1: the first pause)\n"
    "  --view VIEW            view brought to the front: graph, source, gradients, charts,\n"
    "                         tensor, console, variables, breakpoints, compare, migration or\n"
    "                         ranks (with --screenshot, compare runs the comparison after the N\n"
    "                         nodes and the picture waits for it)\n"
    "  --compare WHAT         what Compare flips: has-aux (default), mode, grad-api, api, fd,\n"
    "                         amp or ranks (2 ranks against 1 rank on the full batch)\n"
    "  --compare-steps N      training steps each side of Compare runs (default 1); over more\n"
    "                         than one, the Charts panel overlays both runs (with --screenshot,\n"
    "                         the comparison runs and the picture shows the charts unless --view\n"
    "                         says otherwise)\n"
    "  --palette dark|light   a dark or light palette instead of the system's\n"
    "  --memory-cap MIB       what the debugger keeps of the current step (tensor snapshots,\n"
    "                         the weights before the update), in MiB (default 1024), as with\n"
    "                         gradstep debug\n"
    "  --migrate TORCH_SCRIPT compares TORCH_SCRIPT, a PyTorch script, with SCRIPT, its MindSpore\n"
    "                         port, as gradstep migrate does, once SCRIPT paused, and shows the\n"
    "                         Migration view (with --screenshot the picture waits for the result)\n"
    "  --map MAP.json         with --migrate: corrections of the matching, a JSON object\n"
    "                         {\"torch name\": \"mindspore name\"} as gradstep migrate --map takes\n"
    "                         (the view's Matching row adds more and runs again)\n"
    "  --ranks N              debug the script as N data-parallel ranks (What if > Ranks): rank 0\n"
    "                         in the window's own session (its views show rank 0), ranks 1..N-1\n"
    "                         under mpirun, all stepped together, each in the Ranks panel\n"
    "  --ranks-steps K        with --ranks: step every rank K nodes (with --screenshot, the\n"
    "                         picture shows the Ranks panel after them)\n";

struct GuiOptions {
    QString script;
    QString screenshot;
    int stepsInto = 1;
    std::optional<views::MainWindow::View> view;
    session::CompareWhat compare = session::CompareWhat::HasAux;
    int compareSteps = 1;
    QString palette;
    std::optional<std::size_t> memoryCapBytes;
    QString migrate; ///< --migrate: the PyTorch script compared with SCRIPT
    std::map<std::string, std::string> migrateMap; ///< --map: corrections of the matching
    int ranks = 0;      ///< --ranks N
    int ranksSteps = 0; ///< --ranks-steps K
};

std::optional<views::MainWindow::View> parseView(const char* text)
{
    using View = views::MainWindow::View;
    const std::pair<const char*, View> names[] = {{"graph", View::Graph}, {"source", View::Source},
        {"gradients", View::Gradients}, {"charts", View::Charts}, {"tensor", View::Inspector},
        {"console", View::Console}, {"variables", View::Variables}, {"compare", View::Compare},
        {"breakpoints", View::Breakpoints}, {"migration", View::Migration}, {"ranks", View::Ranks}};
    for (const auto& [name, view] : names)
        if (std::strcmp(text, name) == 0)
            return view;
    return std::nullopt;
}

/// 0 to go on, or the exit status.
int parse(int argc, char** argv, GuiOptions& o)
{
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0) {
            std::fputs(kHelp, stdout);
            return -1;
        }
        if (std::strcmp(a, "--screenshot") == 0 && hasValue) {
            o.screenshot = QString::fromLocal8Bit(argv[++i]);
        } else if (std::strcmp(a, "--steps-into") == 0 && hasValue) {
            char* end = nullptr;
            const long n = std::strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 1000000) {
                std::fprintf(stderr, "gradstep gui: --steps-into expects a count from 1, got '%s'\n", argv[i]);
                return 2;
            }
            o.stepsInto = int(n);
        } else if (std::strcmp(a, "--view") == 0 && hasValue) {
            o.view = parseView(argv[++i]);
            if (!o.view) {
                std::fprintf(stderr, "gradstep gui: unknown view '%s'\n%s", argv[i], kHelp);
                return 2;
            }
        } else if (std::strcmp(a, "--compare") == 0 && hasValue) {
            const auto what = session::parseCompareWhat(argv[++i]);
            if (!what) {
                std::fprintf(stderr, "gradstep gui: --compare expects has-aux, mode, grad-api, api, fd, amp or ranks, got '%s'\n", argv[i]);
                return 2;
            }
            o.compare = *what;
        } else if (std::strcmp(a, "--compare-steps") == 0 && hasValue) {
            long long n = 0;
            if (!app::parseWholeNumber(argv[++i], 10000, n) || n < 1) {
                std::fprintf(stderr, "gradstep gui: --compare-steps expects a count from 1 to 10000, got '%s'\n", argv[i]);
                return 2;
            }
            o.compareSteps = int(n);
        } else if (std::strcmp(a, "--palette") == 0 && hasValue) {
            o.palette = QString::fromLocal8Bit(argv[++i]);
            if (o.palette != QLatin1String("dark") && o.palette != QLatin1String("light")) {
                std::fprintf(stderr, "gradstep gui: --palette expects dark or light, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (std::strcmp(a, "--memory-cap") == 0 && hasValue) {
            long long n = 0;
            if (!app::parseWholeNumber(argv[++i], 1LL << 30, n)) {
                std::fprintf(stderr, "gradstep gui: --memory-cap needs a whole number of MiB, got '%s'\n", argv[i]);
                return 2;
            }
            o.memoryCapBytes = static_cast<std::size_t>(n) << 20;
        } else if (std::strcmp(a, "--migrate") == 0 && hasValue) {
            o.migrate = QString::fromLocal8Bit(argv[++i]);
            if (!QFileInfo(o.migrate).isFile()) {
                std::fprintf(stderr, "gradstep gui: --migrate: cannot read the script '%s'\n", argv[i]);
                return 2;
            }
            if (!o.view)
                o.view = views::MainWindow::View::Migration;
        } else if (std::strcmp(a, "--map") == 0 && hasValue) {
            try {
                o.migrateMap = migrate::readUserMap(argv[++i]);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "gradstep gui: --map: %s\n", e.what());
                return 2;
            }
        } else if ((std::strcmp(a, "--ranks") == 0 || std::strcmp(a, "--ranks-steps") == 0) && hasValue) {
            const bool ranks = std::strcmp(a, "--ranks") == 0;
            long long n = 0;
            if (!app::parseWholeNumber(argv[++i], ranks ? 64 : 100000, n) || (ranks && n < 2)) {
                std::fprintf(stderr, "gradstep gui: %s expects %s, got '%s'\n", a,
                             ranks ? "a number of ranks from 2 to 64" : "a whole number of nodes", argv[i]);
                return 2;
            }
            (ranks ? o.ranks : o.ranksSteps) = int(n);
        } else if (a[0] != '-' && o.script.isEmpty()) {
            o.script = QString::fromLocal8Bit(a);
        } else {
            std::fprintf(stderr, "gradstep gui: unexpected argument '%s'\n%s", a, kHelp);
            return 2;
        }
    }
    return 0;
}

QString defaultSample()
{
    return QString::fromStdString((samplesDirectory() / "lenet5_digits.py").string());
}

/// Fusion with a dark or a light palette (the platform's may ignore palettes).
void applyPalette(bool dark)
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (!dark) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(220, 220, 220), disabled(120, 120, 120);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 80, 80));
    p.setColor(QPalette::Link, QColor(90, 160, 250));
    p.setColor(QPalette::Highlight, QColor(50, 110, 200));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, disabled);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    QApplication::setPalette(p);
}

/// --ranks with --screenshot: starts the ranks once, steps them --ranks-steps nodes, and says
/// true once the panel shows their gradients after the last step (or the ranks ended).
struct RanksDrive {
    int stepsTaken = -1; ///< -1: the ranks are not started yet
    bool watching = false;
};

bool driveRanks(views::MainWindow& window, const GuiOptions& o, RanksDrive& drive)
{
    views::RanksPanel* panel = window.ranksPanel();
    if (drive.stepsTaken < 0) {
        drive.stepsTaken = 0;
        if (!window.startRanks(o.ranks))
            return true;
    }
    if (!drive.watching) { // the main session is paused: the panel's updates drive the rest
        drive.watching = true;
        QObject::connect(panel, &views::RanksPanel::updated, &window, [&window] { emit window.stateShown(); });
    }
    if (!panel->running())
        return true;
    if (panel->busy() || panel->ranks() == 0)
        return false;
    if (drive.stepsTaken < o.ranksSteps) {
        ++drive.stepsTaken;
        panel->stepAll();
        return false;
    }
    return panel->gradientRows() > 0 || panel->verdictText().size() > 0;
}

/// Steps until `target` nodes ran (or the script stopped), then grabs the window.
void driveScreenshot(views::MainWindow& window, const GuiOptions& o, int& status)
{
    auto drive = std::make_shared<RanksDrive>();
    QObject::connect(&window, &views::MainWindow::stateShown, &window, [&window, &o, &status, drive] {
        const auto state = window.bridge().state();
        if (!state || state->status == debug::SessionStatus::Running)
            return;
        if (state->status == debug::SessionStatus::Paused && state->nodesExecuted < std::uint64_t(o.stepsInto)) {
            window.stepInto();
            return;
        }
        if (o.view == views::MainWindow::View::Compare || o.compareSteps > 1) {
            // The comparison stops the session and reloads it; the picture waits for the table.
            if (!window.compareView()->comparison() && !window.comparing()) {
                window.compareView()->setSteps(o.compareSteps);
                window.startCompare(o.compare);
            }
            const auto& comparison = window.compareView()->comparison();
            if (!comparison)
                return;
            for (const session::StepFigures* side : {&comparison->a, &comparison->b})
                if (side->error)
                    std::fprintf(stderr, "gradstep gui: compare: %s: %s\n", side->label.c_str(), side->error->c_str());
        }
        if (!o.migrate.isEmpty()) {
            // The comparison stops the session and reloads it; the picture waits for its result.
            if (!window.migrationView()->outcome() && !window.migrating())
                window.startMigration(o.migrate);
            const auto& outcome = window.migrationView()->outcome();
            if (!outcome)
                return;
            if (outcome->status != migrate::MigrationStatus::Compared)
                std::fprintf(stderr, "gradstep gui: migrate: %s\n", outcome->message.c_str());
        }
        if (o.ranks > 0 && !driveRanks(window, o, *drive))
            return;
        QTimer::singleShot(150, &window, [&window, &o, &status] {
            if (o.view || o.ranks > 0)
                window.showView(o.view.value_or(views::MainWindow::View::Ranks));
            QCoreApplication::processEvents();
            window.graphView()->waitForLayout();
            window.migrationView()->graphView()->waitForLayout();
            const bool saved = window.grab().save(o.screenshot);
            if (!saved)
                std::fprintf(stderr, "gradstep gui: cannot write %s\n", qPrintable(o.screenshot));
            status = saved ? 0 : 1;
            QCoreApplication::quit();
        });
    });
    QObject::connect(&window.bridge(), &views::SessionBridge::failed, &window, [&status](const QString& message) {
        std::fprintf(stderr, "gradstep gui: %s\n", qPrintable(message));
        status = 1;
        QCoreApplication::quit();
    });
}

} // namespace

int guiCommand(int argc, char** argv)
{
    GuiOptions o;
    if (const int rc = parse(argc, argv, o); rc != 0)
        return rc < 0 ? 0 : rc;
    python::Host::start();
    int status = 0;
    {
        int qtArgc = 1;
        char name[] = "gradstep";
        char* qtArgv[] = {name, nullptr};
        QApplication app(qtArgc, qtArgv);
        QCoreApplication::setOrganizationName(QStringLiteral("gradstep"));
        QCoreApplication::setApplicationName(QStringLiteral("gradstep"));
        if (!o.palette.isEmpty())
            applyPalette(o.palette == QLatin1String("dark"));
        // The installed desktop entry and icon (packaging/): Wayland matches the window to
        // gradstep.desktop by this name; the icon comes from the hicolor theme when installed.
        QGuiApplication::setDesktopFileName(QStringLiteral("gradstep"));
        QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("gradstep")));
        const bool screenshot = !o.screenshot.isEmpty();
        views::MainWindow window(!screenshot);
        window.migrationView()->setUserMap(o.migrateMap);
        window.compareView()->setSteps(o.compareSteps);
        window.setRunOnRanks(runSideOnRanks);
        window.setRanksLauncher(rankServeLauncher);
        if (o.memoryCapBytes)
            window.setMemoryCap(*o.memoryCapBytes);
        if (screenshot) {
            window.resize(1600, 1000);
            driveScreenshot(window, o, status);
        }
        if (o.view)
            window.showView(*o.view);
        if (!screenshot && !o.migrate.isEmpty()) // once the script paused: the session must be idle
            QObject::connect(&window, &views::MainWindow::stateShown, &window, [&window, &o, started = false]() mutable {
                const auto state = window.bridge().state();
                if (started || !state || state->status == debug::SessionStatus::Running)
                    return;
                started = true;
                window.startMigration(o.migrate);
            });
        window.show();
        window.openScript(o.script.isEmpty() ? defaultSample() : o.script);
        if (o.ranks > 0 && !screenshot)
            window.startRanks(o.ranks);
        const int rc = app.exec();
        if (!screenshot)
            status = rc;
    }
    python::Host::shutdown();
    if (python::Host::abandonedRuns())
        endWithoutPython(status); // a blocked script's thread is still inside Python
    return status;
}

} // namespace gradstep::app
