// SPDX-License-Identifier: MIT
#include "views/migration/migration_graph.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace gradstep::views {

namespace {

using migrate::Capture;
using migrate::ComparedPair;
using migrate::DivergenceKind;

const char* sideLetter(MigrationSide side)
{
    return side == MigrationSide::Torch ? "T:" : "M:";
}

struct Event {
    std::string module;
    std::int64_t call = 1;
    std::string tensor;
    int more = 0; ///< a tuple output's further tensors
    std::vector<std::int64_t> outputs; ///< the step's output numbers (N of fwd/1/N) this node shows
    std::vector<std::int64_t> inputs;  ///< the outputs it was computed from (PyTorch's autograd graph)
    bool flowKnown = false;            ///< the capture recorded "inputs" (else: chained in order)
};

std::int64_t outputNumber(const std::string& key)
{
    return std::atoll(key.c_str() + key.rfind('/') + 1);
}

std::vector<Event> firstStepEvents(const Capture& c)
{
    std::vector<Event> out;
    const Json* forward = c.doc().find("forward");
    if (!forward || !forward->isArray())
        return out;
    for (const Json& e : forward->asArray()) {
        if (e["step"].asInt() != 1)
            continue;
        // A tuple output's tensors are one call: one node, shown by its first tensor.
        const std::string module = e["module"].asString();
        const std::int64_t call = e["call"].asInt();
        const bool sameCall = e.find("element") && !out.empty() && out.back().module == module && out.back().call == call;
        if (!sameCall)
            out.push_back({module, call, e["tensor"].asString(), 0, {}, {}, false});
        else
            ++out.back().more;
        Event& node = out.back();
        node.outputs.push_back(outputNumber(e["tensor"].asString()));
        if (const Json* inputs = e.find("inputs"); inputs && inputs->isArray()) {
            node.flowKnown = true;
            for (const Json& i : inputs->asArray())
                node.inputs.push_back(i.asInt());
        }
    }
    return out;
}

/// `ancestor` holds `path` ("features" holds "features.0"; the model "" holds everything).
bool holds(const std::string& ancestor, const std::string& path)
{
    if (ancestor == path)
        return false;
    return ancestor.empty() || (path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0
                                && path[ancestor.size()] == '.');
}

std::string lastName(const std::string& path)
{
    const std::size_t dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string tensorText(const Capture& c, const std::string& key)
{
    const auto t = c.tensor(key);
    return t ? migrate::shapeText(t->shape) + " " + t->dtype : std::string();
}

/// Pair numbers ("#3") by node key: forward outputs and the loss, in stepping order.
std::map<QString, int> pairNumbers(MigrationSide side, const std::vector<ComparedPair>& pairs)
{
    std::map<QString, int> numbers;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].kind == DivergenceKind::Forward || pairs[i].kind == DivergenceKind::Loss)
            numbers.emplace(pairNodeKey(side, pairs[i]), int(i) + 1);
    return numbers;
}

void addSide(display::DisplayGraph& g, const Capture& c, MigrationSide side, const std::vector<ComparedPair>& pairs)
{
    const std::string sideName = side == MigrationSide::Torch ? "PyTorch" : "MindSpore";
    const std::vector<Event> events = firstStepEvents(c);
    const std::map<QString, int> numbers = pairNumbers(side, pairs);
    // The side's cluster, then its containers (modules holding other recorded modules),
    // outer before inner.
    const int sideCluster = int(g.clusters.size());
    g.clusters.push_back({sideName, sideName + ": " + c.doc()["root"].asString(), -1, 0, Phase::Forward});
    std::set<std::string> modules;
    for (const Event& e : events)
        modules.insert(e.module);
    std::vector<std::pair<int, std::string>> containers; // (depth, path)
    for (const std::string& m : modules) {
        if (m.empty())
            continue; // the model is the side's cluster
        if (std::none_of(modules.begin(), modules.end(), [&](const std::string& o) { return holds(m, o); }))
            continue;
        const int depth = int(std::count_if(modules.begin(), modules.end(), [&](const std::string& o) {
            return !o.empty() && holds(o, m);
        }));
        containers.emplace_back(depth, m);
    }
    std::stable_sort(containers.begin(), containers.end());
    std::map<std::string, int> clusterOf; // module path -> cluster index
    clusterOf[""] = sideCluster;
    const auto innermost = [&](const std::string& path) { // the nearest container holding path
        int best = sideCluster;
        std::size_t length = 0;
        for (const auto& [module, index] : clusterOf)
            if (holds(module, path) && (module.size() >= length)) {
                best = index;
                length = module.size();
            }
        return best;
    };
    for (const auto& [depth, path] : containers) {
        const int parent = innermost(path);
        clusterOf[path] = int(g.clusters.size());
        g.clusters.push_back({sideName + "/" + path, lastName(path), parent, depth + 1, Phase::Forward});
    }
    const auto addNode = [&](const QString& key, const std::string& title, const std::string& detail, int cluster) {
        display::DisplayNode n;
        n.key = key.toStdString();
        n.kind = display::NodeKind::Op;
        n.title = title;
        const auto number = numbers.find(key);
        n.detail = (number == numbers.end() ? std::string() : "#" + std::to_string(number->second) + "  ") + detail;
        n.cluster = cluster;
        n.scope = g.clusters[std::size_t(cluster)].path;
        display::estimateSize(n);
        g.nodes.push_back(std::move(n));
        return g.nodes.size() - 1;
    };
    // PyTorch's side is drawn by its data flow (read off the autograd graph), the other chained in
    // execution order (its capture records none).
    const bool flow = !events.empty() && std::all_of(events.begin(), events.end(), [](const Event& e) { return e.flowKnown; });
    std::map<std::int64_t, std::size_t> nodeOfOutput;
    std::optional<std::size_t> previous;
    for (const Event& e : events) {
        const Json* info = c.module(e.module);
        const std::string cls = info ? (*info)["class"].asString() : std::string();
        const std::string name = e.module.empty() ? "(model)" : lastName(e.module);
        const auto own = clusterOf.find(e.module); // a container's output sits inside it
        const int cluster = own != clusterOf.end() ? own->second : innermost(e.module);
        const std::size_t node = addNode(migrationNodeKey(side, e.module, e.call),
                                         name + (e.call > 1 ? " (call " + std::to_string(e.call) + ")" : "")
                                             + (cls.empty() ? "" : " · " + cls),
                                         tensorText(c, e.tensor)
                                             + (e.more ? " +" + std::to_string(e.more) + " more" : ""),
                                         cluster);
        if (flow) {
            std::set<std::size_t> from;
            for (std::int64_t input : e.inputs)
                if (const auto found = nodeOfOutput.find(input); found != nodeOfOutput.end() && found->second != node)
                    from.insert(found->second);
            for (std::size_t source : from)
                g.edges.push_back({source, node, display::EdgeKind::Data, "", 1});
        } else if (previous) {
            g.edges.push_back({*previous, node, display::EdgeKind::Data, "", 1});
        }
        for (std::int64_t output : e.outputs)
            nodeOfOutput[output] = node;
        previous = node;
    }
    if (c.tensor("loss/1")) {
        const Json* loss = c.doc().find("loss");
        const std::string cls = loss && loss->isObject() ? (*loss)["class"].asString() : std::string("loss");
        const std::size_t node = addNode(migrationLossKey(side), "loss · " + cls, tensorText(c, "loss/1"), sideCluster);
        if (previous)
            g.edges.push_back({*previous, node, display::EdgeKind::Data, "", 1});
    }
}

} // namespace

QString migrationNodeKey(MigrationSide side, const std::string& module, std::int64_t call)
{
    return QString::fromLatin1(sideLetter(side)) + QString::fromStdString(module) + QLatin1Char('#')
           + QString::number(call);
}

QString migrationLossKey(MigrationSide side)
{
    return QString::fromLatin1(sideLetter(side)) + QStringLiteral("loss");
}

QString pairNodeKey(MigrationSide side, const ComparedPair& pair)
{
    if (pair.kind == DivergenceKind::Loss)
        return migrationLossKey(side);
    const std::string& module = side == MigrationSide::Torch ? pair.torchModule : pair.msModule;
    const std::int64_t call = side == MigrationSide::Torch ? pair.call : pair.msCall;
    return migrationNodeKey(side, module, pair.kind == DivergenceKind::Forward ? call : 1);
}

std::shared_ptr<display::DisplayGraph> buildMigrationGraph(const Capture& torch, const Capture& ms,
                                                           const std::vector<ComparedPair>& pairs)
{
    auto g = std::make_shared<display::DisplayGraph>();
    addSide(*g, torch, MigrationSide::Torch, pairs);
    addSide(*g, ms, MigrationSide::MindSpore, pairs);
    // The matched pairs linked across: drawn, never constraining the layout.
    for (const ComparedPair& p : pairs) {
        if (p.kind != DivergenceKind::Forward && p.kind != DivergenceKind::Loss)
            continue;
        const auto from = g->findNode(pairNodeKey(MigrationSide::Torch, p).toStdString());
        const auto to = g->findNode(pairNodeKey(MigrationSide::MindSpore, p).toStdString());
        if (from && to)
            g->edges.push_back({*from, *to, display::EdgeKind::CrossLink, "", 1});
    }
    return g;
}

NodeStyle pairStyle(migrate::PairStatus status, bool dark)
{
    const QColor ink = dark ? QColor(235, 235, 235) : QColor(25, 25, 25);
    switch (status) {
    case migrate::PairStatus::Equal:
        return {dark ? QColor(38, 90, 52) : QColor(200, 236, 206), QColor(46, 157, 72), ink};
    case migrate::PairStatus::WithinTolerance:
        return {dark ? QColor(30, 86, 90) : QColor(198, 234, 236), QColor(0, 131, 143), ink};
    case migrate::PairStatus::Diverges:
        return {dark ? QColor(120, 36, 36) : QColor(255, 205, 205), QColor(211, 47, 47), ink};
    case migrate::PairStatus::Unmatched:
        break;
    }
    return {dark ? QColor(64, 64, 68) : QColor(232, 232, 232), QColor(140, 140, 140), ink};
}

std::map<QString, NodeStyle> migrationNodeStyles(const display::DisplayGraph& graph,
                                                 const std::vector<ComparedPair>& pairs, bool dark)
{
    std::map<QString, NodeStyle> styles;
    for (const display::DisplayNode& n : graph.nodes)
        styles[QString::fromStdString(n.key)] = pairStyle(migrate::PairStatus::Unmatched, dark);
    // A node of several pairs (a tuple output's tensors) shows the worst of them.
    const auto rank = [](migrate::PairStatus s) {
        switch (s) {
        case migrate::PairStatus::Equal: return 0;
        case migrate::PairStatus::WithinTolerance: return 1;
        case migrate::PairStatus::Unmatched: return 2;
        case migrate::PairStatus::Diverges: return 3;
        }
        return 0;
    };
    std::map<QString, migrate::PairStatus> worst;
    for (const ComparedPair& p : pairs) {
        if (p.kind != DivergenceKind::Forward && p.kind != DivergenceKind::Loss)
            continue;
        for (MigrationSide side : {MigrationSide::Torch, MigrationSide::MindSpore}) {
            const QString key = pairNodeKey(side, p);
            const auto seen = worst.find(key);
            if (seen == worst.end() || rank(p.status) > rank(seen->second))
                worst[key] = p.status;
        }
    }
    for (const auto& [key, status] : worst)
        if (styles.count(key))
            styles[key] = pairStyle(status, dark);
    return styles;
}

} // namespace gradstep::views
