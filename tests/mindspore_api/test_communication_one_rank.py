"""mindspore.communication, the auto-parallel context and the collectives in a world of one rank
(no launcher): MindSpore's names, defaults and error texts; the collectives are the identity,
and a data-parallel TrainOneStepCell inserts its reducer. tests/dist checks 2 and 4 ranks."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops, Tensor, context
from mindspore.communication import (init, release, get_rank, get_group_size, get_local_rank,
                                     get_local_rank_size, create_group, destroy_group, GlobalComm,
                                     HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP)
from mindspore.communication.management import get_world_rank_from_group_rank
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
from _check import raises, close

# Before init: the queries say so.
raises(RuntimeError, get_rank, match="call mindspore.communication.init() first")
assert GlobalComm.WORLD_COMM_GROUP == "hccl_world_group" and not GlobalComm.INITED
raises(RuntimeError, init, "hccl", match="'backend_name' should be 'Ascend' to init hccl, but got CPU")
raises(TypeError, init, 3, match="must be a string")
init()
assert GlobalComm.INITED and GlobalComm.BACKEND == "mccl"
assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
assert get_group_size(HCCL_WORLD_COMM_GROUP) == get_group_size(NCCL_WORLD_COMM_GROUP) == 1
raises(TypeError, get_rank, 0, match="the argument 'group' must be type of string")
create_group("pair", [0])
assert get_group_size("pair") == 1 and get_world_rank_from_group_rank("pair", 0) == 0
raises(ValueError, create_group, "pair", [0], match="already exists")
destroy_group("pair")
raises(RuntimeError, get_rank, "pair", match="the group 'pair' does not exist")

# The auto-parallel context.
assert context.get_auto_parallel_context("parallel_mode") == ms.ParallelMode.STAND_ALONE == "stand_alone"
raises(ValueError, context.set_auto_parallel_context, parallel_mode="model_parallel",
       match="only support 'stand_alone', 'data_parallel'")
raises(ValueError, context.set_auto_parallel_context, parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
       match="is not supported on CPU")
raises(ValueError, context.set_auto_parallel_context, device_num=0, match="must be in [1, 4096]")
raises(ValueError, context.set_auto_parallel_context, parallel_modes="x", match="is not recognized!")
raises(TypeError, context.set_auto_parallel_context, gradients_mean=1, match="must be bool")
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=1)
assert ms.get_auto_parallel_context("gradients_mean") is True
assert ms.get_auto_parallel_context("device_num") == 1

# Collectives in a world of one: the identity, each a recorded op with MindSpore's checks.
x = Tensor(np.array([[1.0, -2.0], [3.0, 4.0]], np.float32))
for op in (ops.AllReduce(), ops.AllReduce(ops.ReduceOp.MAX), ops.AllGather(), ops.ReduceScatter(),
           ops.AlltoAll(1, 0, 1)):
    close(op(x), x.asnumpy())
close(ops.Broadcast(0)((x,))[0], x.asnumpy())
assert repr(ops.AllReduce()) == "Prim[AllReduce]<op=sum, group=hccl_world_group>"
raises(TypeError, ops.AllReduce, 1, match="For 'AllReduce', the 'op' must be str")
raises(ValueError, ops.AllReduce("mean"), x, match="the 'op' must be one of 'sum', 'max', 'min' or 'prod'")
raises(ValueError, ops.AlltoAll(2, 0, 1), x, match="the 'split_count' must be equal to the group size 1")
raises(ValueError, ops.Broadcast(1), (x,), match="the 'root_rank' must be in [0, 1)")

# DistributedGradReducer and TrainOneStepCell in DATA_PARALLEL mode.
net = nn.Dense(2, 1)
reducer = DistributedGradReducer(net.trainable_params())
assert reducer.mean is True and reducer.degree == 1
grads = (Tensor(np.ones((1, 2), np.float32)), Tensor(np.full((1,), 2.0, np.float32)))
out = reducer(grads)
close(out[0], np.ones((1, 2)))
close(out[1], [2.0])
raises(ValueError, DistributedGradReducer, net.trainable_params(), True, 0, match="degree should be large than 0")
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
assert step.reducer_flag and isinstance(step.grad_reducer, DistributedGradReducer)
before = net.weight.asnumpy().copy()
step(x, Tensor(np.zeros((2, 1), np.float32)))
assert not np.array_equal(before, net.weight.asnumpy())
context.reset_auto_parallel_context()
assert not nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1)).reducer_flag

# Sharding arguments.
data = {"id": np.arange(10)}
raises(ValueError, ds.NumpySlicesDataset, data, num_shards=2, match="requires shard_id as well")
raises(ValueError, ds.NumpySlicesDataset, data, shard_id=0, match="shard_id is specified but num_shards is not")
raises(ValueError, ds.NumpySlicesDataset, data, num_shards=2, shard_id=2, match="shard_id is not within")
raises(ValueError, ds.DistributedSampler, 2, 3, match="shard_id is not within the required interval of [0, 1]")
shard = ds.NumpySlicesDataset(data, shuffle=False, num_shards=3, shard_id=2)
# ceil(10 / 3) = 4 rows per shard; shard 2 wraps around to row 0, as MindSpore's sampler does.
assert [int(r["id"]) for r in shard.create_dict_iterator(output_numpy=True)] == [2, 5, 8, 1]
assert shard.get_dataset_size() == 4
release()
assert not GlobalComm.INITED
raises(RuntimeError, get_group_size, match="call mindspore.communication.init() first")
