// The layout engine: one worker thread takes jobs and Graphviz tasks from a queue; results are
// cached by the input graph's structure hash and the options (a small LRU), so re-showing the
// same step, or step k after step k-1 with the same nodes, costs nothing.
// SPDX-License-Identifier: MIT
#include "display/layout.h"

#include "display/graphviz_backend.h"
#include "tensor/errors.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <list>
#include <thread>

namespace gradstep::display {

JobStatus LayoutJob::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

bool LayoutJob::cancel()
{
    std::lock_guard lock(m_mutex);
    if (m_status != JobStatus::Queued && m_status != JobStatus::Running)
        return false;
    m_status = JobStatus::Cancelled;
    m_changed.notify_all();
    return true;
}

JobStatus LayoutJob::wait() const
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_status != JobStatus::Queued && m_status != JobStatus::Running; });
    return m_status;
}

std::shared_ptr<const LayoutResult> LayoutJob::result() const
{
    std::lock_guard lock(m_mutex);
    return m_status == JobStatus::Done ? m_result : nullptr;
}

std::string LayoutJob::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

bool LayoutJob::cacheHit() const
{
    std::lock_guard lock(m_mutex);
    return m_cacheHit;
}

namespace {

constexpr std::size_t kCacheEntries = 32;

struct CacheKey {
    std::uint64_t hash = 0;
    LayoutOptions options;
    friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

struct WorkItem {
    std::shared_ptr<LayoutJob> job;
    std::shared_ptr<const DisplayGraph> graph;
    LayoutOptions options;
    LayoutCallback done;
    CacheKey key;
    std::function<void()> task; ///< set for runOnWorker items
};

LayoutResult compute(const std::shared_ptr<const DisplayGraph>& graph, const LayoutOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    std::shared_ptr<const DisplayGraph> laidOut = graph;
    int depth = -1;
    if (graph->nodes.size() > options.nodeBudget) {
        depth = autoCollapseDepth(*graph, options.nodeBudget);
        laidOut = std::make_shared<const DisplayGraph>(collapse(*graph, CollapseState{depth, {}, {}}));
    }
    LayoutResult r;
    if (laidOut->nodes.size() > options.hardLimit) {
        r = layeredLayout(laidOut, options);
    } else {
        r = detail::dotLayout(laidOut, options);
        detail::finishGeometry(r);
    }
    r.collapseDepth = depth;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
}

/// A cached layout for `graph`: the positions of the hit, whose graph had the same structure,
/// with `graph`'s own labels. The structure hash leaves labels out (so a new step's graph reuses
/// the layout), so the hit's graph may be another script's or step's, with other shapes in its
/// labels: drawing those would show something false.
std::shared_ptr<const LayoutResult> rebound(const LayoutResult& hit, const std::shared_ptr<const DisplayGraph>& graph)
{
    auto result = std::make_shared<LayoutResult>(hit);
    result->graph = hit.collapseDepth < 0
                        ? graph
                        : std::make_shared<const DisplayGraph>(collapse(*graph, CollapseState{hit.collapseDepth, {}, {}}));
    result->seconds = 0.0;
    return result;
}

} // namespace

namespace detail {

namespace {

bool optimizerSide(Phase phase)
{
    return phase != Phase::Forward;
}

void mirrorX(Rect& r, double axis)
{
    r.x = axis - r.right();
}

} // namespace

void finishGeometry(LayoutResult& layout)
{
    const DisplayGraph& g = *layout.graph;
    double minX = 1e300, maxX = -1e300, forwardMax = -1e300, backwardSum = 0.0, updateSum = 0.0;
    std::size_t backward = 0, update = 0;
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        const Rect& r = layout.nodes[n];
        if (!optimizerSide(g.nodes[n].phase)) {
            forwardMax = std::max(forwardMax, r.right());
            continue;
        }
        minX = std::min(minX, r.x);
        maxX = std::max(maxX, r.right());
        const bool isUpdate = g.nodes[n].phase == Phase::Update;
        (isUpdate ? updateSum : backwardSum) += r.center().x;
        ++(isUpdate ? update : backward);
    }
    for (std::size_t c = 0; c < g.clusters.size(); ++c)
        if (optimizerSide(g.clusters[c].phase)) {
            minX = std::min(minX, layout.clusters[c].x);
            maxX = std::max(maxX, layout.clusters[c].right());
        }
    const bool updateLeft = backward > 0 && update > 0
                            && updateSum / static_cast<double>(update) < backwardSum / static_cast<double>(backward);
    if (updateLeft && forwardMax <= minX) {
        const double axis = minX + maxX;
        for (std::size_t n = 0; n < g.nodes.size(); ++n)
            if (optimizerSide(g.nodes[n].phase))
                mirrorX(layout.nodes[n], axis);
        for (std::size_t c = 0; c < g.clusters.size(); ++c)
            if (optimizerSide(g.clusters[c].phase))
                mirrorX(layout.clusters[c], axis);
        for (EdgeGeometry& e : layout.edges) {
            const DisplayEdge& edge = g.edges[e.edge];
            if (!optimizerSide(g.nodes[edge.from].phase) || !optimizerSide(g.nodes[edge.to].phase))
                continue;
            for (Point& p : e.points)
                p.x = axis - p.x;
            e.arrowTip.x = axis - e.arrowTip.x;
        }
    }
    for (EdgeGeometry& e : layout.edges)
        if (e.points.empty())
            e = straightEdge(e.edge, layout.nodes[g.edges[e.edge].from], layout.nodes[g.edges[e.edge].to]);
}

} // namespace detail

struct LayoutEngine::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<WorkItem> queue;
    std::list<std::pair<CacheKey, std::shared_ptr<const LayoutResult>>> cache; ///< newest first
    EngineStats stats;
    bool stopping = false;
    std::thread worker;

    std::shared_ptr<const LayoutResult> cached(const CacheKey& key)
    {
        for (auto it = cache.begin(); it != cache.end(); ++it) {
            if (!(it->first == key))
                continue;
            cache.splice(cache.begin(), cache, it);
            return cache.front().second;
        }
        return nullptr;
    }

    void store(const CacheKey& key, std::shared_ptr<const LayoutResult> result)
    {
        if (cached(key))
            return;
        cache.emplace_front(key, std::move(result));
        if (cache.size() > kCacheEntries)
            cache.pop_back();
    }

    static void finish(const WorkItem& item, JobStatus status, std::shared_ptr<const LayoutResult> result,
                       std::string error)
    {
        {
            std::lock_guard lock(item.job->m_mutex);
            if (item.job->m_status != JobStatus::Cancelled) {
                item.job->m_status = status;
                item.job->m_result = std::move(result);
                item.job->m_error = std::move(error);
            }
            item.job->m_changed.notify_all();
        }
        if (item.done)
            item.done(*item.job);
    }

    void runJob(WorkItem& item)
    {
        bool cancelled = false;
        {
            std::lock_guard lock(item.job->m_mutex);
            cancelled = item.job->m_status == JobStatus::Cancelled;
            if (!cancelled)
                item.job->m_status = JobStatus::Running;
        }
        if (cancelled) {
            {
                std::lock_guard lock(mutex);
                ++stats.cancelled;
            }
            if (item.done)
                item.done(*item.job);
            return;
        }
        try {
            auto result = std::make_shared<const LayoutResult>(compute(item.graph, item.options));
            {
                std::lock_guard lock(mutex);
                ++stats.layouts;
                if (item.options.useCache)
                    store(item.key, result);
                if (item.job->status() == JobStatus::Cancelled)
                    ++stats.cancelled;
            }
            finish(item, JobStatus::Done, std::move(result), {});
        } catch (const std::exception& e) {
            finish(item, JobStatus::Failed, nullptr, e.what());
        }
    }

    void loop()
    {
        for (;;) {
            WorkItem item;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stopping || !queue.empty(); });
                if (queue.empty())
                    break;
                item = std::move(queue.front());
                queue.pop_front();
            }
            if (item.task)
                item.task();
            else
                runJob(item);
        }
        detail::releaseGraphviz();
    }
};

LayoutEngine::LayoutEngine() : m_state(std::make_unique<State>())
{
    m_state->worker = std::thread([state = m_state.get()] { state->loop(); });
}

LayoutEngine::~LayoutEngine()
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->stopping = true;
        for (WorkItem& item : m_state->queue)
            if (item.job)
                item.job->cancel();
    }
    m_state->wake.notify_all();
    m_state->worker.join();
}

LayoutEngine& LayoutEngine::instance()
{
    static LayoutEngine engine;
    return engine;
}

std::shared_ptr<LayoutJob> LayoutEngine::submit(std::shared_ptr<const DisplayGraph> graph,
                                                const LayoutOptions& options, LayoutCallback done)
{
    auto job = std::make_shared<LayoutJob>();
    WorkItem item{job, std::move(graph), options, std::move(done), {}, {}};
    item.key = CacheKey{item.graph->structureHash(), options};
    std::unique_lock lock(m_state->mutex);
    if (options.useCache) {
        if (auto hit = m_state->cached(item.key)) {
            ++m_state->stats.cacheHits;
            lock.unlock();
            {
                std::lock_guard jobLock(job->m_mutex);
                job->m_status = JobStatus::Done;
                job->m_result = rebound(*hit, item.graph);
                job->m_cacheHit = true;
            }
            if (item.done)
                item.done(*job);
            return job;
        }
    }
    m_state->queue.push_back(std::move(item));
    lock.unlock();
    m_state->wake.notify_one();
    return job;
}

std::shared_ptr<const LayoutResult> LayoutEngine::layout(std::shared_ptr<const DisplayGraph> graph,
                                                         const LayoutOptions& options)
{
    auto job = submit(std::move(graph), options);
    if (job->wait() != JobStatus::Done)
        throw RuntimeError("layout failed: " + (job->error().empty() ? std::string("cancelled") : job->error()));
    return job->result();
}

void LayoutEngine::runOnWorker(std::function<void()> task)
{
    if (std::this_thread::get_id() == m_state->worker.get_id()) {
        task();
        return;
    }
    auto packaged = std::make_shared<std::packaged_task<void()>>(std::move(task));
    std::future<void> done = packaged->get_future();
    {
        std::lock_guard lock(m_state->mutex);
        WorkItem item;
        item.task = [packaged] { (*packaged)(); };
        m_state->queue.push_back(std::move(item));
    }
    m_state->wake.notify_one();
    done.get();
}

EngineStats LayoutEngine::stats() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->stats;
}

void LayoutEngine::clearCache()
{
    std::lock_guard lock(m_state->mutex);
    m_state->cache.clear();
}

} // namespace gradstep::display
