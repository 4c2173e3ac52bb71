// SPDX-License-Identifier: MIT
#include "views/window/breakpoints_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <stdexcept>

namespace gradstep::views {

BreakpointsPanel::BreakpointsPanel(Hooks hooks, QWidget* parent) : QWidget(parent), m_hooks(std::move(hooks))
{
    m_kind = new QComboBox;
    m_kind->addItem(tr("Breakpoint"));
    m_kind->addItem(tr("Watchpoint"));
    m_input = new QLineEdit;
    m_input->setClearButtonEnabled(true);
    m_template = new QComboBox;
    m_template->setToolTip(tr("Fill the input with an example of this kind"));
    fillTemplates();
    auto* addButton = new QPushButton(tr("Add"));
    auto* removeButton = new QPushButton(tr("Remove"));
    m_error = new QLabel;
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #e03c3c;"));
    m_error->setVisible(false);
    m_table = new QTableWidget(0, 4);
    m_table->setHorizontalHeaderLabels({tr("On"), tr("Kind"), tr("Condition"), tr("Hits")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(Condition, QHeaderView::Stretch);
    // The narrow columns fit their text, the condition takes the rest (never clipped to nothing).
    for (int column : {int(On), int(KindColumn), int(Hits)})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    // Combo boxes as wide as their longest template would make the dock wider than the window:
    // they shrink with the dock instead, and the buttons sit beside the input on their own row.
    for (QComboBox* box : {m_kind, m_template}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(6);
    }

    auto* choose = new QHBoxLayout;
    choose->addWidget(m_kind);
    choose->addWidget(m_template, 1);
    auto* enter = new QHBoxLayout;
    enter->addWidget(m_input, 1);
    enter->addWidget(addButton);
    enter->addWidget(removeButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(choose);
    layout->addLayout(enter);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);

    const auto submit = [this] {
        if (add(m_input->text(), m_kind->currentIndex() == 0 ? Kind::Breakpoint : Kind::Watchpoint).isEmpty())
            m_input->clear();
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { fillTemplates(); });
    connect(m_template, &QComboBox::activated, this, [this](int index) {
        if (index <= 0)
            return;
        m_input->setText(m_template->itemData(index).toString());
        m_input->setFocus();
        m_template->setCurrentIndex(0);
    });
    connect(m_input, &QLineEdit::returnPressed, this, submit);
    connect(m_input, &QLineEdit::textEdited, this, [this] { showError(QString()); });
    connect(addButton, &QPushButton::clicked, this, submit);
    connect(removeButton, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            remove(m_table->currentRow());
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == On)
            setEnabled(item->row(), item->checkState() == Qt::Checked);
    });
}

void BreakpointsPanel::fillTemplates()
{
    // The kinds core/debug knows (breakpoints.h, watchpoints.h), with example values.
    static const char* const kBreakpoints[][2] = {
        {"source line", "main.py:12"}, {"op type", "op:Conv2D"}, {"name glob", "name:LeNet5/conv*"},
        {"phase change", "phase:backward"}, {"tensor condition", "tensor:max_abs > 1e3"}};
    static const char* const kWatchpoints[][2] = {
        {"NaN or Inf", "nan"}, {"half-precision overflow", "overflow"},
        {"output above", "above:max_abs=1e3"}, {"output below", "below:min=-1e3"},
        {"vanishing gradient", "vanishing=1e-7"}, {"exploding gradient", "exploding=1e3"},
        {"weight unchanged", "unchanged=1e-8"}, {"weight change above", "change_above=0.1"},
        {"weight change below", "change_below=1e-6"}, {"saturation", "saturation=0.9"},
        {"dead ReLU", "dead_relu=0.9"}};
    const QSignalBlocker block(m_template);
    m_template->clear();
    m_template->addItem(tr("Kind..."));
    if (m_kind->currentIndex() == 0)
        for (const auto& [name, example] : kBreakpoints)
            m_template->addItem(tr(name), QString::fromLatin1(example));
    else
        for (const auto& [name, example] : kWatchpoints)
            m_template->addItem(tr(name), QString::fromLatin1(example));
    m_input->setPlaceholderText(m_kind->currentIndex() == 0
        ? tr("main.py:12, op:Conv2D, name:LeNet5/conv*, phase:backward, tensor:max_abs > 1e3")
        : tr("nan, overflow, exploding=1e3, vanishing=1e-7, above:max_abs=100, dead_relu=0.9"));
}

void BreakpointsPanel::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString BreakpointsPanel::errorText() const
{
    return m_error->text();
}

int BreakpointsPanel::lineOf(const debug::Breakpoint& bp) const
{
    if (bp.kind != debug::Breakpoint::Kind::SourceLine)
        return 0;
    const std::string script = m_hooks.scriptFile().toStdString();
    const bool ours = bp.file.empty() || bp.file == script
                      || (script.size() > bp.file.size() && script.ends_with("/" + bp.file))
                      || (bp.file.size() > script.size() && bp.file.ends_with("/" + script));
    return ours ? bp.line : 0;
}

int BreakpointsPanel::addToSession(const Entry& entry)
{
    debug::Session* session = m_hooks.session();
    if (!session)
        return 0;
    int id = 0;
    if (entry.kind == Kind::Breakpoint) {
        id = session->addBreakpoint(entry.text);
        if (!entry.enabled)
            session->setBreakpointEnabled(id, false);
    } else {
        const std::vector<int> ids = session->addWatchpoints(entry.text);
        id = ids.empty() ? 0 : ids.front();
        if (!entry.enabled)
            session->setWatchpointEnabled(id, false);
    }
    return id;
}

QString BreakpointsPanel::add(const QString& text, Kind kind)
{
    const std::string source = text.trimmed().toStdString();
    try {
        if (source.empty())
            throw std::invalid_argument("type a condition first");
        std::vector<Entry> added;
        if (kind == Kind::Breakpoint) {
            const debug::Breakpoint bp = debug::parseBreakpoint(source);
            if (const int line = lineOf(bp)) {
                if (!m_hooks.gutterLines().contains(line))
                    m_hooks.toggleLine(line);
                showError(QString());
                refresh();
                return QString();
            }
            added.push_back({kind, bp.toString(), true, 0});
        } else {
            // Spaces after the commas are fine here ("nan, exploding=1e3").
            for (const QString& item : text.split(QLatin1Char(',')))
                added.push_back({kind, debug::parseWatchpoint(item.trimmed().toStdString()).toString(), true, 0});
        }
        for (Entry& e : added) {
            e.id = addToSession(e);
            e.epoch = m_epoch;
            m_entries.push_back(e);
        }
    } catch (const std::exception& e) {
        showError(QString::fromUtf8(e.what()));
        return m_error->text();
    }
    showError(QString());
    refresh();
    return QString();
}

bool BreakpointsPanel::remove(int row)
{
    if (row < 0 || row >= int(m_rows.size()))
        return false;
    const Row r = m_rows[std::size_t(row)];
    if (r.line > 0) {
        m_disabledLines.remove(r.line);
        if (m_hooks.gutterLines().contains(r.line))
            m_hooks.toggleLine(r.line);
    } else {
        if (debug::Session* session = m_hooks.session())
            r.kind == Kind::Breakpoint ? session->removeBreakpoint(r.id) : session->removeWatchpoint(r.id);
        std::erase_if(m_entries, [&](const Entry& e) { return e.kind == r.kind && e.id == r.id; });
    }
    refresh();
    return true;
}

bool BreakpointsPanel::setEnabled(int row, bool enabled)
{
    if (row < 0 || row >= int(m_rows.size()))
        return false;
    const Row r = m_rows[std::size_t(row)];
    if (debug::Session* session = m_hooks.session())
        r.kind == Kind::Breakpoint ? session->setBreakpointEnabled(r.id, enabled)
                                   : session->setWatchpointEnabled(r.id, enabled);
    if (r.line > 0) {
        if (enabled)
            m_disabledLines.remove(r.line);
        else
            m_disabledLines.insert(r.line);
    }
    for (Entry& e : m_entries)
        if (e.kind == r.kind && e.id == r.id)
            e.enabled = enabled;
    refresh();
    return true;
}

void BreakpointsPanel::restore()
{
    for (Entry& e : m_entries) {
        if (e.epoch == m_epoch) // added since this session opened
            continue;
        try {
            e.id = addToSession(e);
            e.epoch = m_epoch;
        } catch (const std::exception& error) {
            e.id = 0;
            showError(QString::fromUtf8(error.what()));
        }
    }
    if (debug::Session* session = m_hooks.session())
        for (const debug::Breakpoint& bp : session->breakpoints())
            if (const int line = lineOf(bp); line > 0 && m_disabledLines.contains(line))
                session->setBreakpointEnabled(bp.id, false);
    refresh();
}

void BreakpointsPanel::refresh()
{
    m_rows.clear();
    std::vector<QStringList> cells;
    const auto addRow = [&](Row row, const QString& kind, const std::string& text, int hits) {
        m_rows.push_back(row);
        cells.push_back({kind, QString::fromStdString(text), QString::number(hits)});
    };
    if (debug::Session* session = m_hooks.session()) {
        m_disabledLines.clear(); // the session's line breakpoints say which are off
        for (const debug::Breakpoint& bp : session->breakpoints()) {
            const int line = lineOf(bp);
            if (line > 0 && !bp.enabled)
                m_disabledLines.insert(line);
            addRow({Kind::Breakpoint, bp.id, line, bp.enabled}, tr("breakpoint"), bp.toString(), bp.hitCount);
        }
        for (const debug::Watchpoint& wp : session->watchpoints())
            addRow({Kind::Watchpoint, wp.id, 0, wp.enabled}, tr("watchpoint"), wp.toString(), wp.hitCount);
    } else {
        // No session (a comparison runs): what the next one will get.
        for (int line : m_hooks.gutterLines())
            addRow({Kind::Breakpoint, 0, line, !m_disabledLines.contains(line)}, tr("breakpoint"),
                   QStringLiteral("%1:%2").arg(m_hooks.scriptFile()).arg(line).toStdString(), 0);
        for (const Entry& e : m_entries)
            addRow({e.kind, e.id, 0, e.enabled}, e.kind == Kind::Breakpoint ? tr("breakpoint") : tr("watchpoint"),
                   e.text, 0);
    }
    const QSignalBlocker block(m_table);
    m_table->setRowCount(int(m_rows.size()));
    for (int r = 0; r < int(m_rows.size()); ++r) {
        auto* on = new QTableWidgetItem;
        on->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        on->setCheckState(m_rows[std::size_t(r)].enabled ? Qt::Checked : Qt::Unchecked);
        m_table->setItem(r, On, on);
        for (int c = 0; c < 3; ++c) {
            auto* item = new QTableWidgetItem(cells[std::size_t(r)][c]);
            if (c == 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c + 1, item);
        }
    }
    m_table->resizeColumnToContents(On);
    m_table->resizeColumnToContents(KindColumn);
    m_table->resizeColumnToContents(Hits);
}

int BreakpointsPanel::rowCount() const { return int(m_rows.size()); }
BreakpointsPanel::Kind BreakpointsPanel::kindAt(int row) const { return m_rows.at(std::size_t(row)).kind; }
QString BreakpointsPanel::conditionAt(int row) const { return m_table->item(row, Condition)->text(); }
bool BreakpointsPanel::enabledAt(int row) const { return m_rows.at(std::size_t(row)).enabled; }
int BreakpointsPanel::hitsAt(int row) const { return m_table->item(row, Hits)->text().toInt(); }
int BreakpointsPanel::idAt(int row) const { return m_rows.at(std::size_t(row)).id; }

} // namespace gradstep::views
