"""mindspore.dataset.DistributedSampler: the shard of a data set that one rank of a data-parallel
run reads. The sources read its settings (bind_dataset_sources.cpp): each shard gets
ceil(rows / num_shards) rows, shard k the rows k, k + num_shards, ... of the epoch's order."""
import mindspore.dataset as _ds


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("Argument {} with value {} is not of type [<class 'int'>], but got {}."
                        .format(name, value, type(value)))
    if value < low or value > high:
        raise ValueError("Input {} is not within the required interval of [{}, {}].".format(name, low, high))


class DistributedSampler:
    """DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=None, offset=-1)."""
    _gradstep_distributed = True

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        _check_int("num_shards", num_shards, 1, 2 ** 31 - 1)
        _check_int("shard_id", shard_id, 0, num_shards - 1)
        if not isinstance(shuffle, bool):
            raise TypeError("shuffle must be a boolean value but was: {}.".format(shuffle))
        if num_samples is not None:
            _check_int("num_samples", num_samples, 0, 2 ** 63 - 1)
        if offset != -1:
            raise ValueError("DistributedSampler: offset is not supported by gradstep (only -1).")
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.num_samples = num_samples
        self.offset = offset


_ds.DistributedSampler = DistributedSampler
