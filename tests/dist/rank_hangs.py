"""Rank 1 never reaches the all-reduce (it sleeps); with GRADSTEP_COLLECTIVE_TIMEOUT=2 rank 0
gives up after 2 s with an error naming the collective and the rank that did not arrive."""
import time

from mindspore import ops, Tensor
from mindspore.communication import init, get_rank

init()
if get_rank() == 1:
    time.sleep(120)
ops.AllReduce()(Tensor([1.0]))
