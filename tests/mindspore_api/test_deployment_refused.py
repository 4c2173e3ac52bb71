"""mindspore.export / load and nn.GraphCell import from every path MindSpore has them at, check
their arguments as MindSpore does, and refuse the deployment formats with a clear RuntimeError."""
import numpy as np
import mindspore as ms
from mindspore import Tensor, export, load, nn
from mindspore.train import export as train_export, load as train_load

from _check import raises

assert train_export is export is ms.export and train_load is load is ms.load
net = nn.Dense(2, 2)
x = Tensor(np.ones((1, 2), np.float32))
raises(RuntimeError, export, net, x, file_name="m", file_format="MINDIR",
       match="For 'export', MINDIR file 'm': gradstep does not write or read")
raises(RuntimeError, export, net, x, file_name="m", file_format="ONNX", match="mindspore.save_checkpoint")
raises(ValueError, export, net, x, file_name="m", file_format="PB", match="'file_format' must be one of")
raises(TypeError, export, net, x, file_name=3, match="'file_name' must be str")
raises(RuntimeError, load, "m.mindir", match="For 'load', file 'm.mindir'")
raises(RuntimeError, nn.GraphCell, None, match="For 'GraphCell'")
