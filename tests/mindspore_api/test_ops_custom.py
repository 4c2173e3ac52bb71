"""ops.Custom: pyfunc and aot (a shared library built here) forward, bprop, several outputs,
reg_info / CustomRegOp / DataType, and the errors."""
import os
import shutil
import subprocess
import tempfile

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import Custom, CustomRegOp, DataType

from _check import close, raises

from mindspore.ops.op_info_register import DataType as RegisteredDataType
from mindspore.ops.operations.custom_ops import Custom as OperationsCustom

assert RegisteredDataType is DataType and OperationsCustom is Custom and ops.operations.Custom is Custom

x = np.array([[1., -2., 3.], [0.5, 4., -1.]], np.float32)
y = np.array([[2., 1., -1.], [3., 0., 2.]], np.float32)


# pyfunc: a NumPy function with shape / dtype functions, and its bprop
def square_np(a):
    return a * a


def square_bprop(a, out, dout):
    return (2 * a * dout,)


square = Custom(square_np, out_shape=lambda s: s, out_dtype=lambda t: t, func_type="pyfunc", bprop=square_bprop)
close(square(Tensor(x)), x * x)
assert square(Tensor(x)).dtype == ms.float32
close(ms.grad(lambda t: square(t).sum())(Tensor(x)), 2 * x)
# grad of grad goes through bprop's own ops
close(ms.grad(ms.grad(lambda t: square(t).sum()))(Tensor(x)), np.full(x.shape, 2, np.float32))

# literal out_shape / out_dtype, two inputs, two outputs; bprop gets the outputs and their gradients as tuples
def sum_diff(a, b):
    return a + b, a - b


def sum_diff_bprop(a, b, out, dout):
    assert isinstance(out, tuple) and isinstance(dout, tuple) and len(dout) == 2
    return dout[0] + dout[1], dout[0] - dout[1]


sd = Custom(sum_diff, out_shape=((2, 3), (2, 3)), out_dtype=(ms.float32, ms.float32), bprop=sum_diff_bprop)
s, d = sd(Tensor(x), Tensor(y))
close(s, x + y)
close(d, x - y)
gx, gy = ms.grad(lambda a, b: (sd(a, b)[0] * 2 + sd(a, b)[1] * 3).sum(), grad_position=(0, 1))(Tensor(x), Tensor(y))
close(gx, np.full(x.shape, 5.))
close(gy, np.full(x.shape, -1.))

# the result is converted to out_dtype; a shape other than out_shape is an error naming the function
as64 = Custom(lambda a: a.astype(np.float32) * 2, out_shape=lambda s: s, out_dtype=ms.float64)
r = as64(Tensor(x))
assert r.dtype == ms.float64
close(r, x.astype(np.float64) * 2)
wrong_shape = Custom(lambda a: a[0], out_shape=lambda s: s, out_dtype=lambda t: t)
raises(ValueError, wrong_shape, Tensor(x), match="has shape [3], but out_shape says [2, 3]")

# no bprop: the gradient is MindSpore's error; a bprop with the wrong count is named
no_bprop = Custom(square_np, out_shape=lambda s: s, out_dtype=lambda t: t)
close(no_bprop(Tensor(x)), x * x)
raises(Exception, ms.grad(lambda t: no_bprop(t).sum()), Tensor(x), match="bprop not defined")
two_grads = Custom(square_np, out_shape=lambda s: s, out_dtype=lambda t: t, bprop=lambda a, out, dout: (dout, dout))
raises(Exception, ms.grad(lambda t: two_grads(t).sum()), Tensor(x), match="returned 2 gradients, but the op has 1")

# inside a Cell, trained one step: the custom op's bprop drives the update
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1., 2., 3.], np.float32)), name="w")
        self.square = square

    def construct(self, a):
        return self.square(a * self.w).sum()


net = Net()
grads = ms.grad(net, None, net.trainable_params())(Tensor(x))
close(grads[0], (2 * x * np.array([1., 2., 3.]) * x).sum(axis=0))

# reg_info: CustomRegOp / DataType accepted; the dtype rows decide which inputs the op takes on CPU
reg = CustomRegOp("square_np").input(0, "x").output(0, "y").dtype_format(DataType.F32_Default, DataType.F32_Default) \
    .target("CPU").get_op_info()
assert reg["dtype_format"] == [[["float32", "DefaultFormat"], ["float32", "DefaultFormat"]]]
checked = Custom(square_np, out_shape=lambda s: s, out_dtype=lambda t: t, reg_info=reg)
close(checked(Tensor(x)), x * x)
raises(TypeError, checked, Tensor(x.astype(np.float64)), match="no dtype_format of its reg_info matches")
gpu_only = CustomRegOp().input(0, "x").output(0, "y").dtype_format(DataType.F16_Default, DataType.F16_Default) \
    .target("GPU").get_op_info()
close(Custom(square_np, out_shape=lambda s: s, out_dtype=lambda t: t, reg_info=[gpu_only])(Tensor(x)), x * x)
raises(ValueError, lambda: CustomRegOp().input(0, "x").dtype_format(DataType.F32_Default, DataType.F32_Default),
       match="must be equal to the sum of input size and output size")

# argument errors
raises(ValueError, Custom, square_np, (2, 3), ms.float32, "hybrid", match="gradstep runs func_type 'pyfunc'")
raises(ValueError, Custom, square_np, (2, 3), ms.float32, "cuda", match="'func_type' must be one of")
raises(ValueError, Custom, square_np, None, ms.float32, match="'out_shape' and 'out_dtype' must be given")
raises(ValueError, Custom, "no_colon.so", (2, 3), ms.float32, "aot", match="is illegal")
raises(ValueError, Custom, "/nonexistent/lib.so:f", (2, 3), ms.float32, "aot",
       match="couldn't find the AOT binary file")

# aot: a shared library compiled here, loaded with dlopen and called with MindSpore's convention
compiler = shutil.which("cc") or shutil.which("gcc")
assert compiler, "a C compiler is needed to build the aot test library"
source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "custom_op", "custom_add.c")
with tempfile.TemporaryDirectory() as tmp:
    library = os.path.join(tmp, "custom_add.so")
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", library, source], check=True)
    add = Custom(library + ":CustomAdd", out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="aot",
                 bprop=lambda a, b, out, dout: (dout, dout))
    close(add(Tensor(x), Tensor(y)), x + y)
    close(ms.grad(lambda a: (add(a, Tensor(y)) * Tensor(y)).sum())(Tensor(x)), y)
    # the function's own error code (2 for float64 here) stops the run with MindSpore's message
    add64 = Custom(library + ":CustomAdd", out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="aot")
    raises(ValueError, add64, Tensor(x.astype(np.float64)), Tensor(y.astype(np.float64)),
           match="CustomAdd) is 2")
    scale = Custom(library + ":CustomScale", out_shape=(2, 3), out_dtype=ms.float64, func_type="aot")
    close(scale(Tensor(x.astype(np.float64))), 3 * x)
    raises(ValueError, Custom, library + ":Missing", (2, 3), ms.float32, "aot", match="fetching function 'Missing'")
    # a relative path is found from the working directory
    here = os.getcwd()
    os.chdir(tmp)
    try:
        relative = Custom("./custom_add.so:CustomAdd", out_shape=(2, 3), out_dtype=ms.float32, func_type="aot")
        assert relative.func_name == library + ":CustomAdd"
        close(relative(Tensor(x), Tensor(y)), x + y)
    finally:
        os.chdir(here)
    del relative
    del add, add64, scale

# graph mode: a Custom op inside a compiled construct, and its bprop under grad
ms.set_context(mode=ms.GRAPH_MODE)


class GraphNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.square = square

    def construct(self, a):
        return self.square(a * 2).sum()


close(GraphNet()(Tensor(x)), (4 * x * x).sum())
close(ms.grad(GraphNet())(Tensor(x)), 8 * x)
