"""Sharding across ranks: with num_shards / shard_id (and a DistributedSampler), each rank reads
its own rows, shuffled alike on every rank, so the shards of one epoch cover the data set with
no row read twice; every rank checks the union gathered from all ranks."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import ops, Tensor
from mindspore.communication import init, get_rank, get_group_size

init()
rank, size = get_rank(), get_group_size()
ROWS = 24  # divisible by 1, 2, 3 and 4 ranks: no wrap-around rows


def ids_of(dataset):
    return np.array([int(row["id"]) for row in dataset.create_dict_iterator(output_numpy=True)], np.int64)


def check(ids, what):
    assert len(ids) == ROWS // size, "%s: rank %d read %d rows, expected %d" % (what, rank, len(ids), ROWS // size)
    everyone = ops.AllGather()(Tensor(ids)).asnumpy()
    assert sorted(everyone.tolist()) == list(range(ROWS)), "%s: the shards overlap or miss rows: %s" % (what, everyone)
    return ids


data = {"id": np.arange(ROWS, dtype=np.int64)}
in_order = check(ids_of(ds.NumpySlicesDataset(data, shuffle=False, num_shards=size, shard_id=rank)), "in order")
assert in_order.tolist() == list(range(rank, ROWS, size)), in_order
shuffled = check(ids_of(ds.NumpySlicesDataset(data, shuffle=True, num_shards=size, shard_id=rank)), "shuffled")


class Source:
    def __getitem__(self, i):
        return (np.array(i, np.int64),)

    def __len__(self):
        return ROWS


sampler = ds.DistributedSampler(num_shards=size, shard_id=rank, shuffle=True)
check(ids_of(ds.GeneratorDataset(Source(), column_names=["id"], sampler=sampler)), "DistributedSampler")
print("sharding ok on rank %d of %d: %s" % (rank, size, shuffled.tolist()))
