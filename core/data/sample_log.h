// Which samples this process's data pipelines read: the rows of random-access sources (NumPy
// slices, MNIST, a GeneratorDataset over __getitem__), by source and row index, for the
// shard-overlap watchpoint of a data-parallel run. Sources are numbered in the order the script
// creates them, so every rank of the same script numbers them alike. Off (and free) until
// enabled. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep::data {

/// One row read from a source.
struct SampleRead {
    std::int64_t source = 0; ///< the source's number (registerSampleSource)
    std::int64_t row = 0;    ///< its row index: the sample id
};

/// Starts (or stops) logging reads; stopping forgets what was logged.
void enableSampleLog(bool on);
bool sampleLogEnabled();

/// A new source's number, from 0, described by its columns ("the data set with columns x, y").
std::int64_t registerSampleSource(const std::vector<std::string>& columns);
/// What registerSampleSource was told about `source`.
std::string sampleSourceName(std::int64_t source);

/// Notes a read when the log is on.
void logSample(std::int64_t source, std::int64_t row);
/// The reads since the last call, in order; clears them.
std::vector<SampleRead> takeSampleLog();

/// How many reads the log holds (0 when off): a mark for replaceSampleLogFrom.
std::size_t sampleLogSize();
/// Replaces the reads from `mark` on with `kept` (a per_batch_map kept only some of a batch's
/// rows: the others were never received).
void replaceSampleLogFrom(std::size_t mark, std::vector<SampleRead> kept);
/// The reads from `mark` on, left in the log.
std::vector<SampleRead> sampleLogFrom(std::size_t mark);

} // namespace gradstep::data
