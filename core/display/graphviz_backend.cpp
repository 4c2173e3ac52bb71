// Graphviz through its C API. Nodes get fixed sizes and no labels (the DisplayGraph measured
// them; dot then needs no fonts), clusters get their titles so dot reserves room for them.
// dot's coordinates have y growing upwards with the origin at the bounding box's lower-left;
// LayoutResult has y growing downwards. SPDX-License-Identifier: MIT
#include "display/graphviz_backend.h"

#include "tensor/errors.h"

#include <graphviz/gvc.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <string>
#include <unordered_map>

namespace gradstep::display::detail {

namespace {

GVC_t*& contextSlot()
{
    static GVC_t* gvc = nullptr;
    return gvc;
}

GVC_t* context()
{
    GVC_t*& gvc = contextSlot();
    if (!gvc) {
        agseterr(AGERR); // warnings (e.g. about cluster sizes) would clutter the user's stderr
        gvc = gvContext();
    }
    return gvc;
}

/// cgraph's default ids for named objects are the addresses of the interned names, and dot
/// visits clusters in id order: the same graph then came out differently from run to run. These
/// ids count up in creation order instead.
struct IdState {
    std::unordered_map<std::string, IDTYPE> ids;
    std::deque<std::string> names;
    IDTYPE anonymous = 1;
};

/// The state of the graph being opened on this thread. DotRun owns it: cgraph does not always
/// reach the discipline's close when dot's cluster code leaks parts of a graph (Graphviz 2.42).
thread_local IdState* t_opening = nullptr;

void* idOpen(Agraph_t*, Agdisc_t*)
{
    return t_opening;
}

long idMap(void* state, int, char* str, IDTYPE* id, int create)
{
    auto* s = static_cast<IdState*>(state);
    if (!str) {
        *id = s->anonymous;
        s->anonymous += 2;
        return 1;
    }
    auto it = s->ids.find(str);
    if (it == s->ids.end()) {
        if (!create)
            return 0;
        s->names.emplace_back(str);
        it = s->ids.emplace(s->names.back(), static_cast<IDTYPE>(2 * s->names.size())).first;
    }
    *id = it->second;
    return 1;
}

long idAlloc(void*, int, IDTYPE)
{
    return 0;
}

void idFree(void*, int, IDTYPE) {}

char* idPrint(void* state, int, IDTYPE id)
{
    auto* s = static_cast<IdState*>(state);
    if (id % 2 != 0 || id == 0 || id / 2 > s->names.size())
        return nullptr;
    return s->names[id / 2 - 1].data();
}

void idClose(void*) {}

void idRegister(void*, int, void*) {}

Agiddisc_t kSequentialIds = {idOpen, idMap, idAlloc, idFree, idPrint, idClose, idRegister};
Agdisc_t kDiscipline = {&AgMemDisc, &kSequentialIds, &AgIoDisc};

char* text(const char* s)
{
    return const_cast<char*>(s);
}

void set(void* object, const char* name, const std::string& value)
{
    agsafeset(object, text(name), text(value.c_str()), text(""));
}

std::string number(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", v);
    return buffer;
}

/// Frees the layout and the graph on every path out.
struct GraphGuard {
    GVC_t* gvc;
    Agraph_t* graph;
    bool laidOut = false;
    ~GraphGuard()
    {
        if (laidOut)
            gvFreeLayout(gvc, graph);
        agclose(graph);
    }
};

bool reversed(const DisplayGraph& g, const DisplayEdge& e, const LayoutOptions& options)
{
    return options.mirrorBackward && g.nodes[e.from].phase == Phase::Backward
           && g.nodes[e.to].phase == Phase::Backward;
}

class DotRun {
public:
    DotRun(std::shared_ptr<const DisplayGraph> graph, const LayoutOptions& options)
        : m_display(std::move(graph)), m_options(options), m_guard{context(), open(m_ids)}
    {
    }

    static Agraph_t* open(IdState& ids)
    {
        t_opening = &ids;
        Agraph_t* g = agopen(text("G"), Agdirected, &kDiscipline);
        t_opening = nullptr;
        return g;
    }

    LayoutResult run()
    {
        build();
        if (gvLayout(m_guard.gvc, m_guard.graph, "dot") != 0)
            throw RuntimeError("graphviz could not lay out the graph");
        m_guard.laidOut = true;
        return read();
    }

private:
    void build()
    {
        Agraph_t* g = m_guard.graph;
        set(g, "newrank", "true");
        set(g, "nodesep", number(m_options.nodeSep / 72.0));
        set(g, "ranksep", number(m_options.rankSep / 72.0));
        agattr(g, AGRAPH, text("label"), text(""));
        agattr(g, AGRAPH, text("labeljust"), text("l"));
        agattr(g, AGRAPH, text("fontsize"), text("10"));
        agattr(g, AGRAPH, text("margin"), text("8"));
        agattr(g, AGNODE, text("shape"), text("box"));
        agattr(g, AGNODE, text("fixedsize"), text("true"));
        agattr(g, AGNODE, text("label"), text(""));
        agattr(g, AGNODE, text("width"), text("0.75"));
        agattr(g, AGNODE, text("height"), text("0.5"));
        agattr(g, AGEDGE, text("dir"), text("forward"));
        const DisplayGraph& d = *m_display;
        m_clusters.resize(d.clusters.size());
        for (std::size_t c = 0; c < d.clusters.size(); ++c) {
            Agraph_t* parent = d.clusters[c].parent < 0 ? g : m_clusters[static_cast<std::size_t>(d.clusters[c].parent)];
            const std::string name = "cluster_" + std::to_string(c);
            m_clusters[c] = agsubg(parent, text(name.c_str()), 1);
            set(m_clusters[c], "label", d.clusters[c].title);
        }
        m_nodes.resize(d.nodes.size());
        for (std::size_t n = 0; n < d.nodes.size(); ++n) {
            const DisplayNode& node = d.nodes[n];
            Agraph_t* owner = node.cluster < 0 ? g : m_clusters[static_cast<std::size_t>(node.cluster)];
            const std::string name = "n" + std::to_string(n);
            m_nodes[n] = agnode(owner, text(name.c_str()), 1);
            set(m_nodes[n], "width", number(node.width / 72.0));
            set(m_nodes[n], "height", number(node.height / 72.0));
        }
        m_edges.assign(d.edges.size(), nullptr);
        for (std::size_t e = 0; e < d.edges.size(); ++e) {
            const DisplayEdge& edge = d.edges[e];
            if (edge.kind != EdgeKind::Data)
                continue;
            const std::string name = "e" + std::to_string(e);
            const bool back = reversed(d, edge, m_options);
            Agnode_t* tail = m_nodes[back ? edge.to : edge.from];
            Agnode_t* head = m_nodes[back ? edge.from : edge.to];
            m_edges[e] = agedge(g, tail, head, text(name.c_str()), 1);
            if (back)
                set(m_edges[e], "dir", "back");
        }
    }

    Point convert(pointf p) const { return {p.x - m_bounds.LL.x, m_bounds.UR.y - p.y}; }

    Rect convert(boxf b) const
    {
        return {b.LL.x - m_bounds.LL.x, m_bounds.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
    }

    LayoutResult read()
    {
        Agraph_t* g = m_guard.graph;
        m_bounds = GD_bb(g);
        LayoutResult r;
        r.graph = m_display;
        r.method = LayoutMethod::Dot;
        r.bounds = Rect{0.0, 0.0, m_bounds.UR.x - m_bounds.LL.x, m_bounds.UR.y - m_bounds.LL.y};
        for (Agnode_t* n : m_nodes) {
            const Point c = convert(ND_coord(n));
            const double w = ND_width(n) * 72.0, h = ND_height(n) * 72.0;
            r.nodes.push_back(Rect{c.x - w / 2.0, c.y - h / 2.0, w, h});
        }
        for (Agraph_t* c : m_clusters)
            r.clusters.push_back(convert(GD_bb(c)));
        for (std::size_t e = 0; e < m_edges.size(); ++e)
            r.edges.push_back(edgeGeometry(e));
        return r;
    }

    EdgeGeometry edgeGeometry(std::size_t e) const
    {
        const DisplayEdge& edge = m_display->edges[e];
        Agedge_t* ge = m_edges[e];
        if (!ge || !ED_spl(ge) || ED_spl(ge)->size == 0 || ED_spl(ge)->list[0].size == 0)
            return EdgeGeometry{e, {}, {}}; // routed by finishGeometry
        const bezier& b = ED_spl(ge)->list[0];
        EdgeGeometry geometry;
        geometry.edge = e;
        for (int i = 0; i < b.size; ++i)
            geometry.points.push_back(convert(b.list[i]));
        if (reversed(*m_display, edge, m_options)) {
            std::reverse(geometry.points.begin(), geometry.points.end());
            geometry.arrowTip = b.sflag ? convert(b.sp) : geometry.points.back();
        } else {
            geometry.arrowTip = b.eflag ? convert(b.ep) : geometry.points.back();
        }
        return geometry;
    }

    std::shared_ptr<const DisplayGraph> m_display;
    LayoutOptions m_options;
    IdState m_ids; ///< outlives m_guard, which closes the graph
    GraphGuard m_guard;
    std::vector<Agraph_t*> m_clusters;
    std::vector<Agnode_t*> m_nodes;
    std::vector<Agedge_t*> m_edges;
    boxf m_bounds{};
};

} // namespace

LayoutResult dotLayout(std::shared_ptr<const DisplayGraph> graph, const LayoutOptions& options)
{
    return DotRun(std::move(graph), options).run();
}

void renderPositioned(const std::string& dotText, const std::string& format, const std::string& path)
{
    GVC_t* gvc = context();
    Agraph_t* g = agmemread(dotText.c_str());
    if (!g)
        throw RuntimeError("graphviz could not read the graph to render");
    GraphGuard guard{gvc, g};
    if (gvLayout(gvc, g, "nop2") != 0)
        throw RuntimeError("graphviz could not place the graph to render");
    guard.laidOut = true;
    if (gvRenderFilename(gvc, g, format.c_str(), path.c_str()) != 0)
        throw RuntimeError("graphviz could not render " + format + " (is its cairo plugin installed?)");
}

void releaseGraphviz()
{
    GVC_t*& gvc = contextSlot();
    if (gvc)
        gvFreeContext(gvc);
    gvc = nullptr;
}

} // namespace gradstep::display::detail
