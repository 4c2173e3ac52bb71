"""mindspore.ops.HookBackward (also ops.operations.HookBackward, P.HookBackward), PyNative.

hook = HookBackward(hook_fn); y = hook(x) returns its inputs unchanged; in backward hook_fn is
called with the gradient of those outputs (a tuple, one per input, as MindSpore passes it) and
may return new gradients (a tuple, or one Tensor for one input) or None to keep them.

Built as a Cell with a bprop over the identity: the core records it as one node (the debugger
shows it) and calls the bprop in backward. The HookBackward object keeps the Cell alive, so keep
the HookBackward (an attribute of the network, as MindSpore code does) until backward runs.
Cell.register_forward_pre_hook / register_forward_hook / register_backward_hook and
Tensor.register_hook are not here: core Cells call their children in C++, past any Python
wrapper, so they need C++ support.
"""
import mindspore.nn as _nn
import mindspore.ops as _ops
from mindspore import Tensor

__all__ = ["HookBackward"]


class _HookIdentity(_nn.Cell):
    def __init__(self, hook_fn):
        super().__init__()
        self.hook_fn = hook_fn

    def construct(self, *inputs):
        return inputs[0] if len(inputs) == 1 else inputs

    def bprop(self, *args):
        inputs, dout = args[:-2], args[-1]
        grads = (dout,) if len(inputs) == 1 else tuple(dout)
        new = self.hook_fn(grads)
        if new is None:
            return grads
        if isinstance(new, Tensor):
            new = (new,)
        if not isinstance(new, (tuple, list)) or len(new) != len(inputs):
            raise TypeError("For 'HookBackward', the return value of 'hook_fn' must be None or a tuple with one "
                            "gradient per input (%d), but got %s." % (len(inputs), type(new).__name__))
        return tuple(new)


class HookBackward:
    """The identity on its inputs whose backward calls hook_fn(gradients)."""

    def __init__(self, hook_fn, cell_id=""):
        if not callable(hook_fn) or isinstance(hook_fn, _nn.Cell):
            raise TypeError("For 'HookBackward', the type of 'hook_fn' must be python function, but got %s."
                            % type(hook_fn).__name__)
        if not isinstance(cell_id, str):
            raise TypeError("For 'HookBackward', the type of 'cell_id' must be str, but got %s."
                            % type(cell_id).__name__)
        self.hook_fn = hook_fn
        self.cell_id = cell_id
        self._identity = _HookIdentity(hook_fn)

    def __call__(self, *inputs):
        if not inputs:
            raise ValueError("For 'HookBackward', the inputs can not be empty.")
        for x in inputs:
            if not isinstance(x, Tensor):
                raise TypeError("For 'HookBackward', the inputs must be Tensors, but got %s." % type(x).__name__)
        return self._identity(*inputs)

    def __repr__(self):
        return "Prim[HookBackward]"


_ops.HookBackward = HookBackward
import mindspore.ops.operations as _operations  # noqa: E402

_operations.HookBackward = HookBackward
