"""mindspore.ops.vmap (also mindspore.vmap and mindspore.ops.functional.vmap).

gradstep vectorizes as MindSpore does, by batching rules: `fn` runs once, on logical tensors that
each stand for one batch element (they have the element's shape) while their values are held,
batch first, by a core tracer (mindspore._BatchTracer). Every op fn reaches runs over the whole
batch through its rule; an op without one runs per element inside the same trace (Note [Batching
rules] in core/ops/batching/batch_rules.h; `gradstep ops` lists which ops have a rule). Gradient
calls inside fn (vmap(grad(f))) differentiate the whole batch at once and give per-element
gradients (Note [Per-element gradients] in core/api/batch_tracer.h); grad(vmap(f)) differentiates
the batched ops themselves. Nested vmap nests the tracers.

An output is batched when it depends on a mapped argument (structurally, whatever its values); an
output that does not is broadcast along its out axis when that axis is not None (a Python scalar
becomes a Tensor) and returned as it is with out axis None. A batched output with out axis None is
an error.

MindSpore's rules kept here:
* in_axes / out_axes: an int (every argument / output, and every element of a nested tuple or
  list), None (not mapped), or a tuple/list with one entry per argument / output, nested like
  the arguments / outputs; negative axes count from the end ([-ndim, ndim)); for outputs, ndim
  is the rank of the vmapped output (the batch axis included).
* Every mapped axis must have the same size; at least one argument must be mapped, except for a
  CellList.
* fn may be a function, a Cell, or a CellList (model ensembling: cell i runs on batch element i;
  with in_axes all None every cell runs on the same arguments and the batch is the cells).

Where gradstep runs fn once per batch element and stacks the results instead (the values are the
same): a CellList (each element has its own cell), a mapped Parameter (updated in place as in
MindSpore: fn's writes to its slice, by ops.assign or optimizer primitives such as P.Adam, are
collected per element and written back after the loop; Note [Parameters mapped by vmap] in
ops/_functional_util.py), and a function the tracer cannot follow (one that reads a batched
tensor's values in Python, writes state, draws random numbers without a batched input, or fails
on the logical tensors): it then runs per
element, where an output that is the same for every element counts as not batched. The error
texts of in_axes/out_axes mismatches follow MindSpore's where its text is known (lengths, bounds,
"source is not None and dst is None").
"""
import numbers

import numpy as np

import mindspore
import mindspore.nn as _nn
import mindspore.ops as _ops
from mindspore import Parameter, Tensor
from mindspore.ops import _functional_util as _U

__all__ = ["vmap"]


def _check_axes_type(axes, name):
    if axes is None or (isinstance(axes, int) and not isinstance(axes, bool)):
        return
    if isinstance(axes, (tuple, list)):
        for item in axes:
            _check_axes_type(item, name)
        return
    raise RuntimeError("The axis in vmap's '%s' should be a None or a scalar of type Int64Imm, but got %r."
                       % (name, axes))


def _all_none(axes):
    if axes is None:
        return True
    if isinstance(axes, (tuple, list)):
        return all(_all_none(a) for a in axes)
    return False


def _normalize(axis, rank, what):
    if axis < -rank or axis >= rank:
        raise ValueError("For 'vmap', the axis %d in '%s' is out of bounds for array of dimension [%d,%d)."
                         % (axis, what, -rank, rank))
    return axis + rank if axis < 0 else axis


def _bind_in_axes(arg, axis, sizes):
    """The axis of each leaf of `arg` (same nesting), normalized; records the mapped sizes."""
    if isinstance(arg, (tuple, list)):
        if isinstance(axis, (tuple, list)):
            if len(arg) != len(axis):
                raise RuntimeError("The length of input and in_axis should be the same but got input length: "
                                   "%d, in_axis length: %d." % (len(arg), len(axis)))
            return [_bind_in_axes(a, x, sizes) for a, x in zip(arg, axis)]
        return [_bind_in_axes(a, axis, sizes) for a in arg]
    if isinstance(axis, (tuple, list)):
        raise RuntimeError("For 'vmap', the 'in_axes' of an argument that is not a tuple or list must be an int "
                           "or None, but got %r." % (axis,))
    if axis is None:
        return None
    if not isinstance(arg, Tensor):
        raise RuntimeError("A variable of type other than `Tensor` is accepted, but the source axis is not `None`")
    rank = len(arg.shape)
    if rank == 0:
        raise ValueError("For 'vmap', the argument mapped along axis %d must be a Tensor of rank >= 1, but got a "
                         "scalar Tensor." % axis)
    axis = _normalize(axis, rank, "in_axes")
    sizes.append(arg.shape[axis])
    return axis


def _take(arg, axis, index, slices):
    """arg's batch element `index`; the slices of mapped Parameters are appended to `slices` as
    (Parameter, axis, ParameterSlice)."""
    if isinstance(arg, (tuple, list)):
        items = [_take(a, x, index, slices) for a, x in zip(arg, axis)]
        return tuple(items) if isinstance(arg, tuple) else items
    if axis is None:
        return arg
    piece = arg[(slice(None),) * axis + (index,)]
    if isinstance(arg, Parameter):
        slices.append((arg, axis, _U.ParameterSlice(piece)))
    return piece


def _call_on_slices(target, sliced, kwargs, slices):
    """target(*sliced, **kwargs) with this element's Parameter slices registered, so writes to them
    are collected (Note [Parameters mapped by vmap])."""
    for _, _, entry in slices:
        _U._vmap_slices[id(entry.tensor)] = entry
    try:
        return target(*sliced, **kwargs)
    finally:
        for _, _, entry in slices:
            _U._vmap_slices.pop(id(entry.tensor), None)


def _write_back(per_element):
    """Writes each mapped Parameter that fn wrote to: its slices, written or not, stacked."""
    if not per_element or not any(entry.written is not None for slices in per_element for _, _, entry in slices):
        return
    for k, (parameter, axis, _) in enumerate(per_element[0]):
        entries = [slices[k][2] for slices in per_element]
        if all(e.written is None for e in entries):
            continue
        values = [e.tensor if e.written is None else e.written for e in entries]
        _U.write_parameter("vmap", parameter, _ops.stack(values, axis))


def _same(values):
    first = values[0]
    if all(v is first for v in values[1:]):
        return True
    if isinstance(first, Tensor):
        ref = first.asnumpy()
        return all(isinstance(v, Tensor) and tuple(v.shape) == tuple(first.shape)
                   and np.array_equal(v.asnumpy(), ref) for v in values[1:])
    try:
        return all(bool(v == first) for v in values[1:])
    except Exception:  # values without a usable ==: treat as batched
        return False


def _stack_leaf(values, axis, axis_size):
    first = values[0]
    if axis is None:
        if not _same(values):
            raise RuntimeError("It is invalid that source is not None and dst is None.")
        return first
    if isinstance(first, Tensor):
        rank = len(first.shape) + 1
        axis = _normalize(axis, rank, "out_axes")
        return _ops.stack(list(values), axis)
    if isinstance(first, (bool, numbers.Number)):
        if not _same(values):
            return Tensor(np.array(values))
        return Tensor(np.full((axis_size,), first))
    raise TypeError("For 'vmap', the outputs of 'fn' must be Tensors, numbers or tuples and lists of them, but "
                    "got %s." % type(first).__name__)


def _match_out_axes(results, axes, axis_size):
    first = results[0]
    if isinstance(first, (tuple, list)):
        if isinstance(axes, (tuple, list)):
            if len(axes) != len(first):
                raise RuntimeError("The length of out_axes and inputs do not match. ")
            items = [_match_out_axes([r[i] for r in results], axes[i], axis_size) for i in range(len(first))]
        else:
            items = [_match_out_axes([r[i] for r in results], axes, axis_size) for i in range(len(first))]
        return tuple(items) if isinstance(first, tuple) else items
    if isinstance(axes, (tuple, list)):
        raise RuntimeError("The length of out_axes and inputs do not match. ")
    return _stack_leaf(results, axes, axis_size)


def _maps_parameter(arg, axis):
    if isinstance(arg, (tuple, list)):
        return any(_maps_parameter(a, x) for a, x in zip(arg, axis))
    return axis is not None and isinstance(arg, Parameter)


def _bind_logical(tracer, arg, axis):
    if isinstance(arg, (tuple, list)):
        items = [_bind_logical(tracer, a, x) for a, x in zip(arg, axis)]
        return tuple(items) if isinstance(arg, tuple) else items
    return arg if axis is None else tracer.bind(arg, axis)


class _Batched:
    """A batched output leaf: its physical tensor, batch at axis 0."""
    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


def _to_physical(tracer, out):
    if isinstance(out, (tuple, list)):
        items = [_to_physical(tracer, o) for o in out]
        return tuple(items) if isinstance(out, tuple) else items
    physical = tracer.physical(out) if isinstance(out, Tensor) else None
    return out if physical is None else _Batched(physical)


def _place_leaf(leaf, axis, axis_size):
    if isinstance(leaf, _Batched):
        if axis is None:
            raise RuntimeError("It is invalid that source is not None and dst is None.")
        t = leaf.tensor
        axis = _normalize(axis, len(t.shape), "out_axes")
        return t if axis == 0 else _ops.moveaxis(t, 0, axis)
    return _stack_leaf([leaf] * axis_size, axis, axis_size)


def _place(out, axes, axis_size):
    if isinstance(out, (tuple, list)):
        if isinstance(axes, (tuple, list)):
            if len(axes) != len(out):
                raise RuntimeError("The length of out_axes and inputs do not match. ")
            items = [_place(o, a, axis_size) for o, a in zip(out, axes)]
        else:
            items = [_place(o, axes, axis_size) for o in out]
        return tuple(items) if isinstance(out, tuple) else items
    if isinstance(axes, (tuple, list)):
        raise RuntimeError("The length of out_axes and inputs do not match. ")
    return _place_leaf(out, axes, axis_size)


def _run_batched(fn, args, bound, kwargs, axis_size):
    """fn traced once over logical tensors; its outputs with batched leaves as _Batched, or None
    when the trace cannot run fn (the caller then loops)."""
    tracer = mindspore._BatchTracer(axis_size)
    try:
        logical = [_bind_logical(tracer, a, x) for a, x in zip(args, bound)]
        tracer.install()
        try:
            out = fn(*logical, **kwargs)
        finally:
            tracer.uninstall()
        return (_to_physical(tracer, out),)
    except Exception:  # anything the trace cannot follow runs per element, which raises real errors
        return None


def vmap(fn, in_axes=0, out_axes=0):
    """fn vectorized over the axes `in_axes` of its arguments; results stacked along `out_axes`."""
    cell_list = getattr(_nn, "CellList", None)
    ensemble = cell_list is not None and isinstance(fn, cell_list)
    if not ensemble and not callable(fn):
        raise TypeError("For 'vmap', 'fn' must be a function, a Cell or a CellList, but got %s."
                        % type(fn).__name__)
    _check_axes_type(in_axes, "in_axes")
    _check_axes_type(out_axes, "out_axes")
    # A CellList is mapped over its cells, so its arguments may all be shared (in_axes all None).
    if _all_none(in_axes) and not ensemble:
        raise RuntimeError("The 'in_axes' of 'vmap' can not be all None, at least one argument must be mapped.")
    if _all_none(out_axes):
        raise RuntimeError("The 'out_axes' of 'vmap' can not be all None.")

    def vmapped(*args, **kwargs):
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise RuntimeError("The length of vmap_app inputs (except primitive input and monad input) is: "
                                   "%d and the length of in_axis is: %d. These two numbers should be equal."
                                   % (len(args), len(in_axes)))
            axes = list(in_axes)
        else:
            axes = [in_axes] * len(args)
        sizes = []
        bound = [_bind_in_axes(a, x, sizes) for a, x in zip(args, axes)]
        if not sizes and ensemble:
            sizes = [len(fn)]
        if not sizes:
            raise RuntimeError("For 'vmap', at least one argument must be mapped (a Tensor with an axis in "
                               "'in_axes' that is not None), but got none.")
        axis_size = sizes[0]
        for size in sizes[1:]:
            if size != axis_size:
                raise ValueError("The 'axis_size' of each argument in the scope of 'vmap' should be equal, but "
                                 "got %d and %d." % (axis_size, size))
        if ensemble and len(fn) != axis_size:
            raise ValueError("For 'vmap', the size of the CellList must be equal to the axis size %d, but got %d."
                             % (axis_size, len(fn)))
        if not ensemble and not _maps_parameter(args, bound):
            traced = _run_batched(fn, args, bound, kwargs, axis_size)
            if traced is not None:
                return _place(traced[0], out_axes, axis_size)
        results = []
        per_element = []
        for b in range(axis_size):
            slices = []
            sliced = [_take(a, x, b, slices) for a, x in zip(args, bound)]
            target = fn[b] if ensemble else fn
            results.append(_call_on_slices(target, sliced, kwargs, slices))
            per_element.append(slices)
        _write_back(per_element)
        return _match_out_axes(results, out_axes, axis_size)

    return vmapped


_ops.vmap = vmap
mindspore.vmap = vmap
