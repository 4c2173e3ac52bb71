// SPDX-License-Identifier: MIT
#include "views/migration/migration_view.h"

#include "views/graph_overview.h"
#include "views/graph_search_bar.h"
#include "views/graph_view.h"
#include "views/migration/migration_graph.h"
#include "views/migration/migration_matching_row.h"
#include "views/migration/migration_pair_text.h"

#include "io/number_format.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace gradstep::views {

namespace {

QString idleText()
{
    return QObject::tr("Compare a PyTorch script with its MindSpore port: File > Compare with PyTorch Script... "
                       "runs both from the same weights and batch and shows where they part.");
}

/// The colours' key, in the nodes' own colours.
QString legendHtml(bool dark)
{
    QString html;
    for (migrate::PairStatus s : {migrate::PairStatus::Equal, migrate::PairStatus::WithinTolerance,
                                  migrate::PairStatus::Diverges, migrate::PairStatus::Unmatched}) {
        const NodeStyle style = pairStyle(s, dark);
        html += QStringLiteral("<span style=\"background:%1; border:1px solid %2\">&nbsp;&nbsp;&nbsp;</span>&nbsp;%3"
                               "&nbsp;&nbsp;")
                    .arg(style.fill.name(), style.stroke.name(), QLatin1String(migrate::pairStatusName(s)));
    }
    return html;
}

QString verdictText(const migrate::MigrationOutcome& o)
{
    const migrate::MigrationResult& r = o.result;
    QString text;
    if (r.firstDivergence) {
        const migrate::Divergence& d = *r.firstDivergence;
        text = QObject::tr("diverges: first at %1 ↔ %2 (%3, step %4)")
                   .arg(QString::fromStdString(d.torch.empty() ? "(model)" : d.torch),
                        QString::fromStdString(d.mindspore.empty() ? "(network)" : d.mindspore),
                        QLatin1String(migrate::divergenceKindName(d.kind)))
                   .arg(d.step);
    } else {
        text = QObject::tr("equal: every pair within tolerance %1 over %2 step(s)")
                   .arg(QString::fromStdString(formatNumber(r.tolerance)))
                   .arg(r.steps);
    }
    // What has no counterpart, by name (a few; the rest counted).
    const auto names = [](const std::vector<std::string>& list) {
        QStringList shown;
        for (std::size_t i = 0; i < list.size() && i < 3; ++i)
            shown << QString::fromStdString(list[i]);
        if (list.size() > 3)
            shown << QObject::tr("%1 more").arg(list.size() - 3);
        return shown.join(QStringLiteral(", "));
    };
    if (!r.unmatchedTorch.empty())
        text += QObject::tr(" · unmatched in PyTorch: %1").arg(names(r.unmatchedTorch));
    if (!r.unmatchedMindspore.empty())
        text += QObject::tr(" · unmatched in MindSpore: %1").arg(names(r.unmatchedMindspore));
    for (const std::string& note : r.notes)
        text += QStringLiteral(" · ") + QString::fromStdString(note);
    text += QObject::tr(" · PyTorch side %1 s, MindSpore side %2 s")
                .arg(o.torchSeconds, 0, 'f', 1)
                .arg(o.msSeconds, 0, 'f', 1);
    return text;
}

} // namespace

MigrationView::MigrationView(QWidget* parent) : QWidget(parent)
{
    // Labels wrap: unwrapped, their text would set the view's (and the dock's) minimum width.
    m_scripts = new QLabel;
    m_scripts->setWordWrap(true);
    m_scripts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_run = new QPushButton(tr("Run Again"));
    m_choose = new QPushButton(tr("Choose Scripts..."));
    m_stop = new QPushButton(tr("Stop"));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(140);
    m_progress->setVisible(false);
    m_status = new QLabel(idleText());
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_previous = new QPushButton(tr("◀ Previous"));
    m_next = new QPushButton(tr("Next ▶"));
    m_stepBox = new QSpinBox;
    m_stepBox->setPrefix(tr("Step "));
    m_stepBox->setRange(1, 1);
    m_stepBox->setToolTip(tr("The training step whose pairs are shown and coloured"));
    m_pair = new QLabel;
    m_pair->setWordWrap(true);
    m_pair->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation = new QTextBrowser;
    m_explanation->setOpenLinks(false);
    m_matching = new MigrationMatchingRow;
    m_graph = new GraphView;
    // Two columns of a few dozen modules: the overlays would only cover the MindSpore side.
    m_graph->overview()->setWanted(false);
    m_graph->searchBar()->setVisible(false);
    m_inspector = new TensorInspector;
    auto* legend = new QLabel(legendHtml(palette().color(QPalette::Base).lightness() < 128));
    legend->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(m_run);
    top->addWidget(m_choose);
    top->addWidget(m_stop);
    top->addWidget(m_progress);
    top->addWidget(m_scripts, 1);
    top->addWidget(legend);
    auto* stepping = new QHBoxLayout;
    stepping->addWidget(m_stepBox);
    stepping->addWidget(m_previous);
    stepping->addWidget(m_next);
    stepping->addWidget(m_pair, 1);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_explanation);
    right->addWidget(m_inspector);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 3);
    right->setSizes({1000, 3000}); // proportions: the splitter scales them to its height
    auto* panes = new QSplitter(Qt::Horizontal);
    panes->addWidget(m_graph);
    panes->addWidget(right);
    panes->setStretchFactor(0, 3);
    panes->setStretchFactor(1, 2);
    panes->setSizes({3000, 2000}); // the graphs get the larger part from the start
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addLayout(stepping);
    layout->addWidget(m_matching);
    layout->addWidget(panes, 1);

    connect(m_run, &QPushButton::clicked, this, &MigrationView::runRequested);
    connect(m_choose, &QPushButton::clicked, this, &MigrationView::chooseRequested);
    connect(m_stop, &QPushButton::clicked, this, &MigrationView::cancelRequested);
    connect(m_previous, &QPushButton::clicked, this, &MigrationView::previous);
    connect(m_next, &QPushButton::clicked, this, &MigrationView::next);
    connect(m_stepBox, &QSpinBox::valueChanged, this, [this](int step) { showStep(step); });
    connect(m_matching, &MigrationMatchingRow::matchRequested, this, &MigrationView::correctMatching);
    connect(m_matching, &MigrationMatchingRow::clearRequested, this, [this] {
        setUserMap({});
        emit runRequested();
    });
    connect(m_graph, &GraphView::nodeActivated, this, &MigrationView::nodeClicked);
    // A layout arrives after the pairs were set: the selection is drawn on it then.
    connect(m_graph, &GraphView::layoutReady, this, &MigrationView::centreOnSelection);
    updateButtons();
}

void MigrationView::setScripts(const QString& torchScript, const QString& msScript)
{
    m_torchScript = torchScript;
    m_msScript = msScript;
    m_scripts->setText(tr("PyTorch: %1   vs   MindSpore: %2")
                           .arg(QFileInfo(torchScript).fileName(), QFileInfo(msScript).fileName()));
    m_scripts->setToolTip(torchScript + QLatin1Char('\n') + msScript);
    updateButtons();
}

void MigrationView::setRunning(bool running)
{
    m_running = running;
    m_progress->setVisible(running);
    if (running) {
        m_status->setStyleSheet(QString());
        m_status->setText(tr("comparing: starting…"));
    }
    updateButtons();
}

void MigrationView::setStage(const QString& stage)
{
    if (m_running)
        m_status->setText(tr("comparing: %1…").arg(stage));
}

bool MigrationView::isRunning() const
{
    return m_running;
}

void MigrationView::clear()
{
    m_outcome.reset();
    m_pairs.clear();
    m_first.reset();
    m_tensors.clear();
    m_current = -1;
    m_step = 1;
    {
        const QSignalBlocker blocker(m_stepBox);
        m_stepBox->setRange(1, 1);
    }
    m_graph->clear();
    m_inspector->clear();
    m_explanation->clear();
    m_pair->clear();
    m_status->setStyleSheet(QString());
    m_status->setText(idleText());
    updateButtons();
}

void MigrationView::setOutcome(std::shared_ptr<const migrate::MigrationOutcome> outcome)
{
    clear();
    m_outcome = std::move(outcome);
    if (!m_outcome)
        return;
    const migrate::MigrationOutcome& o = *m_outcome;
    if (o.status != migrate::MigrationStatus::Compared || !o.torchCapture || !o.msCapture) {
        // Why it could not compare, as the command line says it (the port's own error first).
        QString text = QString::fromStdString(o.message);
        if (o.msError)
            text = QString::fromStdString(o.msError->format()).trimmed() + QLatin1Char('\n') + text;
        m_status->setStyleSheet(o.status == migrate::MigrationStatus::Cancelled ? QString()
                                                                               : QStringLiteral("color: #d32f2f;"));
        m_status->setText(text);
        m_explanation->setPlainText(text);
        updateButtons();
        return;
    }
    const migrate::MigrationResult& r = o.result;
    m_status->setStyleSheet(r.diverges ? QStringLiteral("color: #d32f2f; font-weight: bold;")
                                       : QStringLiteral("color: #2e9d48; font-weight: bold;"));
    m_status->setText(verdictText(o));
    m_matching->setNames(torchNames(), msNames());
    {
        const QSignalBlocker blocker(m_stepBox);
        m_stepBox->setRange(1, int(stepCount()));
    }
    showStep(r.firstDivergence ? r.firstDivergence->step : 1);
}

std::int64_t MigrationView::stepCount() const
{
    if (!m_outcome)
        return 1;
    const migrate::MigrationResult& r = m_outcome->result;
    return std::max<std::int64_t>({1, r.steps, r.firstDivergence ? r.firstDivergence->step : 1});
}

void MigrationView::showStep(std::int64_t step)
{
    if (!m_outcome || !m_outcome->torchCapture || !m_outcome->msCapture)
        return;
    const migrate::MigrationOutcome& o = *m_outcome;
    const migrate::MigrationResult& r = o.result;
    m_step = std::clamp<std::int64_t>(step, 1, stepCount());
    {
        const QSignalBlocker blocker(m_stepBox);
        m_stepBox->setValue(int(m_step));
    }
    // Each step's tensors on its own pairs: a divergence in step 2 is shown with step 2's values.
    m_pairs = migrate::comparedPairs(*o.torchCapture, *o.msCapture, r, m_step);
    m_first.reset();
    if (r.firstDivergence && r.firstDivergence->step == m_step)
        m_first = migrate::firstDivergencePair(m_pairs, r);
    const auto graph = buildMigrationGraph(*o.torchCapture, *o.msCapture, m_pairs);
    m_graph->setNodeStyles(migrationNodeStyles(*graph, m_pairs, palette().color(QPalette::Base).lightness() < 128));
    m_graph->setGraph(graph, true);
    if (m_first) {
        selectPair(int(*m_first));
        return;
    }
    selectPair(m_pairs.empty() ? -1 : 0);
    // no pair stands for it (the port raised outside every recorded Cell)
    if (r.firstDivergence && r.firstDivergence->step == m_step)
        m_explanation->setPlainText(QStringLiteral("First divergence (%1): %2\n\n%3")
                                        .arg(QLatin1String(migrate::divergenceKindName(r.firstDivergence->kind)),
                                             QString::fromStdString(r.firstDivergence->explanation),
                                             m_explanation->toPlainText()));
}

void MigrationView::selectPair(int index)
{
    if (index < 0 || std::size_t(index) >= m_pairs.size()) {
        m_current = -1;
        updateButtons();
        return;
    }
    m_current = index;
    showPair();
    updateButtons();
}

void MigrationView::next()
{
    if (m_current + 1 < int(m_pairs.size()))
        selectPair(m_current + 1);
}

void MigrationView::previous()
{
    if (m_current > 0)
        selectPair(m_current - 1);
}

void MigrationView::showPair()
{
    const migrate::ComparedPair& p = m_pairs[std::size_t(m_current)];
    const migrate::Capture& t = *m_outcome->torchCapture;
    const migrate::Capture& m = *m_outcome->msCapture;
    const bool first = m_first && *m_first == std::size_t(m_current);
    m_pair->setText(pairHeading(p, std::size_t(m_current), m_pairs.size(), m_step, t, m));
    m_pair->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;")
                              .arg(pairStyle(p.status, false).stroke.name()));
    m_explanation->setPlainText(pairExplanation(p, m_outcome->result, first, t, m));
    if (p.kind != migrate::DivergenceKind::Loss) // the pair's names, ready to be corrected
        m_matching->setCurrent(QString::fromStdString(p.torch), QString::fromStdString(p.mindspore));
    m_tensors = pairTensors(p, t, m);
    const QString heading = tr("step %1 · ").arg(m_step) + pairKindText(p.kind) + QStringLiteral(": ")
                            + QString::fromStdString(p.torch)
                            + QStringLiteral(" ↔ ") + QString::fromStdString(p.mindspore);
    m_inspector->setTensors(heading, m_tensors);
    // The difference is what this view is about: shown first when there is one.
    if (m_tensors.size() == 3)
        m_inspector->setCurrentIndex(2);
    centreOnSelection();
}

QStringList MigrationView::selectedNodeKeys() const
{
    QStringList keys;
    for (int index : m_graph->selectedNodes())
        keys << m_graph->picture().nodes[std::size_t(index)].key;
    // PyTorch's node first, whatever the layout's order.
    std::stable_sort(keys.begin(), keys.end(), [](const QString& a, const QString& b) {
        return a.startsWith(QLatin1String("T:")) && !b.startsWith(QLatin1String("T:"));
    });
    return keys;
}

void MigrationView::centreOnSelection()
{
    if (m_current < 0 || m_graph->picture().nodes.empty())
        return;
    const migrate::ComparedPair& p = m_pairs[std::size_t(m_current)];
    std::vector<int> nodes;
    for (MigrationSide side : {MigrationSide::Torch, MigrationSide::MindSpore})
        if (const int index = m_graph->picture().findNode(pairNodeKey(side, p)); index >= 0)
            nodes.push_back(index);
    m_graph->selectNodes(nodes);
    // Both sides scroll to the pair: the view centres between its two nodes.
    if (nodes.size() == 2) {
        const QRectF a = m_graph->picture().nodes[std::size_t(nodes[0])].box;
        const QRectF b = m_graph->picture().nodes[std::size_t(nodes[1])].box;
        m_graph->centerOn((a.center() + b.center()) / 2);
    }
}

void MigrationView::nodeClicked(int index)
{
    const QString key = m_graph->picture().nodes[std::size_t(index)].key;
    // The node's own pair: its output (or the loss) first, else a parameter of its module.
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < m_pairs.size(); ++i) {
        const bool mine = pairNodeKey(MigrationSide::Torch, m_pairs[i]) == key
                          || pairNodeKey(MigrationSide::MindSpore, m_pairs[i]) == key;
        if (mine && (!found || m_pairs[i].kind == migrate::DivergenceKind::Forward
                     || m_pairs[i].kind == migrate::DivergenceKind::Loss)) {
            found = i;
            if (m_pairs[i].kind == migrate::DivergenceKind::Forward || m_pairs[i].kind == migrate::DivergenceKind::Loss)
                break;
        }
    }
    if (found)
        selectPair(int(*found));
}

void MigrationView::updateButtons()
{
    m_run->setEnabled(!m_running && !m_torchScript.isEmpty() && !m_msScript.isEmpty());
    m_choose->setEnabled(!m_running);
    m_stop->setEnabled(m_running);
    m_stepBox->setEnabled(!m_running && m_outcome && stepCount() > 1);
    m_matching->setRunnable(!m_running && !m_torchScript.isEmpty() && !m_msScript.isEmpty(), !m_userMap.empty());
    m_previous->setEnabled(!m_running && m_current > 0);
    m_next->setEnabled(!m_running && m_current >= 0 && m_current + 1 < int(m_pairs.size()));
}

void MigrationView::setUserMap(std::map<std::string, std::string> map)
{
    m_userMap = std::move(map);
    m_matching->setCorrections(m_userMap);
    updateButtons();
}

void MigrationView::correctMatching(const QString& torch, const QString& mindspore)
{
    const std::string t = torch.trimmed().toStdString(), m = mindspore.trimmed().toStdString();
    if (t.empty() || m.empty() || m_running)
        return;
    m_userMap[t] = m;
    m_matching->setCorrections(m_userMap);
    updateButtons();
    emit runRequested();
}

namespace {

/// A capture's module paths (the model itself left out) then its parameter names.
QStringList namesOf(const migrate::Capture& c)
{
    QStringList names;
    for (const char* key : {"modules", "params"})
        if (const Json* list = c.doc().find(key); list && list->isArray())
            for (const Json& entry : list->asArray())
                if (const std::string& name = entry[key[0] == 'm' ? "path" : "name"].asString(); !name.empty())
                    names << QString::fromStdString(name);
    return names;
}

} // namespace

QStringList MigrationView::torchNames() const
{
    return m_outcome && m_outcome->torchCapture ? namesOf(*m_outcome->torchCapture) : QStringList();
}

QStringList MigrationView::msNames() const
{
    return m_outcome && m_outcome->msCapture ? namesOf(*m_outcome->msCapture) : QStringList();
}

QString MigrationView::statusText() const
{
    return m_status->text();
}

QString MigrationView::pairText() const
{
    return m_pair->text();
}

QString MigrationView::explanationText() const
{
    return m_explanation->toPlainText();
}

} // namespace gradstep::views
