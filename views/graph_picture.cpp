// SPDX-License-Identifier: MIT
#include "views/graph_picture.h"

#include <QHash>
#include <QStringList>
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace gradstep::views {

namespace {

constexpr double kNodeWidth = 168.0;
constexpr double kNodeHeight = 38.0;
constexpr double kRowPitch = 58.0;
constexpr double kColumnPitch = 260.0;
constexpr double kMargin = 24.0;

char phaseLetter(Phase phase)
{
    return phase == Phase::Forward ? 'F' : phase == Phase::Backward ? 'B' : 'U';
}

int column(Phase phase)
{
    return phase == Phase::Forward ? 0 : phase == Phase::Backward ? 1 : 2;
}

QString outputShape(const debug::NodeRecord& r)
{
    if (r.outputs.empty())
        return QString();
    QString text = QString::fromStdString(r.outputs.front().stats.shape.toString());
    if (r.outputs.size() > 1)
        text += QStringLiteral(" +%1").arg(r.outputs.size() - 1);
    return text;
}

/// Rows taken per column; a backward node goes to its forward twin's row when that is free.
int takeRow(std::set<int>& used, int wanted)
{
    while (used.count(wanted))
        ++wanted;
    used.insert(wanted);
    return wanted;
}

PictureEdge curve(int from, int to, const QRectF& a, const QRectF& b, bool crossLink)
{
    PictureEdge e{from, to, crossLink, {}, {}};
    const bool downward = b.top() >= a.bottom() - 1;
    QPointF p0, p1;
    if (crossLink || std::abs(a.center().x() - b.center().x()) > kNodeWidth) {
        const bool right = b.center().x() > a.center().x();
        p0 = QPointF(right ? a.right() : a.left(), a.center().y());
        p1 = QPointF(right ? b.left() - 6 : b.right() + 6, b.center().y());
        e.arrowTip = QPointF(right ? b.left() : b.right(), b.center().y());
        const double dx = (p1.x() - p0.x()) / 2;
        e.points = {p0, QPointF(p0.x() + dx, p0.y()), QPointF(p1.x() - dx, p1.y()), p1};
        return e;
    }
    p0 = downward ? QPointF(a.center().x(), a.bottom()) : QPointF(a.center().x(), a.top());
    e.arrowTip = downward ? QPointF(b.center().x(), b.top()) : QPointF(b.center().x(), b.bottom());
    p1 = e.arrowTip + QPointF(0, downward ? -6 : 6);
    const double dy = (p1.y() - p0.y()) / 2;
    // Edges that skip rows bow out to the side so they do not run through the nodes between.
    const double skip = std::abs(p1.y() - p0.y()) > kRowPitch ? kNodeWidth * 0.6 : 0.0;
    e.points = {p0, QPointF(p0.x() + skip, p0.y() + dy), QPointF(p1.x() + skip, p1.y() - dy), p1};
    return e;
}

void addClusters(GraphPicture& picture, std::span<const debug::RecordPtr> records)
{
    std::map<std::pair<int, std::string>, QRectF> boxes; // (phase column, scope prefix)
    for (std::size_t i = 0; i < records.size(); ++i) {
        const debug::NodeRecord& r = *records[i];
        if (r.phase == Phase::Update || r.scope.empty())
            continue;
        std::string prefix;
        for (const QString& part : QString::fromStdString(r.scope).split(QLatin1Char('/'))) {
            prefix += (prefix.empty() ? "" : "/") + part.toStdString();
            QRectF& box = boxes[{column(r.phase), prefix}];
            box = box.isNull() ? picture.nodes[i].box : box.united(picture.nodes[i].box);
        }
    }
    for (const auto& [where, box] : boxes) {
        const QString path = QString::fromStdString(where.second);
        const int depth = int(path.count(QLatin1Char('/')));
        if (path == QStringLiteral("Gradients"))
            continue;
        const double pad = std::max(4.0, 22.0 - 7.0 * depth);
        PictureCluster c{path.section(QLatin1Char('/'), -1), path,
            where.first == 0 ? Phase::Forward : Phase::Backward, depth,
            box.adjusted(-pad, -pad - 14, pad, pad)};
        picture.clusters.push_back(c);
    }
    std::stable_sort(picture.clusters.begin(), picture.clusters.end(),
                     [](const PictureCluster& a, const PictureCluster& b) { return a.depth < b.depth; });
}

} // namespace

int GraphPicture::findNode(const QString& key) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].key == key)
            return int(i);
    return -1;
}

int GraphPicture::nodeOfRecord(std::uint64_t seq) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (std::find(nodes[i].records.begin(), nodes[i].records.end(), seq) != nodes[i].records.end())
            return int(i);
    return -1;
}

QString recordKey(const debug::NodeRecord& record, int occurrence)
{
    return QStringLiteral("%1:%2#%3").arg(QLatin1Char(phaseLetter(record.phase)))
        .arg(QString::fromStdString(record.fullName)).arg(occurrence);
}

GraphPicture pictureFromRecords(std::span<const debug::RecordPtr> records)
{
    GraphPicture picture;
    std::map<std::string, int> occurrences;
    std::unordered_map<std::uint64_t, int> rowOfRecord;
    std::unordered_map<std::uint64_t, int> nodeOfSeq;
    std::set<int> used[3];
    for (const debug::RecordPtr& r : records) {
        const int col = column(r->phase);
        int wanted = used[col].empty() ? 0 : *used[col].rbegin() + 1;
        if (r->forwardRecord && rowOfRecord.count(*r->forwardRecord))
            wanted = rowOfRecord[*r->forwardRecord];
        else if (col == 1)
            wanted = used[0].empty() ? 0 : *used[0].rbegin() + 1;
        const int row = takeRow(used[col], wanted);
        rowOfRecord[r->seq] = row;
        PictureNode node;
        node.key = recordKey(*r, occurrences[std::string(1, phaseLetter(r->phase)) + r->fullName]++);
        node.title = QString::fromStdString(r->op);
        node.detail = outputShape(*r);
        node.tooltip = QString::fromStdString(r->where());
        node.phase = r->phase;
        node.box = QRectF(kMargin + col * kColumnPitch, kMargin + 16 + row * kRowPitch, kNodeWidth, kNodeHeight);
        node.records = {r->seq};
        picture.step = r->step;
        nodeOfSeq[r->seq] = int(picture.nodes.size());
        picture.nodes.push_back(std::move(node));
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
        const debug::NodeRecord& r = *records[i];
        std::set<int> sources;
        for (const debug::TensorRecord& in : r.inputs)
            if (in.id.kind == debug::TensorId::Kind::Output && nodeOfSeq.count(in.id.node))
                sources.insert(nodeOfSeq[in.id.node]);
        for (int from : sources)
            picture.edges.push_back(curve(from, int(i), picture.nodes[std::size_t(from)].box, picture.nodes[i].box, false));
        if (r.forwardRecord && nodeOfSeq.count(*r.forwardRecord)) {
            const int to = nodeOfSeq[*r.forwardRecord];
            picture.edges.push_back(curve(int(i), to, picture.nodes[i].box, picture.nodes[std::size_t(to)].box, true));
        }
    }
    addClusters(picture, records);
    QRectF bounds;
    for (const PictureNode& n : picture.nodes)
        bounds = bounds.united(n.box);
    for (const PictureCluster& c : picture.clusters)
        bounds = bounds.united(c.box);
    picture.bounds = bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    return picture;
}

void applyStates(GraphPicture& picture, std::span<const debug::RecordPtr> executed, const debug::NodeRecord* current)
{
    QHash<QString, std::uint64_t> seen;
    std::map<std::string, int> occurrences;
    for (const debug::RecordPtr& r : executed)
        seen[recordKey(*r, occurrences[std::string(1, phaseLetter(r->phase)) + r->fullName]++)] = r->seq;
    for (PictureNode& node : picture.nodes) {
        const auto it = seen.find(node.key);
        if (it == seen.end()) {
            node.state = NodeState::Pending;
            continue;
        }
        node.records = {it.value()};
        node.state = current && current->seq == it.value() ? NodeState::Current : NodeState::Executed;
    }
}

} // namespace gradstep::views
