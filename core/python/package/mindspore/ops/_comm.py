"""ReduceOp (mindspore.ops.ReduceOp): the reductions of AllReduce and ReduceScatter. The
primitives themselves are C++ classes (bind_ops_primitives_comm.cpp)."""
import mindspore.ops as _ops


class ReduceOp:
    """The reduction of a collective: ReduceOp.SUM, MAX, MIN or PROD."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


_ops.ReduceOp = ReduceOp
_ops.operations.ReduceOp = ReduceOp
