"""GradOperation, grad and value_and_grad over mutable tuple, list and dict inputs.

MindSpore differentiates a tuple, list or dict input only when mindspore.mutable marked it (a
plain one is a constant: no gradient, as for an int). The gradient of a marked container has its
nesting, one Tensor per Tensor leaf (zeros for a leaf fn does not use), tuples for tuples and
lists, and a dict's values in order as a tuple, as gradstep gives dict outputs and sens.

The C++ GradOperation differentiates Tensor arguments only, so when a call has a marked container
this runs it over the containers' leaves as separate arguments (a wrapper rebuilds the containers
for fn) and nests the leaves' gradients back. Calls without one go straight to the C++ function,
and so do grad(..., return_ids=True) calls (their ids name the caller's positions).
"""
import mindspore
import mindspore.ops as _ops
import mindspore.ops.composite as _composite
import mindspore.ops.composite.base as _composite_base
from mindspore import Tensor

__all__ = ["GradOperation", "grad", "value_and_grad"]

_Native = _ops.GradOperation
_native_grad = _ops.grad
_native_value_and_grad = _ops.value_and_grad


def _marked(value):
    return isinstance(value, (tuple, list, dict)) and getattr(value, "__ms_mutable__", False)


def _items(container):
    return list(container.values()) if isinstance(container, dict) else list(container)


def _differentiated_container(value):
    """A marked container whose leaves are all Tensors: differentiated through its leaves."""
    return _marked(value) and _leaves_are_tensors(value)


def _leaves_are_tensors(value):
    if isinstance(value, (tuple, list, dict)):
        return all(_leaves_are_tensors(v) for v in _items(value))
    return isinstance(value, Tensor)


def _flatten(value, out):
    """Appends value's Tensor leaves to out; returns a builder taking the leaves back."""
    if isinstance(value, (tuple, list, dict)):
        builders = [_flatten(v, out) for v in _items(value)]
        if isinstance(value, dict):
            keys = list(value)
            return lambda leaves: {k: b(leaves) for k, b in zip(keys, builders)}
        kind = list if isinstance(value, list) else tuple
        return lambda leaves: kind(b(leaves) for b in builders)
    out.append(value)
    index = len(out) - 1
    return lambda leaves: leaves[index]


def _nest(value, grads):
    """value's gradient: the next leaf gradient for a Tensor, nested tuples for a container."""
    if isinstance(value, (tuple, list, dict)):
        return tuple(_nest(v, grads) for v in _items(value))
    return next(grads)


class _GradFunction:
    """A gradient function, opaque as the C++ one it stands for: graph mode compiles Python
    functions and Cells from source, and a gradient function is neither (grad of a gradient
    function runs as in PyNative)."""
    __slots__ = ("_call", "__name__")

    def __init__(self, call):
        self._call = call
        self.__name__ = "grad_fn"

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)


class GradOperation(_Native):
    __doc__ = _Native.__doc__

    def __call__(self, fn, weights=None):
        native = _Native.__call__(self, fn, weights)
        settings = (self.get_all, self.get_by_list, self.sens_param)

        def grad_fn(*args, **kwargs):
            inputs = args[:-1] if settings[2] and "sens" not in kwargs else args
            if not any(_differentiated_container(a) for a in inputs):
                return native(*args, **kwargs)
            return _over_leaves(fn, weights, settings, inputs, args[len(inputs):], kwargs)

        return _GradFunction(grad_fn)


def _leaf_call(fn, inputs):
    """(fn over the inputs' leaves, the leaves, each input's leaf indices)."""
    flat = []
    builders = []
    spans = []
    for arg in inputs:
        start = len(flat)
        if _differentiated_container(arg):
            builders.append(_flatten(arg, flat))
        else:
            flat.append(arg)
            builders.append(lambda leaves, i=start: leaves[i])
        spans.append(list(range(start, len(flat))))
    count = len(flat)

    def over_leaves(*values, **kw):
        leaves = values[:count]
        return fn(*[b(leaves) for b in builders], *values[count:], **kw)

    return over_leaves, flat, spans


def _over_leaves(fn, weights, settings, inputs, rest, kwargs):
    get_all, get_by_list, sens_param = settings
    over_leaves, flat, _ = _leaf_call(fn, inputs)

    native = _Native(get_all=True, get_by_list=get_by_list, sens_param=sens_param)
    out = native(over_leaves, weights)(*flat, *rest, **kwargs)
    input_grads, weight_grads = (out[0], out[1]) if get_by_list else (out, None)
    leaf_grads = iter(input_grads)
    per_input = [_regroup(arg, leaf_grads) if _differentiated_container(arg) or isinstance(arg, Tensor) else None
                 for arg in inputs]
    differentiated = tuple(g for g in per_input if g is not None)
    if get_all:
        result = differentiated
    else:
        result = per_input[0] if per_input and per_input[0] is not None else ()
    if not get_by_list:
        return result
    return (result, weight_grads) if get_all else weight_grads


def _regroup(arg, leaf_grads):
    """arg's gradient from the leaf gradients: nested for a differentiated container."""
    return _nest(arg, leaf_grads) if _differentiated_container(arg) else next(leaf_grads)


def _positions(grad_position):
    if isinstance(grad_position, int) and not isinstance(grad_position, bool):
        return [grad_position]
    if isinstance(grad_position, tuple) and all(isinstance(p, int) for p in grad_position):
        return list(grad_position)
    return None


def _make(native_maker, with_value):
    def make(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
        native = native_maker(fn, grad_position, weights, has_aux, return_ids=return_ids)

        def grad_fn(*args, **kwargs):
            positions = _positions(grad_position)
            if return_ids or positions is None or not all(0 <= p < len(args) for p in positions) or not any(
                    _differentiated_container(args[p]) for p in positions):
                return native(*args, **kwargs)
            over_leaves, flat, spans = _leaf_call(fn, args)
            leaf_positions = tuple(i for p in positions for i in spans[p])
            out = native_maker(over_leaves, leaf_positions, weights, has_aux)(*flat, **kwargs)
            value = None
            if with_value:
                value, out = out
            aux = None
            if has_aux and not with_value:  # value_and_grad keeps aux beside fn's output
                out, aux = out
            input_grads, weight_grads = (out[0], out[1]) if weights is not None else (out, None)
            if not isinstance(input_grads, tuple):
                input_grads = (input_grads,)
            leaf_grads = iter(input_grads)
            per_position = tuple(_regroup(args[p], leaf_grads) for p in positions)
            result = per_position[0] if isinstance(grad_position, int) else per_position
            if weights is not None:
                result = (result, weight_grads)
            if has_aux and not with_value:
                result = (result, aux)
            return (value, result) if with_value else result

        return _GradFunction(grad_fn)

    if with_value:  # MindSpore 2.2's value_and_grad has no return_ids
        def make_value_and_grad(fn, grad_position=0, weights=None, has_aux=False):
            return make(fn, grad_position, weights, has_aux)
        return make_value_and_grad
    return make


grad = _make(_native_grad, False)
value_and_grad = _make(lambda fn, p, w, a, return_ids=False: _native_value_and_grad(fn, p, w, a), True)

_ops.GradOperation = GradOperation
_ops.grad = grad
_ops.value_and_grad = value_and_grad
mindspore.grad = grad
mindspore.value_and_grad = value_and_grad
_composite.GradOperation = GradOperation
_composite_base.GradOperation = GradOperation
