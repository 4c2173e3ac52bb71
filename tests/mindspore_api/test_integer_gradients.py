"""Gradients with respect to integer inputs come back in the input's dtype (op rules written with
float constants are cast back, as MindSpore's Cast rule does), in PyNative and graph mode; PReLU
with one shared slope keeps x's shape."""
import numpy as np

from mindspore import Tensor, context, ops

from _check import close

x = Tensor(np.array([1, 2, 3], np.int32))
sens = Tensor(np.array([1, 1, 2], np.int32))
grad_all = ops.GradOperation(get_all=True, sens_param=True)
for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
    context.set_context(mode=mode)
    (dx,) = grad_all(ops.Square())(x, sens)
    assert str(dx.dtype) == "Int32", dx.dtype
    assert dx.asnumpy().tolist() == [2, 4, 12]
    (dx64,) = grad_all(ops.square)(Tensor(np.array([3], np.int64)), Tensor(np.array([5], np.int64)))
    assert str(dx64.dtype) == "Int64" and dx64.asnumpy().tolist() == [30]
context.set_context(mode=context.PYNATIVE_MODE)

x0 = Tensor(np.array(-0.8, np.float32))
w = Tensor(np.array([0.6], np.float32))
out = ops.prelu(x0, w)
assert out.shape == ()
close(out, np.array(-0.48, np.float32))
dx, dw = ops.GradOperation(get_all=True)(ops.prelu)(x0, w)
close(dx, np.array(0.6, np.float32))
assert dw.shape == (1,)
close(dw, np.array([-0.8], np.float32))

# ReduceMax / ReduceMin share the gradient among ties; for integer inputs it is computed in float
# and cast back (fuzz find: the rule divided two integer tensors).
for reduce in (ops.ReduceMax(), ops.ReduceMin()):
    xi = Tensor(np.array([[3, 1, 3], [2, 2, 0]], np.int16))
    (gx,) = ops.GradOperation(get_all=True)(lambda t, r=reduce: r(t, 1))(xi)
    assert str(gx.dtype) == "Int16", gx.dtype
ints = Tensor(np.array([4, 4, 1], np.int32))
(gmax,) = ops.GradOperation(get_all=True, sens_param=True)(lambda t: ops.ReduceMax()(t))(ints, Tensor(np.array(4, np.int32)))
assert gmax.asnumpy().tolist() == [2, 2, 0], gmax
