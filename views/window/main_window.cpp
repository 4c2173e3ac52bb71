// SPDX-License-Identifier: MIT
#include "views/window/main_window.h"
#include "views/window/ranks_panel.h"

#include "views/charts_view.h"
#include "views/window/compare_view.h"
#include "views/console_view.h"
#include "views/gradients_table.h"
#include "views/graph_overview.h"
#include "views/graph_search_bar.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/variables_view.h"
#include "views/window/graph_links.h"
#include "views/window/step_tools.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <algorithm>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

namespace gradstep::views {

namespace {

constexpr int kMaxRecent = 8;

QDockWidget* dock(QMainWindow* window, const QString& title, const QString& name, QWidget* widget,
                  Qt::DockWidgetArea area)
{
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name);
    d->setWidget(widget);
    window->addDockWidget(area, d);
    return d;
}

} // namespace

MainWindow::MainWindow(bool restoreLayout, QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("gradstep"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_bridge = new SessionBridge(this);
    m_graph = new GraphView;
    setCentralWidget(m_graph);
    createDocks();
    createActions();
    m_status = new QLabel(tr("No script open"));
    statusBar()->addWidget(m_status, 1);
    createTools();
    connectSavedRuns();
    connect(m_bridge, &SessionBridge::stateChanged, this, [this](const auto& state) { showState(state); });
    connect(m_bridge, &SessionBridge::output, this, [this](const QString& text, bool isError) {
        m_console->append(text, isError ? ConsoleView::Kind::Stderr : ConsoleView::Kind::Stdout);
    });
    connect(m_bridge, &SessionBridge::failed, this, [this](const QString& message) {
        m_console->append(message + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
        m_status->setText(message);
        updateActions();
    });
    connect(m_source, &SourceView::breakpointToggleRequested, this, [this](int line) { toggleBreakpoint(line); });
    connect(m_graph, &GraphView::nodeActivated, this, [this](int index) { showNodeFromGraph(index); });
    m_graphLinks = new GraphLinks(this);
    m_stepTools = new StepTools(this);
    resize(1500, 950);
    m_saveLayout = restoreLayout;
    QSettings settings;
    m_defaultLayout = !restoreLayout || !settings.contains(QStringLiteral("window/state"));
    if (restoreLayout) {
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    }
    fitToScreen();
    updateRecentMenu();
    updateActions();
}

MainWindow::~MainWindow()
{
    m_bridge->setBeforeClose({});
    unlinkRanks(true); // rank 0's server thread uses the session the bridge owns
}

void MainWindow::fitToScreen()
{
    // A size saved on a bigger screen (or the default) must not put parts of the window off screen.
    const QScreen* s = screen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    if (width() <= available.width() && height() <= available.height() && available.contains(frameGeometry()))
        return;
    resize(std::min(width(), available.width()), std::min(height(), available.height()));
    move(std::clamp(x(), available.left(), std::max(available.left(), available.right() - width())),
         std::clamp(y(), available.top(), std::max(available.top(), available.bottom() - height())));
}

void MainWindow::createDocks()
{
    m_source = new SourceView;
    m_inspector = new TensorInspector;
    m_gradients = new GradientsTable;
    m_charts = new ChartsView;
    m_console = new ConsoleView;
    m_variables = new VariablesView;
    m_docks[View::Source] = dock(this, tr("Source"), QStringLiteral("source"), m_source, Qt::LeftDockWidgetArea);
    m_docks[View::Inspector] = dock(this, tr("Tensor"), QStringLiteral("tensor"), m_inspector, Qt::RightDockWidgetArea);
    m_docks[View::Variables] = dock(this, tr("Variables"), QStringLiteral("variables"), m_variables, Qt::RightDockWidgetArea);
    m_docks[View::Gradients] = dock(this, tr("Gradients"), QStringLiteral("gradients"), m_gradients, Qt::BottomDockWidgetArea);
    m_docks[View::Charts] = dock(this, tr("Charts"), QStringLiteral("charts"), m_charts, Qt::BottomDockWidgetArea);
    m_docks[View::Console] = dock(this, tr("Console"), QStringLiteral("console"), m_console, Qt::BottomDockWidgetArea);
    // The side docks run the full height: the bottom docks sit under the graph only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    tabifyDockWidget(m_docks[View::Inspector], m_docks[View::Variables]);
    tabifyDockWidget(m_docks[View::Gradients], m_docks[View::Charts]);
    tabifyDockWidget(m_docks[View::Charts], m_docks[View::Console]);
    m_docks[View::Inspector]->raise();
    m_docks[View::Gradients]->raise();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_docksSized || !m_defaultLayout)
        return;
    // Dock sizes only take once the window has its size.
    m_docksSized = true;
    // The graph in the middle gets most of the window.
    resizeDocks({m_docks[View::Source], m_docks[View::Inspector]}, {width() * 24 / 100, width() * 18 / 100}, Qt::Horizontal);
    resizeDocks({m_docks[View::Gradients]}, {height() / 5}, Qt::Vertical);
}

void MainWindow::createActions()
{
    const auto add = [this](const QString& key, const QString& text, const QKeySequence& shortcut, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        m_actions[key] = action;
        return action;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(add(QStringLiteral("open"), tr("&Open..."), QKeySequence::Open, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open script"), QString(), tr("Python scripts (*.py)"));
        if (!path.isEmpty())
            openScript(path);
    }));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(add(QStringLiteral("openCheckpoint"), tr("Open &Checkpoint..."), Qt::CTRL | Qt::SHIFT | Qt::Key_O, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open checkpoint"), QString(),
                                                          tr("MindSpore checkpoints (*.ckpt)"));
        if (!path.isEmpty())
            openCheckpoint(path);
    }));
    file->addSeparator();
    file->addAction(add(QStringLiteral("exportGraph"), tr("&Export Graph..."), Qt::CTRL | Qt::Key_E, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QStringLiteral("graph.svg"),
            tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot *.gv)"));
        if (!path.isEmpty())
            exportGraph(path);
    }));
    file->addSeparator();
    file->addAction(add(QStringLiteral("quit"), tr("&Quit"), QKeySequence::Quit, [this] { close(); }));

    QMenu* debugMenu = menuBar()->addMenu(tr("&Debug"));
    auto* toolbar = addToolBar(tr("Debug"));
    toolbar->setObjectName(QStringLiteral("debugToolbar"));
    const std::pair<QString, QAction*> controls[] = {
        {QStringLiteral("continue"), add(QStringLiteral("continue"), tr("Run / Continue"), Qt::Key_F5, [this] { continueRun(); })},
        {QStringLiteral("pause"), add(QStringLiteral("pause"), tr("Pause"), QKeySequence(), [this] { pause(); })},
        {QStringLiteral("stepOver"), add(QStringLiteral("stepOver"), tr("Step Over"), Qt::Key_F10, [this] { stepOver(); })},
        {QStringLiteral("stepInto"), add(QStringLiteral("stepInto"), tr("Step Into"), Qt::Key_F11, [this] { stepInto(); })},
        {QStringLiteral("stepOut"), add(QStringLiteral("stepOut"), tr("Step Out"), Qt::SHIFT | Qt::Key_F11, [this] { stepOut(); })},
        {QStringLiteral("stepBack"), add(QStringLiteral("stepBack"), tr("Step Back"), Qt::SHIFT | Qt::Key_F10, [this] { stepBack(); })},
        {QStringLiteral("stop"), add(QStringLiteral("stop"), tr("Stop"), Qt::SHIFT | Qt::Key_F5, [this] { stop(); })},
        {QStringLiteral("restart"), add(QStringLiteral("restart"), tr("Restart"), Qt::CTRL | Qt::SHIFT | Qt::Key_F5, [this] { restart(); })},
    };
    for (const auto& [key, action] : controls) {
        debugMenu->addAction(action);
        toolbar->addAction(action);
    }
    createWhatIfMenu(menuBar()->addMenu(tr("&What if")));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(add(QStringLiteral("fit"), tr("&Fit Graph"), Qt::CTRL | Qt::Key_0, [this] { m_graph->fitAll(); }));
    view->addAction(add(QStringLiteral("zoomIn"), tr("Zoom &In"), QKeySequence::ZoomIn, [this] { m_graph->zoomBy(1.25); }));
    view->addAction(add(QStringLiteral("zoomOut"), tr("Zoom &Out"), QKeySequence::ZoomOut, [this] { m_graph->zoomBy(0.8); }));
    // The overlays sit over the graph: each can be hidden when it covers what matters.
    QAction* overview = add(QStringLiteral("overview"), tr("Graph &Overview"), QKeySequence(),
                            [this](bool on) { m_graph->overview()->setWanted(on); });
    QAction* searchBar = add(QStringLiteral("searchBar"), tr("Graph &Search Bar"), QKeySequence(),
                             [this](bool on) { m_graph->searchBar()->setVisible(on); });
    for (QAction* toggle : {overview, searchBar}) {
        toggle->setCheckable(true);
        toggle->setChecked(true);
        view->addAction(toggle);
    }
    view->addSeparator();
    for (const auto& [which, d] : m_docks)
        view->addAction(d->toggleViewAction());
}

void MainWindow::createWhatIfMenu(QMenu* menu)
{
    const auto group = [this, menu](const QString& title, const QStringList& choices) {
        menu->addSection(title);
        auto* g = new QActionGroup(this);
        for (const QString& choice : choices) {
            QAction* a = menu->addAction(choice);
            a->setCheckable(true);
            a->setData(int(g->actions().size()));
            g->addAction(a);
        }
        g->actions().front()->setChecked(true);
        connect(g, &QActionGroup::triggered, this, [this] { applyOverrides(); });
        return g;
    };
    m_hasAux = group(tr("has_aux"), {tr("As written"), tr("On"), tr("Off")});
    m_gradApi = group(tr("Gradient API"), {tr("As written"), tr("value_and_grad"), tr("grad-only fallback")});
    m_apiProfile = group(tr("API profile"), {tr("MindSpore 2.x"), tr("MindSpore 1.10")});
    m_mode = group(tr("Execution mode"), {tr("As written"), tr("PyNative"), tr("Graph")});
    menu->addSection(tr("Data parallel"));
    QAction* ranks = menu->addAction(tr("&Ranks..."), this, [this] { askForRanks(); });
    ranks->setObjectName(QStringLiteral("ranks"));
    ranks->setToolTip(tr("Run the script on N ranks, each under its own debugger, and step them together"));
}

void MainWindow::takeMenuSettings(debug::SessionOptions& options) const
{
    options.overrides.hasAux = run::HasAuxOverride(m_hasAux->checkedAction()->data().toInt());
    options.overrides.gradApi = run::GradApiOverride(m_gradApi->checkedAction()->data().toInt());
    options.apiProfile = m_apiProfile->checkedAction()->data().toInt() == 0 ? "2.x" : "1.10";
    options.overrides.mode = run::ModeOverride(m_mode->checkedAction()->data().toInt());
    options.memoryCapBytes = m_memoryCapBytes;
}

void MainWindow::applyOverrides()
{
    debug::SessionOptions options = m_bridge->options();
    if (options.script.empty())
        return;
    takeMenuSettings(options);
    reopenWith(std::move(options), tr("restarting with has_aux %1, gradient API %2, API %3, mode %4\n")
                                       .arg(m_hasAux->checkedAction()->text(), m_gradApi->checkedAction()->text(),
                                            m_apiProfile->checkedAction()->text(), m_mode->checkedAction()->text()));
}

void MainWindow::openCheckpoint(const QString& path)
{
    debug::SessionOptions options = m_bridge->options();
    if (options.script.empty())
        return;
    options.overrides.checkpoint = QFileInfo(path).absoluteFilePath().toStdString();
    reopenWith(std::move(options),
               tr("restarting with %1 loaded into the network when the script first calls it\n").arg(path));
}

void MainWindow::reopenWith(debug::SessionOptions options, const QString& message)
{
    m_console->append(message, ConsoleView::Kind::Info);
    resetRunViews();
    m_bridge->reopen(std::move(options));
    restoreBreakpoints();
    updateActions();
}

void MainWindow::openScript(const QString& path)
{
    if (comparing()) { // one script at a time in the interpreter
        m_console->append(tr("a comparison runs: cancel it to open %1\n").arg(path), ConsoleView::Kind::Diagnostic);
        return;
    }
    const QFileInfo info(path);
    if (!m_source->loadFile(info.absoluteFilePath())) {
        m_console->append(tr("cannot read %1\n").arg(path), ConsoleView::Kind::Diagnostic);
        return;
    }
    setWindowTitle(tr("%1 - gradstep").arg(info.fileName()));
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(info.absoluteFilePath());
    recent.prepend(info.absoluteFilePath());
    settings.setValue(QStringLiteral("recentFiles"), recent.mid(0, kMaxRecent));
    updateRecentMenu();
    m_console->clear();
    m_breakpointLines.clear();
    m_breakpointIds.clear();
    m_source->setBreakpointLines({});
    m_compare->clear();
    m_charts->setComparedRuns({}, std::nullopt); // another script's runs are not this one's
    resetRunViews();
    m_goToStep.reset();
    debug::SessionOptions options;
    options.script = info.absoluteFilePath().toStdString();
    takeMenuSettings(options);
    m_bridge->open(std::move(options));
    loadSavedRuns();
    updateActions();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openScript(path); })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showView(View view)
{
    if (view == View::Graph) {
        m_graph->setFocus();
        return;
    }
    QDockWidget* d = m_docks.at(view);
    d->show();
    d->raise();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_saveLayout) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
    }
    m_bridge->close(); // ends the ranks linked to it too
    if (m_ranksPanel) // no rank process outlives the window
        m_ranksPanel->shutdown();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        openScript(urls.front().toLocalFile());
}

bool MainWindow::exportGraph(const QString& path)
{
    const QString error = m_graph->exportTo(path);
    if (error.isEmpty()) {
        m_console->append(tr("graph written to %1\n").arg(path), ConsoleView::Kind::Info);
        return true;
    }
    m_console->append(error + QLatin1Char('\n'), ConsoleView::Kind::Diagnostic);
    return false;
}

} // namespace gradstep::views
