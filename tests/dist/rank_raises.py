"""Rank 1 raises before the all-reduce that rank 0 waits in: the job stops with rank 1's
diagnostic (rank, file:line:col) and exit status 1, and rank 0 does not hang."""
from mindspore import ops, Tensor
from mindspore.communication import init, get_rank

init()
if get_rank() == 1:
    raise ValueError("rank 1 found a bad shard")
ops.AllReduce()(Tensor([1.0]))
print("rank %d passed the all-reduce" % get_rank())
