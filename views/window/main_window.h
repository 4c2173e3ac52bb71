// The desktop app's window: the graph in the middle; source, tensor inspector, gradients, charts,
// console and variables as dock widgets; the run controls (F5, F10, F11, Shift+F11, pause,
// restart, step back) and the what-if switches that restart the script with other options.
// Every action is a debug::Session call through the SessionBridge; states arrive queued on the
// GUI thread. Layout and recent files persist in QSettings. SPDX-License-Identifier: MIT
#pragma once

#include "views/window/run_store.h"
#include "views/window/session_bridge.h"

#include "migrate/migration.h"
#include "session/compare.h"

#include <QMainWindow>
#include <QSet>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;

namespace gradstep::display {
class DisplayGraph;
}

namespace gradstep::views {

class BreakpointsPanel;
class ChartsView;
class CompareRunner;
class CompareView;
class ConsoleView;
class GradientsTable;
class GraphLinks;
class GraphView;
class MigrationRunner;
class MigrationView;
class RanksPanel;
class RunProgress;
class SourceView;
class StepTools;
class TensorInspector;
class VariablesView;
struct GraphPicture;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class View { Graph, Source, Gradients, Charts, Inspector, Console, Variables, Compare, Breakpoints, Migration, Ranks };

    /// `restoreLayout` false: the default dock layout, and the layout is not saved on close
    /// (screenshots and tests look the same on every machine).
    explicit MainWindow(bool restoreLayout = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens `path` (a new session, paused after the first node) and remembers it.
    void openScript(const QString& path);
    /// What the debugger keeps of the current step in the runs this window starts from now on
    /// (SessionOptions::memoryCapBytes; `gradstep gui --memory-cap`).
    void setMemoryCap(std::size_t bytes) { m_memoryCapBytes = bytes; }
    /// How Compare's ranks what-if starts its ranks (session::CompareOptions::runOnRanks): the
    /// application knows how to start itself under mpirun; without it that comparison says it
    /// cannot run here.
    void setRunOnRanks(decltype(session::CompareOptions::runOnRanks) run) { m_runOnRanks = std::move(run); }
    /// How What if > Ranks starts its ranks: the launcher that runs this program under mpirun
    /// for N ranks (session::RankControllerOptions::launcher; empty: mpirun is missing). The
    /// application knows it; without it the Ranks panel says it cannot start ranks here.
    void setRanksLauncher(std::function<std::vector<std::string>(int ranks)> launcher)
    {
        m_ranksLauncher = std::move(launcher);
    }
    /// What if > Ranks: starts the open script on `ranks` ranks in the Ranks panel, each under
    /// its own debugger, paused after their first node (or at the window's line breakpoints).
    /// False (said in the console) without a script or a launcher.
    bool startRanks(int ranks);
    RanksPanel* ranksPanel() const { return m_ranksPanel; }
    /// The window's own session is rank 0 of the ranks the Ranks panel runs (Note [rank 0 in the
    /// window] in session/rank_relay.cpp): the run commands (F5, F10, F11, Shift+F11, Pause,
    /// Stop) act on every rank, and a node or parameter picked in the graph shows in the panel too.
    bool ranksLinked() const { return m_ranksLinked; }
    /// File > Open Checkpoint: the run restarts with the MindSpore checkpoint at `path` loaded
    /// into the network the script first calls (RunOverrides::checkpoint).
    void openCheckpoint(const QString& path);
    /// Brings a view to the front (its dock raised).
    void showView(View view);

    SessionBridge& bridge() { return *m_bridge; }
    SourceView* sourceView() const { return m_source; }
    GraphView* graphView() const { return m_graph; }
    GradientsTable* gradientsTable() const { return m_gradients; }
    ChartsView* chartsView() const { return m_charts; }
    TensorInspector* inspector() const { return m_inspector; }
    ConsoleView* console() const { return m_console; }
    VariablesView* variablesView() const { return m_variables; }
    GraphLinks* graphLinks() const { return m_graphLinks; }
    StepTools* stepTools() const { return m_stepTools; }
    QString statusText() const;
    /// States shown so far (for tests and the screenshot loop).
    std::uint64_t statesShown() const { return m_statesShown; }

    void stepInto();
    void stepOver();
    void stepOut();
    void continueRun();
    void pause();
    /// Ends the run (Session::cancel); a script blocked in a sleep or a read is given up on a
    /// few seconds later. Returns at once.
    void stop();
    void restart();
    void stepBack();
    /// Writes the graph as drawn (SVG, PNG, PDF or DOT by the suffix); errors go to the console.
    bool exportGraph(const QString& path);
    /// A parameter's or an input's value (and a parameter's gradient once the step computed it)
    /// in the inspector, by its graph key ("P:F:conv1.weight", "I:F:3"): at any time of the step.
    void showSourceTensor(const QString& key);

    // Compare, Run N steps, run progress, breakpoint lists, exports: main_window_tools.cpp.
    /// Runs the script's first step as A and B (the what-if switches as configured, `what`
    /// flipped) on a worker; the session stops meanwhile and reloads afterwards.
    void startCompare(session::CompareWhat what);
    void cancelCompare();
    bool comparing() const;
    /// The program a comparison's side processes run (CompareRunner::setSideExecutable).
    void setCompareExecutable(const std::filesystem::path& executable);
    // File > Compare with PyTorch Script...: main_window_migration.cpp.
    /// Compares `torchScript` with its MindSpore port `msScript` (empty: the script open) as
    /// `gradstep migrate` does, on a worker; the session stops meanwhile and reloads afterwards,
    /// and the Migration view shows the result (or why it could not compare).
    void startMigration(const QString& torchScript, const QString& msScript = {});
    void cancelMigration();
    bool migrating() const;
    /// The python3 (with torch) that runs the PyTorch side; empty: the configured one. Starts as
    /// GRADSTEP_MIGRATE_PYTHON, as on the command line.
    void setMigrationPython(std::string python) { m_migrationPython = std::move(python); }
    MigrationView* migrationView() const { return m_migration; }
    /// Runs until `n` training steps ended (the current one counts).
    void runSteps(int n);
    /// The visible part of the graph (what the view shows) as SVG, PNG, PDF or DOT.
    bool exportVisibleGraph(const QString& path);
    /// The charts as PNG or SVG, or their data as CSV (step, loss, each parameter's norm).
    bool exportCharts(const QString& path);
    CompareView* compareView() const { return m_compare; }
    BreakpointsPanel* breakpointsPanel() const { return m_conditions; }
    RunProgress* runProgress() const { return m_progress; }
    /// Where finished runs are kept (Note [saved runs]); tests point it at a folder of their own.
    RunStore& runStore() { return *m_runStore; }
    /// The saved runs of the open script, newest first, as the Charts panel lists them.
    const std::vector<SavedRun>& savedRuns() const { return m_savedRuns; }
    /// Re-runs the script to the start of training step `step` and pauses there (runs are
    /// deterministic): a click on a curve. A side of the last comparison ("A: has_aux on")
    /// re-runs under that side's settings, which the What-if menus then show.
    void goToStep(const QString& runLabel, std::int64_t step);

signals:
    /// After a state was shown in every view.
    void stateShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createActions();
    void createWhatIfMenu(QMenu* menu);
    void updateRecentMenu();
    void updateActions();
    /// Every view of the run starts over (a new script, a restart, a what-if switch): nothing of
    /// the previous run may stay on screen, whatever the new one shows first (or never shows).
    void resetRunViews();
    /// Shrinks and moves the window into the screen's available area.
    void fitToScreen();
    void applyOverrides();
    /// The What-if menus' settings into `options`.
    void takeMenuSettings(debug::SessionOptions& options) const;
    /// The What-if menus show a comparison side's settings.
    void checkSideSettings(const session::CompareSide& side);
    /// Drives a goToStep once its session pauses: runs the steps before the target, then steps
    /// into it.
    void continueGoToStep(const debug::SessionState& state);
    /// Restarts the run with options, saying why in the console; views start over.
    void reopenWith(debug::SessionOptions options, const QString& message);
    void toggleBreakpoint(int line);
    void restoreBreakpoints();
    /// Hollow gutter marks for the breakpoints the Session says cannot stop (no code, never ran).
    void showBreakpointMarks();
    void createTools();
    void createToolDocks();
    void createToolActions();
    void createExportActions();
    /// Asks how many ranks, then startRanks.
    void askForRanks();
    // Rank 0 in the window (main_window_ranks.cpp).
    void connectRanks();
    /// Ranks 1..N-1 connected: the window's session restarts as rank 0 through the relay.
    void linkRanks(int relayFd, const QString& socketPath);
    /// The first pause of rank 0's session: serve it to the controller, which then lines up all.
    void serveRankZero(const debug::SessionState& state);
    /// Ends the link (and, with stopRanks, the ranks): rank 0's server thread joined, the world
    /// of the window's sessions is its own again.
    void unlinkRanks(bool stopRanks);
    void createRunProgress();
    void connectTools();
    QAction* addToolAction(const QString& key, const QString& text, const QKeySequence& shortcut,
                           std::function<void()> slot);
    void updateToolActions();
    void finishCompare(const session::Comparison& comparison);
    /// The panel scrolls inside its dock instead of imposing its minimum size on the dock area:
    /// the Compare, Breakpoints and Migration panels are tall and wide, and would otherwise
    /// squeeze the graph.
    static QScrollArea* scrolling(QWidget* panel);
    void createMigration();
    /// Asks for the PyTorch script (and the port when none is open), then compares them.
    void chooseMigrationScripts();
    void finishMigration(const std::shared_ptr<const migrate::MigrationOutcome>& outcome);
    /// Saved runs (main_window_runs.cpp): listed in the Charts panel per script; a finished run
    /// is saved once.
    void connectSavedRuns();
    void loadSavedRuns();
    void saveFinishedRun(const debug::SessionState& state);
    /// The what-if switches that differ from the script as written: "graph mode, has_aux on".
    QString runSettingsText() const;

    void showState(const std::shared_ptr<const debug::SessionState>& state);
    void showGraph(const debug::SessionState& state);
    void showGradients(const debug::SessionState& state);
    /// At the end of a run whose last records computed no gradient: draws the last training
    /// step instead of them. False (nothing done) otherwise.
    bool showLastTrainingStep(const debug::SessionState& state);
    void showRecord(const debug::RecordPtr& record);
    void showStatus(const debug::SessionState& state);
    void showNodeFromGraph(int index);

    SessionBridge* m_bridge = nullptr;
    SourceView* m_source = nullptr;
    GraphView* m_graph = nullptr;
    GradientsTable* m_gradients = nullptr;
    ChartsView* m_charts = nullptr;
    TensorInspector* m_inspector = nullptr;
    ConsoleView* m_console = nullptr;
    VariablesView* m_variables = nullptr;
    GraphLinks* m_graphLinks = nullptr;
    StepTools* m_stepTools = nullptr;
    std::map<View, QDockWidget*> m_docks;
    QLabel* m_status = nullptr;
    QMenu* m_recentMenu = nullptr;
    std::map<QString, QAction*> m_actions;
    QActionGroup* m_hasAux = nullptr;
    QActionGroup* m_gradApi = nullptr;
    QActionGroup* m_apiProfile = nullptr;
    QActionGroup* m_mode = nullptr;
    CompareView* m_compare = nullptr;
    CompareRunner* m_compareRunner = nullptr;
    MigrationView* m_migration = nullptr;
    MigrationRunner* m_migrationRunner = nullptr;
    bool m_migrationStarting = false;   ///< waiting for the closed session to end before it starts
    bool m_reloadAfterMigration = false;
    std::optional<std::pair<std::int64_t, std::uint64_t>> m_resumeAfterMigration;
    std::string m_migrationPython;
    BreakpointsPanel* m_conditions = nullptr;
    RunProgress* m_progress = nullptr;
    std::int64_t m_runStepsFrom = -1; ///< Run N steps: the step it started from, else -1
    int m_runStepsCount = 0;
    bool m_reloadAfterCompare = false;
    bool m_compareStarting = false; ///< waiting for the closed session to end before it starts
    bool m_compareCancelledEarly = false; ///< Cancel while m_compareStarting: it never starts
    /// Where the user was paused when a comparison stopped the session: (step, record seq).
    std::optional<std::pair<std::int64_t, std::uint64_t>> m_resumeAfterCompare;
    QSet<int> m_breakpointLines;
    std::map<int, int> m_breakpointIds; ///< source line -> the session's breakpoint id
    std::int64_t m_pictureStep = -1;
    std::size_t m_pictureRecords = 0;
    std::int64_t m_growingStep = -1; ///< a step drawn from its own records (it left the template)
    std::shared_ptr<const display::DisplayGraph> m_pictureTemplate;
    std::size_t m_historyShown = 0;
    std::unique_ptr<RunStore> m_runStore;
    std::vector<SavedRun> m_savedRuns;
    bool m_runSaved = false; ///< the current session's finished run was saved
    std::optional<std::int64_t> m_goToStep; ///< goToStep's target while under way
    bool m_goToStepRan = false;             ///< its runSteps was issued
    std::uint64_t m_statesShown = 0;
    std::size_t m_memoryCapBytes = debug::SessionOptions{}.memoryCapBytes;
    decltype(session::CompareOptions::runOnRanks) m_runOnRanks;
    std::function<std::vector<std::string>(int)> m_ranksLauncher;
    RanksPanel* m_ranksPanel = nullptr;
    bool m_ranksLinked = false;
    bool m_ranksOpening = false;     ///< the session is being reopened as rank 0
    bool m_awaitingRankZero = false; ///< rank 0's session has not paused yet
    int m_linkedRanks = 0;
    std::string m_rankZeroSocket;
    std::thread m_rankZero;          ///< serves the window's session to the controller as rank 0
    bool m_saveLayout = true;
    bool m_defaultLayout = true;
    bool m_docksSized = false;
};

} // namespace gradstep::views
