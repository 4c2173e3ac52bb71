// `gradstep run --ranks N --watch shard-overlap` on tests/dist/shard_overlap.py: a data set left
// unsharded is found at its first step, naming the ranks and the sample; a sharded one is not.
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <string>

using namespace gradstep::test;

namespace {

CommandResult watchOverlap(int ranks, const std::string& mode)
{
    return runGradstep("run " + shellQuote(sourcePath("tests/dist/shard_overlap.py").string()) + " --ranks "
                       + std::to_string(ranks) + " --watch shard-overlap -- " + mode);
}

} // namespace

TEST_CASE("shard-overlap names step 1, ranks 0 and 1 and sample 0 when two ranks forget num_shards")
{
    const CommandResult r = watchOverlap(2, "forget");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("shard-overlap: in step 1, ranks 0 and 1 both received sample 0 (row 0 of the data set with "
                     "columns x, y)")
          != std::string::npos);
    CHECK(r.err.find("num_shards=get_group_size()") != std::string::npos);
    // Every rank stopped at the step: none trained to the end.
    CHECK(r.out.find("rank 0: ") == std::string::npos);
}

TEST_CASE("shard-overlap stays silent when each of two or four ranks reads its own shard")
{
    for (int ranks : {2, 4}) {
        const CommandResult r = watchOverlap(ranks, "sharded");
        INFO(ranks << " ranks\n" << r.out << r.err);
        CHECK(r.status == 0);
        CHECK(r.err.find("shard-overlap") == std::string::npos);
        // 32 rows, batches of 4, two epochs: 16 steps over 2 ranks, 8 over 4.
        CHECK(r.out.find("[rank 1] rank 1: " + std::to_string(64 / (4 * ranks)) + " steps") != std::string::npos);
    }
}

TEST_CASE("shard-overlap on four ranks that all forget num_shards names the first two")
{
    const CommandResult r = watchOverlap(4, "forget");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("shard-overlap: in step 1, ranks 0 and 1 both received sample 0") != std::string::npos);
}

TEST_CASE("shard-overlap counts only the rows a per_batch_map that slices by rank keeps")
{
    // Every rank reads every row; the map keeps a different quarter or half of each batch per rank.
    for (int ranks : {2, 4}) {
        const CommandResult r = runGradstep("run " + shellQuote(sourcePath("tests/dist/per_batch_map.py").string())
                                            + " --ranks " + std::to_string(ranks) + " --watch shard-overlap");
        INFO(ranks << " ranks\n" << r.out << r.err);
        CHECK(r.status == 0);
        CHECK(r.err.find("shard-overlap") == std::string::npos);
    }
}

TEST_CASE("shard-overlap still sees the rows a per_batch_map passes on unchanged to every rank")
{
    ScratchDir dir;
    const auto script = dir.write("keeps_all.py",
        "import numpy as np\nimport mindspore as ms\nimport mindspore.dataset as ds\nfrom mindspore import nn, ops\n"
        "from mindspore.communication import init\ninit()\n"
        "data = {'x': np.arange(16, dtype=np.float32).reshape(8, 2)}\n"
        "def keep(x, info):\n    return (x,)\n"
        "dataset = ds.NumpySlicesDataset(data, shuffle=False).batch(4, per_batch_map=keep, input_columns=['x'])\n"
        "net = nn.Dense(2, 1)\n"
        "grad_fn = ms.value_and_grad(lambda x: ops.mean(net(x)), None, net.trainable_params())\n"
        "for (x,) in dataset.create_tuple_iterator():\n    grad_fn(x)\n");
    const CommandResult r = runGradstep("run " + shellQuote(script.string()) + " --ranks 2 --watch shard-overlap");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("shard-overlap: in step 1, ranks 0 and 1 both received sample 0 (row 0 of the data set with "
                     "columns x)")
          != std::string::npos);
}

TEST_CASE("gradstep run --watch names both of its watchpoints when given another")
{
    const CommandResult r = runGradstep("run " + shellQuote(sourcePath("tests/dist/shard_overlap.py").string())
                                        + " --watch nan");
    CHECK(r.status == 2);
    CHECK(r.err.find("takes ranks-diverge[:TOL] or shard-overlap") != std::string::npos);
}
