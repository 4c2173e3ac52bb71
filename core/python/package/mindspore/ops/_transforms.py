"""mindspore.ops.vjp / jvp / jacfwd / jacrev (also mindspore.vjp ... and ops.functional.vjp ...)
and custom_vjp.

vjp and jacrev are built on the C++ GradOperation, jvp and jacfwd on the core's forward mode; every
op these transforms run is recorded like any other (the debugger shows them; grad of vjp, jacfwd
of jacrev ... differentiate them again):

* vjp(fn, *inputs, weights=None, has_aux=False) runs fn once for its outputs; vjp_fn(*v) is
  GradOperation(get_all=True[, get_by_list=True], sens_param=True) with v as the sensitivity.
* jvp(fn, inputs, v) is forward mode: fn runs once under the core's tracer (mindspore._JvpTracer),
  which carries a tangent beside every tensor reached from the inputs and pushes it through each
  op by the op's forward-mode rule, or, for an op without one, by that op's double vjp (Note
  [Forward-mode rules] in core/ops/jvp/jvp_rules.h; `gradstep ops` lists which). The tangent ops
  are recorded like any other, so grad of jvp works, and the debugger shows each forward node's
  tangent beside its value.
* jacrev builds the Jacobian one basis cotangent at a time and stacks the rows with ops.stack.
  jacfwd, as JAX and MindSpore do, runs one jvp under ops.vmap over every basis tangent at once
  (the tangents of all differentiated inputs stacked on one batch axis): each op's tangents move
  through its batching rule, and an op without one runs per basis tangent inside that trace
  (vmap's own fallback; `gradstep ops` lists which ops have a rule). The result's structure is
  MindSpore's: a bare Tensor for one output and one position, a tuple over positions (one
  output) or over outputs (one position), else jac[output][position], each of shape
  output.shape + input.shape.
"""
import numpy as np

import mindspore
import mindspore.nn as _nn
import mindspore.ops as _ops
from mindspore import Tensor
from mindspore.ops import GradOperation

__all__ = ["vjp", "jvp", "jacfwd", "jacrev", "custom_vjp"]


# ---------------------------------------------------------------------------------------------
# checks (MindSpore's wording)

def _check_has_aux(has_aux):
    if not isinstance(has_aux, bool):
        raise TypeError("The 'has_aux' must be bool type.")


def _check_vjp_tensors(values):
    for item in values:
        if not isinstance(item, (Tensor, tuple, list)):
            raise TypeError("The inputs type must be Tensor.")


def _aux_first(fn):
    """fn's first output, for has_aux=True (fn must return two or more outputs)."""

    def first(*args):
        outputs = fn(*args)
        if not isinstance(outputs, tuple) or len(outputs) < 2:
            raise ValueError("When 'has_aux' is True, origin 'fn' requires more than one outputs.")
        return outputs[0]

    return first


def _aux_of(outputs):
    if not isinstance(outputs, tuple) or len(outputs) < 2:
        raise ValueError("When 'has_aux' is True, origin 'fn' requires more than one outputs.")
    return outputs[1] if len(outputs) == 2 else outputs[1:]


def _grad_positions(grad_position, args_num):
    """_check_grad_position: an int or a tuple of ints, each in [0, args_num)."""
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        positions = []
        for gp in grad_position:
            if isinstance(gp, bool):
                gp = int(gp)
            if not isinstance(gp, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if gp < 0:
                raise ValueError("The element in grad_position must be >= 0.")
            positions.append(gp)
    elif isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        positions = [int(grad_position)]
    else:
        raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")
    for gp in positions:
        if gp >= args_num:
            raise ValueError("The element in grad_position must belong to [0, args_num).")
    return positions


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


# ---------------------------------------------------------------------------------------------
# vjp

def vjp(fn, *inputs, weights=None, has_aux=False):
    """(fn's output, vjp_fn[, aux]): vjp_fn(v) gives v^T J for every input (a tuple), and with
    `weights` ((input grads...), (weight grads...))."""
    _check_vjp_tensors(inputs)
    _check_has_aux(has_aux)
    target = _aux_first(fn) if has_aux else fn
    outputs = fn(*inputs)
    if weights is None:
        grad_op = GradOperation(get_all=True, sens_param=True)
    else:
        grad_op = GradOperation(get_all=True, get_by_list=True, sens_param=True)

    def vjp_fn(*v):
        _check_vjp_tensors(v)
        if not v:
            raise TypeError("For 'vjp', 'vjp_fn' needs the vectors (the cotangents of the outputs), "
                            "but got none.")
        sens = v[0] if len(v) == 1 else tuple(v)
        if isinstance(sens, list):
            sens = tuple(sens)
        pullback = grad_op(target) if weights is None else grad_op(target, weights)
        # Compiled, fn's forward (and its Parameter writes) ran once above, as MindSpore's compiler
        # merges it; PyNative runs it again per call, as MindSpore's PyNative does.
        return mindspore._jit_pullback(pullback, *inputs, sens)

    if has_aux:
        return outputs[0] if isinstance(outputs, tuple) else outputs, vjp_fn, _aux_of(outputs)
    return outputs, vjp_fn


# ---------------------------------------------------------------------------------------------
# jvp (forward mode)

def _jvp_raw(fn, inputs, tangents, first_only=False):
    """(fn's outputs, J v as a tuple over fn's outputs (its first only with first_only), whether
    fn returned a tuple)."""
    tracer = mindspore._JvpTracer()
    tracer.install()
    try:
        seeded = tuple(tracer.seed(x, t) if isinstance(x, Tensor) and isinstance(t, Tensor) else x
                       for x, t in zip(inputs, tangents))
        outputs = fn(*seeded)
    finally:
        tracer.uninstall()
    multi = isinstance(outputs, tuple)
    outs = tuple(outputs) if multi else (outputs,)
    if first_only:
        outs = outs[:1]
    jv = []
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError("For 'jvp', the outputs of 'fn' must be Tensors, but got %s." % type(o).__name__)
        t = tracer.tangent(o)
        jv.append(_ops.zeros_like(o) if t is None else t)
    return outputs, tuple(jv), multi


def jvp(fn, inputs, v, has_aux=False):
    """(fn's output, J v[, aux]) with v the tangents of the inputs (same structure as inputs)."""
    _check_has_aux(has_aux)
    if not isinstance(inputs, (Tensor, tuple, list)) or not isinstance(v, (Tensor, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    args = _as_tuple(inputs)
    tangents = _as_tuple(v)
    if len(args) != len(tangents):
        raise ValueError("For 'jvp', the length of 'v' must be the same as the length of 'inputs', but got "
                         "%d and %d." % (len(tangents), len(args)))
    for arg, tangent in zip(args, tangents):
        if isinstance(arg, Tensor) and isinstance(tangent, Tensor) and tuple(arg.shape) != tuple(tangent.shape):
            raise ValueError("For 'jvp', the shape of each element of 'v' must be the same as the "
                             "corresponding input, but got %s and %s." % (tuple(tangent.shape), tuple(arg.shape)))
    if has_aux:
        full, jv, _ = _jvp_raw(fn, args, tangents, first_only=True)
        aux = _aux_of(full)
        return full[0], jv[0], aux
    outputs, jv, multi = _jvp_raw(fn, args, tangents)
    return outputs, (jv if multi else jv[0])


# ---------------------------------------------------------------------------------------------
# Jacobians

def _basis(shape, dtype, index):
    size = int(np.prod(shape)) if shape else 1
    e = np.zeros(size, dtype=mindspore.dtype_to_nptype(dtype))
    e[index] = 1
    return Tensor(e.reshape(shape), dtype)


def _selected(fn, args, positions):
    """fn as a function of the arguments at `positions` only (the others fixed)."""

    def sub(*chosen):
        full = list(args)
        for p, value in zip(positions, chosen):
            full[p] = value
        return fn(*full)

    return sub


def _arrange(jac, n_out, n_in):
    """MindSpore's structure of a Jacobian jac[k][i]."""
    if n_out == 1 and n_in == 1:
        return jac[0][0]
    if n_out == 1:
        return tuple(jac[0])
    if n_in == 1:
        return tuple(row[0] for row in jac)
    return tuple(tuple(row) for row in jac)


def _flat_size(shape):
    return int(np.prod(shape)) if len(shape) else 1


def _check_jac_output(outs):
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError("For 'jacrev' and 'jacfwd', the outputs of 'fn' must be Tensors, but got %s."
                            % type(o).__name__)


def _jac_setup(fn, args, grad_position, has_aux):
    """What jacrev and jacfwd share: the differentiated positions, fn of those arguments alone,
    their values, fn's Tensor outputs (the first only with has_aux), whether fn returned a tuple,
    and the aux outputs (None without has_aux)."""
    positions = _grad_positions(grad_position, len(args))
    target = _aux_first(fn) if has_aux else fn
    sub = _selected(target, args, positions)
    chosen = [args[p] for p in positions]
    outputs = fn(*args)
    aux = None
    if has_aux:
        aux = _aux_of(outputs)
        outs, multi = (outputs[0],), False
    else:
        multi = isinstance(outputs, tuple)
        outs = tuple(outputs) if multi else (outputs,)
    _check_jac_output(outs)
    return positions, sub, chosen, outs, multi, aux


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian function of fn by reverse mode (one vjp per output element)."""
    _check_has_aux(has_aux)

    def wrapped(*args):
        positions, sub, chosen, outs, multi, aux = _jac_setup(fn, args, grad_position, has_aux)
        grad_op = GradOperation(get_all=True, sens_param=True)(sub)
        jac = []
        for k, out in enumerate(outs):
            out_shape = tuple(out.shape)
            rows = [[] for _ in positions]
            for e in range(_flat_size(out_shape)):
                sens = [_ops.zeros_like(o) for o in outs]
                sens[k] = _basis(out_shape, out.dtype, e)
                grads = grad_op(*chosen, tuple(sens) if multi else sens[0])
                for i, g in enumerate(_as_tuple(grads)):
                    rows[i].append(g)
            row_k = []
            for i, x in enumerate(chosen):
                stacked = _ops.stack(rows[i], 0)
                row_k.append(_ops.reshape(stacked, out_shape + tuple(x.shape)))
            jac.append(row_k)
        result = _arrange(jac, len(outs), len(positions))
        if has_aux:
            return result, aux
        return result

    return wrapped


def _stacked_bases(chosen):
    """The tangents of the one vmapped jvp that gives every Jacobian column: N = the inputs' total
    size tangents per input, where rows offset_i ... offset_i + n_i - 1 of input i's are its basis
    vectors and every other row is zero. Returns them with each input's (offset, size)."""
    sizes = [_flat_size(tuple(x.shape)) for x in chosen]
    total = sum(sizes)
    tangents, spans, offset = [], [], 0
    for x, n in zip(chosen, sizes):
        rows = np.zeros((total, n), dtype=mindspore.dtype_to_nptype(x.dtype))
        rows[offset:offset + n] = np.eye(n, dtype=rows.dtype)
        tangents.append(Tensor(rows.reshape((total,) + tuple(x.shape)), x.dtype))
        spans.append((offset, n))
        offset += n
    return tangents, spans


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian function of fn by forward mode: one jvp vmapped over every basis tangent."""
    _check_has_aux(has_aux)

    def wrapped(*args):
        positions, sub, chosen, outs, _, aux = _jac_setup(fn, args, grad_position, has_aux)
        tangents, spans = _stacked_bases(chosen)

        def columns(*basis):
            return _jvp_raw(sub, tuple(chosen), basis)[1]

        # column e of every output's Jacobian at e of the batch (the last axis)
        batched = _ops.vmap(columns, in_axes=0, out_axes=-1)(*tangents)
        jac = []
        for out, cols in zip(outs, batched):
            row_k = []
            for x, (offset, n) in zip(chosen, spans):
                part = cols if len(spans) == 1 else cols[..., offset:offset + n]
                row_k.append(_ops.reshape(part, tuple(out.shape) + tuple(x.shape)))
            jac.append(row_k)
        result = _arrange(jac, len(outs), len(positions))
        if has_aux:
            return result, aux
        return result

    return wrapped


# ---------------------------------------------------------------------------------------------
# custom_vjp: a function with a user-defined backward (a Cell with a bprop, as in MindSpore)

class _CustomVjp(_nn.Cell):
    """fn as a Cell whose bprop is the function given to defbwd(bwd): bwd(*inputs, out, dout)."""

    def __init__(self, fwd):
        super().__init__()
        self.fwd = fwd
        self.bwd = None

    def construct(self, *args):
        return self.fwd(*args)

    def defbwd(self, bwd):
        self.bwd = bwd

    def bprop(self, *args):
        if self.bwd is None:
            raise RuntimeError("For 'custom_vjp', the backward function is not defined: call defbwd(bwd) first.")
        return self.bwd(*args)


def custom_vjp(fn=None):
    """Decorator: fn gets a custom backward, set with fn.defbwd(bwd)."""

    def deco(f):
        return _CustomVjp(f)

    if fn is not None:
        return deco(fn)
    return deco


for _name in ("vjp", "jvp", "jacfwd", "jacrev"):
    setattr(_ops, _name, globals()[_name])
    setattr(mindspore, _name, globals()[_name])
_ops.custom_vjp = custom_vjp
