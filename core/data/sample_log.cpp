// The sample log. SPDX-License-Identifier: MIT
#include "data/sample_log.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>

namespace gradstep::data {

namespace {

struct Log {
    std::mutex mutex;
    std::vector<std::string> sources;
    std::vector<SampleRead> reads;
};

Log& log()
{
    static Log state;
    return state;
}

// Read on every row of every pipeline: an atomic, so an idle log costs one load.
std::atomic<bool> g_enabled{false};

} // namespace

void enableSampleLog(bool on)
{
    std::lock_guard lock(log().mutex);
    g_enabled = on;
    if (!on)
        log().reads.clear();
}

bool sampleLogEnabled()
{
    return g_enabled.load(std::memory_order_relaxed);
}

std::int64_t registerSampleSource(const std::vector<std::string>& columns)
{
    std::string name = "the data set with columns ";
    for (std::size_t i = 0; i < columns.size(); ++i)
        name += (i ? ", " : "") + columns[i];
    std::lock_guard lock(log().mutex);
    log().sources.push_back(std::move(name));
    return static_cast<std::int64_t>(log().sources.size()) - 1;
}

std::string sampleSourceName(std::int64_t source)
{
    std::lock_guard lock(log().mutex);
    if (source < 0 || source >= static_cast<std::int64_t>(log().sources.size()))
        return "data set " + std::to_string(source);
    return log().sources[static_cast<std::size_t>(source)];
}

void logSample(std::int64_t source, std::int64_t row)
{
    if (!sampleLogEnabled())
        return;
    std::lock_guard lock(log().mutex);
    log().reads.push_back({source, row});
}

std::vector<SampleRead> takeSampleLog()
{
    std::lock_guard lock(log().mutex);
    std::vector<SampleRead> out;
    out.swap(log().reads);
    return out;
}

std::size_t sampleLogSize()
{
    if (!sampleLogEnabled())
        return 0;
    std::lock_guard lock(log().mutex);
    return log().reads.size();
}

void replaceSampleLogFrom(std::size_t mark, std::vector<SampleRead> kept)
{
    std::lock_guard lock(log().mutex);
    auto& reads = log().reads;
    reads.resize(std::min(mark, reads.size()));
    reads.insert(reads.end(), kept.begin(), kept.end());
}

std::vector<SampleRead> sampleLogFrom(std::size_t mark)
{
    std::lock_guard lock(log().mutex);
    const auto& reads = log().reads;
    if (mark >= reads.size())
        return {};
    return {reads.begin() + static_cast<std::ptrdiff_t>(mark), reads.end()};
}

} // namespace gradstep::data
