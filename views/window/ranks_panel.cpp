// SPDX-License-Identifier: MIT
#include "views/window/ranks_panel.h"

#include "debug/tensor_stats.h"
#include "views/sparkline_delegate.h"
#include "views/tensor_inspector.h"
#include "views/window/ranks_runner.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gradstep::views {

namespace {

QString number(double v, char format = 'g', int precision = 6)
{
    return QString::number(v, format, precision);
}

QTableWidgetItem* item(const QString& text, bool right = false)
{
    auto* cell = new QTableWidgetItem(text);
    cell->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (right)
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return cell;
}

DType dtypeNamed(const std::string& name)
{
    for (unsigned d = 0; d < kDTypeCount; ++d)
        if (dtypeName(DType(d)) == name)
            return DType(d);
    return DType::Float64;
}

} // namespace

RanksPanel::RanksPanel(QWidget* parent) : QWidget(parent), m_runner(new RanksRunner(this))
{
    m_agreement = new QLabel(tr("No ranks run. What if > Ranks... starts the open script on N ranks, each under its "
                                "own debugger, and steps them together."));
    m_agreement->setWordWrap(true);
    m_agreement->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_step = new QPushButton(tr("Step"));
    m_step->setToolTip(tr("Every rank runs its next node"));
    m_continue = new QPushButton(tr("Continue"));
    m_continue->setToolTip(tr("Every rank runs to its next breakpoint or the end"));
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setToolTip(tr("Pause every rank at the same node (a Continue under way)"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setToolTip(tr("End every rank"));
    m_windowRank = new QLabel;
    m_windowRank->setWordWrap(true);
    m_windowRank->hide();
    m_rank = new QComboBox;
    m_rank->setToolTip(tr("The rank whose tensor values are shown"));
    m_tensorChoice = new QComboBox;
    m_tensorChoice->setToolTip(tr("A tensor of the paused node"));
    auto* buttons = new QHBoxLayout;
    for (QWidget* w : {static_cast<QWidget*>(m_step), static_cast<QWidget*>(m_continue), static_cast<QWidget*>(m_pause),
                       static_cast<QWidget*>(m_stop)})
        buttons->addWidget(w);
    buttons->addStretch();
    buttons->addWidget(new QLabel(tr("Rank")));
    buttons->addWidget(m_rank);
    buttons->addWidget(new QLabel(tr("Tensor")));
    buttons->addWidget(m_tensorChoice);

    m_rankTable = new QTableWidget(0, 5);
    m_rankTable->setHorizontalHeaderLabels({tr("Rank"), tr("Status"), tr("Step"), tr("Node"), tr("Location")});
    m_rankTable->verticalHeader()->hide();
    m_rankTable->horizontalHeader()->setStretchLastSection(true);
    m_gradients = new QTableWidget(0, 0);
    m_gradients->verticalHeader()->hide();
    m_sparkline = new SparklineDelegate(m_gradients);
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    auto* gradientsTitle = new QLabel(tr("<b>Gradients before the all-reduce</b> (each rank's own, their mean and "
                                         "spread; the all-reduced gradient; its distance to the ranks' mean)"));
    gradientsTitle->setWordWrap(true);
    m_inspector = new TensorInspector;

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_rankTable, 2);
    leftLayout->addWidget(gradientsTitle);
    leftLayout->addWidget(m_gradients, 3);
    leftLayout->addWidget(m_verdict);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(m_inspector);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_agreement);
    layout->addWidget(m_windowRank);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_step, &QPushButton::clicked, this, &RanksPanel::stepAll);
    connect(m_continue, &QPushButton::clicked, this, &RanksPanel::continueAll);
    connect(m_stop, &QPushButton::clicked, this, &RanksPanel::stopAll);
    connect(m_pause, &QPushButton::clicked, this, &RanksPanel::pauseAll);
    connect(m_runner, &RanksRunner::launched, this, &RanksPanel::launched);
    connect(m_rank, &QComboBox::activated, this, [this](int index) { setRank(index); });
    connect(m_tensorChoice, &QComboBox::activated, this, [this](int index) { showTensor(m_tensorChoice->itemText(index)); });
    connect(m_runner, &RanksRunner::paused, this, &RanksPanel::showPauses);
    connect(m_runner, &RanksRunner::gradientsArrived, this, &RanksPanel::showGradients);
    connect(m_runner, &RanksRunner::tensorArrived, this, &RanksPanel::showRankTensor);
    connect(m_runner, &RanksRunner::ended, this, &RanksPanel::showEnd);
    connect(m_runner, &RanksRunner::busyChanged, this, [this](bool busy) {
        updateButtons();
        emit busyChanged(busy);
        if (!busy) // the ranks are ready for the next command
            emit updated();
    });
    updateButtons();
}

RanksPanel::~RanksPanel()
{
    shutdown();
}

void RanksPanel::start(session::RankControllerOptions options)
{
    const int n = options.ranks;
    m_pauses.clear();
    m_spread.clear();
    m_tensor = {};
    m_rankTable->setRowCount(0);
    m_gradients->setRowCount(0);
    m_verdict->clear();
    m_inspector->clear();
    m_rank->clear();
    for (int r = 0; r < n; ++r)
        m_rank->addItem(tr("rank %1").arg(r));
    m_agreement->setText(tr("Starting %1 ranks...").arg(n));
    m_status->clear();
    m_runner->start(std::move(options));
    updateButtons();
}

void RanksPanel::joinRankZero()
{
    m_agreement->setText(tr("Rank 0 runs in this window; waiting for every rank to pause..."));
    m_runner->joinRankZero();
}

void RanksPanel::stepOverAll()
{
    if (m_pauses.empty()) // not every rank is there yet
        return;
    m_agreement->setText(tr("Every rank steps over its line..."));
    m_runner->stepOver();
}

void RanksPanel::stepOutAll()
{
    if (m_pauses.empty()) // not every rank is there yet
        return;
    m_agreement->setText(tr("Every rank steps out..."));
    m_runner->stepOut();
}

void RanksPanel::pauseAll()
{
    if (!m_runner->busy())
        return;
    m_agreement->setText(tr("Pausing every rank at the same node..."));
    m_runner->requestPause();
}

void RanksPanel::setWindowRank(std::optional<int> rank)
{
    m_windowRank->setVisible(rank.has_value());
    if (rank)
        m_windowRank->setText(tr("<b>The window shows rank %1</b> (its own session): the graph, source, inspector, "
                                 "variables, gradients and charts are rank %1's. The table and the tensor below show "
                                 "any rank; click a node or a parameter in the graph to see it on the rank chosen "
                                 "here. F5, F10, F11 and Pause act on every rank.")
                                  .arg(*rank));
}

void RanksPanel::showGradientOf(const QString& parameter)
{
    for (int row = 0; row < m_gradients->rowCount(); ++row)
        if (m_gradients->item(row, 0) && m_gradients->item(row, 0)->text() == parameter) {
            m_gradients->selectRow(row);
            m_gradients->scrollToItem(m_gradients->item(row, 0));
        }
    showTensor(QStringLiteral("grad:") + parameter);
}

void RanksPanel::stepAll()
{
    if (m_pauses.empty()) // not every rank is there yet
        return;
    m_agreement->setText(tr("Every rank runs its next node..."));
    m_runner->step();
}

void RanksPanel::continueAll()
{
    if (m_pauses.empty()) // not every rank is there yet
        return;
    m_agreement->setText(tr("The ranks run to their next breakpoint or the end..."));
    m_runner->continueRun();
}

void RanksPanel::stopAll()
{
    m_runner->stop();
}

void RanksPanel::shutdown()
{
    m_runner->shutdown();
}

bool RanksPanel::running() const
{
    return m_runner->running();
}

bool RanksPanel::busy() const
{
    return m_runner->busy();
}

pid_t RanksPanel::launcherPid() const
{
    return m_runner->launcherPid();
}

void RanksPanel::updateButtons()
{
    const bool idle = m_runner->running() && !m_runner->busy();
    m_step->setEnabled(idle);
    m_continue->setEnabled(idle);
    m_pause->setEnabled(m_runner->running() && m_runner->busy());
    m_stop->setEnabled(m_runner->running());
}

void RanksPanel::setRank(int rank)
{
    if (rank < 0 || rank >= int(m_pauses.size()))
        return;
    m_rank->setCurrentIndex(rank);
    fillTensorChoices();
    showTensor(m_tensorName);
}

void RanksPanel::showTensor(const QString& name)
{
    m_tensorName = name;
    if (m_runner->running() && m_rank->currentIndex() >= 0)
        m_runner->requestTensor(m_rank->currentIndex(), name.toStdString());
}

void RanksPanel::fillTensorChoices()
{
    m_tensorChoice->clear();
    const int rank = m_rank->currentIndex();
    if (rank < 0 || rank >= int(m_pauses.size()))
        return;
    const session::RankPause& p = m_pauses[std::size_t(rank)];
    for (const std::string& t : p.tensors)
        m_tensorChoice->addItem(QString::fromStdString(t));
    for (const session::GradientSpread& g : m_spread)
        m_tensorChoice->addItem(QStringLiteral("grad:") + QString::fromStdString(g.name));
    const int at = m_tensorChoice->findText(m_tensorName);
    if (at >= 0)
        m_tensorChoice->setCurrentIndex(at);
    else if (m_tensorChoice->count() > 0)
        m_tensorName = m_tensorChoice->itemText(0);
}

void RanksPanel::showPauses(const std::vector<session::RankPause>& pauses)
{
    m_pauses = pauses;
    const bool same = session::ranksAtSameNode(pauses);
    m_agreement->setText(QString::fromStdString(session::ranksAgreementText(pauses)));
    m_agreement->setStyleSheet(same ? QString() : QStringLiteral("color: #c05800; font-weight: bold"));
    m_rankTable->setRowCount(int(pauses.size()));
    for (const session::RankPause& p : pauses) {
        const int row = p.rank;
        m_rankTable->setItem(row, RankColumn, item(QString::number(p.rank), true));
        m_rankTable->setItem(row, StatusColumn, item(QString::fromStdString(p.atNode() ? p.reason : p.status)));
        m_rankTable->setItem(row, StepColumn, item(QString::number(p.step), true));
        m_rankTable->setItem(row, NodeColumn,
                             item(p.atNode() ? QStringLiteral("#%1 %2 (%3)")
                                                   .arg(p.seq)
                                                   .arg(QString::fromStdString(p.node), QString::fromStdString(p.phase))
                                             : QString()));
        m_rankTable->setItem(row, LocationColumn, item(QString::fromStdString(p.location)));
    }
    m_rankTable->resizeColumnsToContents();
    if (m_rank->currentIndex() < 0 && m_rank->count() > 0)
        m_rank->setCurrentIndex(0);
    fillTensorChoices();
    m_runner->requestGradients();
    showTensor(m_tensorName);
    emit updated();
}

void RanksPanel::showGradients(const std::vector<std::vector<session::RankGradient>>& gradients)
{
    m_spread = session::gradientSpread(gradients);
    const int ranks = m_spread.empty() ? 0 : int(m_spread.front().localNorms.size());
    QStringList headers{tr("Parameter")};
    for (int r = 0; r < ranks; ++r)
        headers << tr("|g| rank %1").arg(r);
    headers << tr("Across ranks") << tr("Mean") << tr("Spread (max-min)") << tr("|All-reduced|") << tr("vs mean");
    m_gradients->clear();
    for (int c = 0; c < m_gradients->columnCount(); ++c)
        m_gradients->setItemDelegateForColumn(c, nullptr);
    m_gradients->setColumnCount(int(headers.size()));
    m_gradients->setHorizontalHeaderLabels(headers);
    m_gradients->setRowCount(int(m_spread.size()));
    for (int row = 0; row < int(m_spread.size()); ++row) {
        const session::GradientSpread& s = m_spread[std::size_t(row)];
        int column = 0;
        m_gradients->setItem(row, column++, item(QString::fromStdString(s.name)));
        QList<double> norms;
        for (double n : s.localNorms) {
            m_gradients->setItem(row, column++, item(number(n), true));
            norms << n;
        }
        m_gradients->setItemDelegateForColumn(column, m_sparkline);
        auto* line = item(QString());
        line->setData(kSparklineRole, QVariant::fromValue(norms));
        line->setToolTip(tr("each rank's gradient norm, rank 0 on the left"));
        m_gradients->setItem(row, column++, line);
        m_gradients->setItem(row, column++, item(number(s.meanNorm), true));
        m_gradients->setItem(row, column++, item(number(s.spread), true));
        m_gradients->setItem(row, column++, item(s.reducedNorm ? number(*s.reducedNorm) : QStringLiteral("-"), true));
        auto* distance = item(s.relativeToMean ? number(*s.relativeToMean, 'g', 3) : QStringLiteral("-"), true);
        if (s.relativeToMean && *s.relativeToMean > 1e-6)
            distance->setForeground(QColor(200, 60, 40));
        m_gradients->setItem(row, column++, distance);
    }
    m_gradients->resizeColumnsToContents();
    m_verdict->setText(QString::fromStdString(session::reductionVerdict(m_spread)));
    fillTensorChoices();
    emit updated();
}

void RanksPanel::showRankTensor(const session::RankTensor& tensor)
{
    m_tensor = tensor;
    const QString heading = tr("rank %1: %2").arg(tensor.rank).arg(QString::fromStdString(tensor.label.empty() ? tensor.name : tensor.label));
    if (!tensor.error.empty()) {
        m_inspector->setTensors(tr("rank %1: %2").arg(tensor.rank).arg(QString::fromStdString(tensor.error)), {});
        emit updated();
        return;
    }
    Shape shape;
    for (std::int64_t d : tensor.shape)
        shape.push_back(d);
    const Tensor values = Tensor::fromDoubles(shape, tensor.values, dtypeNamed(tensor.dtype));
    std::vector<InspectedTensor> shown;
    shown.push_back({QString::fromStdString(tensor.name) + tr(" on rank %1").arg(tensor.rank), debug::computeStats(values), values});
    m_inspector->setTensors(heading, std::move(shown));
    emit updated();
}

void RanksPanel::showEnd(const QString& reason)
{
    m_status->setText(reason == QLatin1String("stopped") ? tr("The ranks were stopped.")
                                                          : tr("The ranks ended: %1").arg(reason));
    m_status->setStyleSheet(reason == QLatin1String("stopped") ? QString() : QStringLiteral("color: #c03020"));
    updateButtons();
    emit ended();
    emit updated();
}

QString RanksPanel::agreementText() const
{
    return m_agreement->text();
}

QString RanksPanel::statusText() const
{
    return m_status->text();
}

QString RanksPanel::rankCell(int rank, Column column) const
{
    const QTableWidgetItem* cell = m_rankTable->item(rank, column);
    return cell ? cell->text() : QString();
}

int RanksPanel::gradientRows() const
{
    return m_gradients->rowCount();
}

QString RanksPanel::gradientCell(int row, int column) const
{
    const QTableWidgetItem* cell = m_gradients->item(row, column);
    return cell ? cell->text() : QString();
}

QString RanksPanel::verdictText() const
{
    return m_verdict->text();
}

} // namespace gradstep::views
