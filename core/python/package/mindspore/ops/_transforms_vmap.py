"""mindspore.ops.vmap (also mindspore.vmap and mindspore.ops.functional.vmap).

gradstep vectorizes by running `fn` once per batch element and stacking the results with
ops.stack: each mapped argument is sliced along its `in_axes` axis (Tensor indexing), `fn` runs
on the slices, and each output is stacked along its `out_axes` axis. The results equal
MindSpore's (which pushes the loop into each primitive's VmapRule), and gradients flow through
the slicing and the stacking, so grad(vmap(f)) and vmap(grad(f)) work, nested vmap too.

MindSpore's rules kept here:
* in_axes / out_axes: an int (every argument / output, and every element of a nested tuple or
  list), None (not mapped), or a tuple/list with one entry per argument / output, nested like
  the arguments / outputs; negative axes count from the end ([-ndim, ndim)); for outputs, ndim
  is the rank of the vmapped output (the batch axis included).
* Every mapped axis must have the same size; at least one argument must be mapped.
* An output that does not depend on the mapped arguments is broadcast along its out axis when
  that axis is not None (a Python scalar becomes a Tensor); with out axis None it is returned
  as it is. A batched output with out axis None is an error.
* fn may be a function, a Cell, or a CellList (model ensembling: cell i runs on batch element i).

A Parameter mapped along an axis is updated in place as in MindSpore: fn's writes to its slice
(ops.assign, optimizer primitives such as P.Adam) are collected per element and written back into
the Parameter after the loop (Note [Parameters mapped by vmap] in ops/_functional_util.py).

Differences (gradstep runs the loop): whether an output "depends on the batch" is decided from
the values (all elements equal -> not batched). The error texts of in_axes/out_axes mismatches follow
MindSpore's where its text is known (lengths, bounds, "source is not None and dst is None").
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


def vmap(fn, in_axes=0, out_axes=0):
    """fn vectorized over the axes `in_axes` of its arguments; results stacked along `out_axes`."""
    cell_list = getattr(_nn, "CellList", None)
    ensemble = cell_list is not None and isinstance(fn, cell_list)
    if not ensemble and not callable(fn):
        raise TypeError("For 'vmap', 'fn' must be a function, a Cell or a CellList, but got %s."
                        % type(fn).__name__)
    _check_axes_type(in_axes, "in_axes")
    _check_axes_type(out_axes, "out_axes")
    if _all_none(in_axes):
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
