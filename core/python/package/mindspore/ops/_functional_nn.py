"""Normalisation, loss kernels, einsum and friends of mindspore.ops composed from gradstep's C++
ops (differentiable to any order)."""
import numpy as np

import mindspore
import mindspore.ops as ops
import mindspore.ops._functional_array  # noqa: F401  (ops._functional_array._symbolic)
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _reduce(op, loss, reduction, weights=None):
    U.check_reduction(op, reduction)
    if weights is not None:
        loss = loss * weights
    if reduction == "mean":
        return ops.mean(loss)
    if reduction == "sum":
        return ops.sum(loss)
    return loss


# ---------------------------------------------------------------- channel dropout
def _channel_dropout(op, ranks, input, p, training):
    """Zeroes whole channels with probability p, scaling the kept ones by 1 / (1 - p): one draw per
    (sample, channel) through ops.dropout, so compiled code draws a new mask on every call. An
    input of the lowest rank in `ranks` below the batched one has no batch axis: its channels are
    axis 0."""
    _t(op, input)
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError("For '%s', the 'p' must be float, but got %s." % (op, type(p).__name__))
    if not 0.0 <= p <= 1.0:
        raise ValueError("For '%s', the 'p' must be a number in range [0, 1], but got %s." % (op, p))
    if input.ndim not in ranks:
        raise ValueError("For '%s', the dimension of 'input' must be %s, but got %d."
                         % (op, " or ".join(map(str, ranks)), input.ndim))
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0
    batched = input.ndim == max(ranks)
    channel_axes = 2 if batched else 1
    shape = tuple(input.shape[:channel_axes]) + (1,) * (input.ndim - channel_axes)
    mask = ops.dropout(ops.ones(shape, mstype.float32), p=float(p), training=True)
    if input.dtype in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        return input * ops.stop_gradient(mask.astype(input.dtype))
    return (input.astype(mstype.float32) * ops.stop_gradient(mask)).astype(input.dtype)


@export(_F)
def dropout1d(input, p=0.5, training=True):
    return _channel_dropout("dropout1d", (2, 3), input, p, training)


@export(_F)
def dropout2d(input, p=0.5, training=True):
    return _channel_dropout("dropout2d", (4,), input, p, training)


@export(_F)
def dropout3d(input, p=0.5, training=True):
    return _channel_dropout("dropout3d", (5,), input, p, training)


# ---------------------------------------------------------------- matmul family
@export(_F)
def batch_matmul(x, y, transpose_a=False, transpose_b=False):
    if transpose_a:
        x = ops.swapaxes(x, -1, -2)
    if transpose_b:
        y = ops.swapaxes(y, -1, -2)
    return ops.matmul(x, y)


@export(_F)
def mm(input, mat2):
    if input.ndim != 2 or mat2.ndim != 2:
        raise ValueError("For 'mm', the inputs must be 2-D, but got ranks %d and %d." % (input.ndim, mat2.ndim))
    return ops.matmul(input, mat2)


@export(_F)
def tensor_dot(x1, x2, axes):
    if isinstance(axes, int):
        a1 = tuple(range(x1.ndim - axes, x1.ndim))
        a2 = tuple(range(axes))
    else:
        a1, a2 = axes
        a1 = (a1,) if isinstance(a1, int) else tuple(a1)
        a2 = (a2,) if isinstance(a2, int) else tuple(a2)
    a1 = tuple(a % x1.ndim for a in a1)
    a2 = tuple(a % x2.ndim for a in a2)
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = int(np.prod([x1.shape[a] for a in a1], dtype=np.int64))
    m = ops.reshape(ops.transpose(x1, tuple(free1) + a1), (-1, k))
    n = ops.reshape(ops.transpose(x2, a2 + tuple(free2)), (k, -1))
    return ops.reshape(ops.matmul(m, n), tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2))


@export(_F)
def kron(input, other):
    a = ops.reshape(input, tuple(d for s in input.shape for d in (s, 1)))
    b = ops.reshape(other, tuple(d for s in other.shape for d in (1, s)))
    return ops.reshape(a * b, tuple(i * j for i, j in zip(input.shape, other.shape)))


def _einsum_parse(equation, operands):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError("For 'Einsum', the number of inputs must match the equation, but got %d and "
                         "the equation '%s'." % (len(operands), equation))
    # Ellipsis: give it unique upper-case stand-ins.
    ell_rank = 0
    for term, x in zip(terms, operands):
        if "..." in term:
            ell_rank = max(ell_rank, x.ndim - (len(term) - 3))
    ell = "".join(chr(0x3B1 + i) for i in range(ell_rank))  # greek letters, never user letters
    fixed = []
    for term, x in zip(terms, operands):
        if "..." in term:
            own = x.ndim - (len(term) - 3)
            term = term.replace("...", ell[ell_rank - own:])
        if len(term) != x.ndim:
            raise ValueError("For 'Einsum', the subscript '%s' does not match an input of rank %d." % (term, x.ndim))
        fixed.append(term)
    if out is None:
        letters = "".join(fixed)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    return fixed, out


def _einsum_letter(n):
    if n is Ellipsis:
        return "..."
    if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 52:
        return chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)
    raise ValueError("For Einsum, the number in sublist should be in range [0, 52), but got %s" % (n,))


def _einsum_sublists(first, rest):
    """The sublist form einsum(op1, sub1, op2, sub2, ..., [sub_out]) as (equation, operands)."""
    items = (first,) + tuple(rest)
    operands = items[0::2]
    subs = items[1::2]
    out = None
    if len(items) % 2 == 1:  # a trailing output sublist
        operands, out = items[0:-1:2], items[-1]
        subs = items[1:-1:2]
    eq = ",".join("".join(_einsum_letter(n) for n in sub) for sub in subs)
    if out is not None:
        eq += "->" + "".join(_einsum_letter(n) for n in out)
    return eq, tuple(operands)


@export(_F)
def einsum(equation, *operands):
    if isinstance(equation, Tensor):
        equation, operands = _einsum_sublists(equation, operands)
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    terms, out = _einsum_parse(equation, operands)
    sizes = {}
    for term, x in zip(terms, operands):
        for c, d in zip(term, x.shape):
            if sizes.get(c, 1) != 1 and d != 1 and sizes[c] != d:
                raise ValueError("For 'Einsum', the dimension of '%s' differs between inputs: %d and %d."
                                 % (c, sizes[c], d))
            sizes[c] = max(sizes.get(c, 1), d)
    # Two operands with one contracted letter set: a batched matmul (the common case).
    if len(operands) == 2:
        r = _einsum_pair(terms[0], operands[0], terms[1], operands[1], out, sizes)
        if r is not None:
            return r
    order = list(out) + sorted(c for c in sizes if c not in out)
    prodt = None
    for term, x in zip(terms, operands):
        x = _diag_repeated(term, x)
        term = "".join(dict.fromkeys(term))
        perm = [term.index(c) for c in order if c in term]
        y = ops.transpose(x, tuple(perm)) if perm != list(range(len(perm))) else x
        y = ops.reshape(y, tuple(y.shape[perm.index(term.index(c))] if c in term else 1 for c in order)) \
            if len(order) else y
        prodt = y if prodt is None else prodt * y
    extra = tuple(range(len(out), len(order)))
    if extra:
        prodt = ops.sum(prodt, extra)
    return ops.broadcast_to(prodt, tuple(sizes[c] for c in out)) if len(out) else prodt


def _diag_repeated(term, x):
    """x with repeated subscripts (ii) reduced to their diagonal."""
    while len(set(term)) != len(term):
        for c in term:
            if term.count(c) > 1:
                i = term.index(c)
                j = term.index(c, i + 1)
                x = ops.diagonal(x, 0, i, j)
                term = term[:i] + term[i + 1:j] + term[j + 1:] + c
                term = term
                break
    return x


def _einsum_pair(ta, a, tb, b, out, sizes):
    if len(set(ta)) != len(ta) or len(set(tb)) != len(tb):
        return None
    batch = [c for c in out if c in ta and c in tb]
    free_a = [c for c in out if c in ta and c not in tb]
    free_b = [c for c in out if c in tb and c not in ta]
    contract = [c for c in ta if c in tb and c not in out]
    if any(c not in out and c not in contract for c in ta + tb):
        return None  # a letter summed within one operand
    if any(a.shape[ta.index(c)] != b.shape[tb.index(c)] for c in batch + contract):
        return None  # broadcasting: the general path
    pa = [ta.index(c) for c in batch + free_a + contract]
    pb = [tb.index(c) for c in batch + contract + free_b]
    nb = [sizes[c] for c in batch]
    ma = int(np.prod([sizes[c] for c in free_a], dtype=np.int64))
    k = int(np.prod([sizes[c] for c in contract], dtype=np.int64))
    nbv = int(np.prod([sizes[c] for c in free_b], dtype=np.int64))
    A = ops.reshape(ops.transpose(a, tuple(pa)), tuple(nb) + (ma, k))
    B = ops.reshape(ops.transpose(b, tuple(pb)), tuple(nb) + (k, nbv))
    C = ops.matmul(A, B)
    res_order = batch + free_a + free_b
    C = ops.reshape(C, tuple(sizes[c] for c in res_order))
    perm = [res_order.index(c) for c in out]
    return ops.transpose(C, tuple(perm)) if perm != list(range(len(perm))) else C


# ---------------------------------------------------------------- normalisation
@export(_F)
def l2_normalize(x, axis=0, epsilon=1e-4):
    _t("L2Normalize", x, "x")
    axes = U.norm_axes("L2Normalize", axis, x.ndim)
    sq = ops.sum(x * x, axes, True)
    return x * ops.rsqrt(ops.maximum(sq, U.as_tensor(epsilon, like=sq)))


@export(_F)
def normalize(input, p=2.0, dim=1, eps=1e-12):
    if p == 2.0:
        n = ops.sqrt(ops.sum(input * input, dim, True))
    else:
        n = ops.pow(ops.sum(ops.pow(ops.abs(input), p), dim, True), 1.0 / p)
    return input / ops.maximum(n, U.as_tensor(eps, like=n))


def _fusable(x, gamma, beta):
    """Whether the fused LayerNorm / GroupNorm kernels take these operands (one float dtype)."""
    return isinstance(gamma, Tensor) and isinstance(beta, Tensor) \
        and x.dtype in (mstype.float16, mstype.float32, mstype.float64) \
        and gamma.dtype == x.dtype and beta.dtype == x.dtype


def _layer_norm_core(x, axes, gamma, beta, eps):
    mean = ops.mean(x, axes, True)
    d = x - mean
    var = ops.mean(d * d, axes, True)
    rstd = ops.rsqrt(var + eps)
    y = d * rstd
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y, mean, rstd


@export(_F)
def layer_norm(input_x, normalized_shape, weight=None, bias=None, eps=1e-5):
    _t("layer_norm", input_x, "input_x")
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    k = len(normalized_shape)
    if tuple(input_x.shape[input_x.ndim - k:]) != normalized_shape:
        raise ValueError("For 'layer_norm', the last dimensions of 'input_x' %s must equal "
                         "'normalized_shape' %s." % (tuple(input_x.shape), normalized_shape))
    axes = tuple(range(input_x.ndim - k, input_x.ndim))
    if _fusable(input_x, weight, bias) and k > 0 and tuple(weight.shape) == tuple(bias.shape) == normalized_shape:
        return ops._layer_norm(input_x, weight, bias, input_x.ndim - k, input_x.ndim - k, float(eps))[0]
    return _layer_norm_core(input_x, axes, weight, bias, eps)[0]


@export(_F)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    _t("group_norm", input)
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise ValueError("For 'group_norm', the 'num_channels' must be divisible by 'num_groups', "
                         "but got %d and %d." % (c, num_groups))
    rest = tuple(input.shape[2:])
    if _fusable(input, weight, bias) and tuple(weight.shape) == tuple(bias.shape) == (c,):
        return ops._group_norm(input, weight, bias, num_groups, float(eps))[0]
    x = ops.reshape(input, (n, num_groups, -1))
    y = _layer_norm_core(x, (2,), None, None, eps)[0]
    y = ops.reshape(y, tuple(input.shape))
    view = (1, c) + (1,) * len(rest)
    if weight is not None:
        y = y * ops.reshape(weight, view)
    if bias is not None:
        y = y + ops.reshape(bias, view)
    return y


@export(_F)
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    if use_input_stats and input.ndim >= 3 and _fusable(input, weight, bias) \
            and tuple(weight.shape) == tuple(bias.shape) == (input.shape[1],):
        return ops._group_norm(input, weight, bias, input.shape[1], float(eps))[0]  # one channel per group
    axes = tuple(range(2, input.ndim))
    y = _layer_norm_core(input, axes, None, None, eps)[0]
    view = (1, input.shape[1]) + (1,) * (input.ndim - 2)
    if weight is not None:
        y = y * ops.reshape(weight, view)
    if bias is not None:
        y = y + ops.reshape(bias, view)
    return y


def _assign_value(target, value):
    if isinstance(target, mindspore.Parameter):
        U.write_parameter("BatchNorm", target, value)


@export(_F)
def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    _t("BatchNorm", input_x, "input_x")
    c = input_x.shape[1]
    view = (1, c) + (1,) * (input_x.ndim - 2)
    axes = (0,) + tuple(range(2, input_x.ndim))
    if _fusable(input_x, weight, bias) and isinstance(running_mean, Tensor) and isinstance(running_var, Tensor) \
            and running_mean.dtype == running_var.dtype == input_x.dtype:
        # One BatchNorm node; the running statistics move as below.
        y, mean, var = ops._batch_norm(input_x, weight, bias, running_mean, running_var, bool(training), float(eps))
        if training:
            n = int(np.prod([input_x.shape[a] for a in axes], dtype=np.int64))
            _assign_value(running_mean, running_mean * (1.0 - momentum) + mean * momentum)
            _assign_value(running_var, running_var * (1.0 - momentum) + var * (float(n) / max(n - 1, 1)) * momentum)
        return y
    if training:
        mean = ops.mean(input_x, axes, True)
        d = input_x - mean
        var = ops.mean(d * d, axes, True)
        n = int(np.prod([input_x.shape[a] for a in axes], dtype=np.int64))
        unbiased = ops.reshape(var, (c,)) * (float(n) / max(n - 1, 1))
        _assign_value(running_mean, running_mean * (1.0 - momentum) + ops.reshape(mean, (c,)) * momentum)
        _assign_value(running_var, running_var * (1.0 - momentum) + unbiased * momentum)
        y = d * ops.rsqrt(var + eps)
    else:
        y = (input_x - ops.reshape(running_mean, view)) * ops.rsqrt(ops.reshape(running_var, view) + eps)
    return y * ops.reshape(weight, view) + ops.reshape(bias, view)


@export(_F)
def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0):
    sq = x * x
    c = x.shape[1]
    padded = ops.pad(sq, (0, 0) * (x.ndim - 2) + (size // 2, (size - 1) // 2))
    acc = None
    for i in range(size):
        part = ops.narrow(padded, 1, i, c)
        acc = part if acc is None else acc + part
    return x / ops.pow(acc * (alpha / size) + k, beta)


# ---------------------------------------------------------------- losses
@export(_F)
def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    _t("nll_loss", inputs, "inputs")
    _t("nll_loss", target, "target")
    U.check_reduction("nll_loss", reduction)
    c = inputs.shape[1] if inputs.ndim > 1 else inputs.shape[0]
    x = inputs
    tgt = target
    if x.ndim > 2:  # (N, C, d...) -> (N*d..., C)
        perm = (0,) + tuple(range(2, x.ndim)) + (1,)
        x = ops.reshape(ops.transpose(x, perm), (-1, c))
        tgt = ops.reshape(tgt, (-1,))
    elif x.ndim == 1:
        x = ops.reshape(x, (1, c))
        tgt = ops.reshape(tgt, (1,))
    tgt = tgt.astype(mstype.int64)
    valid = ops.ne(tgt, ignore_index)
    safe = ops.select(valid, tgt, ops.zeros_like(tgt))
    picked = ops.squeeze(ops.gather_elements(x, 1, ops.expand_dims(safe, 1)), 1)
    w = ops.ones((c,), x.dtype) if weight is None else weight.astype(x.dtype)
    wt = ops.gather(w, safe, 0) * valid.astype(x.dtype)
    loss = -picked * wt
    if label_smoothing > 0:
        smooth = -ops.sum(x * ops.reshape(w, (1, c)), 1) * valid.astype(x.dtype)
        loss = loss * (1.0 - label_smoothing) + smooth * (label_smoothing / c)
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "mean":
        return ops.sum(loss) / ops.sum(wt)
    return ops.reshape(loss, tuple(target.shape))


@export(_F)
def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    _t("BinaryCrossEntropy", logits, "logits")
    _t("BinaryCrossEntropy", labels, "labels")
    if tuple(logits.shape) != tuple(labels.shape):
        raise ValueError("For 'BinaryCrossEntropy', the 'logits' shape %s must be the same as 'labels' "
                         "shape %s." % (tuple(logits.shape), tuple(labels.shape)))
    eps = 1e-12
    one = U.as_tensor(1.0, like=logits)
    lo = ops.log(ops.maximum(logits, U.as_tensor(eps, like=logits)))
    l1 = ops.log(ops.maximum(one - logits, U.as_tensor(eps, like=logits)))
    loss = -(labels * lo + (one - labels) * l1)
    return _reduce("BinaryCrossEntropy", loss, reduction, weight)


@export(_F)
def kl_div(logits, labels, reduction="mean", log_target=False):
    U.check_str("kl_div", "reduction", reduction, ("none", "mean", "sum", "batchmean"))
    if log_target:
        loss = ops.exp(labels) * (labels - logits)
    else:
        loss = ops.xlogy(labels, labels) - labels * logits
    if reduction == "batchmean":
        return ops.sum(loss) / float(logits.shape[0] if logits.ndim else 1)
    return _reduce("kl_div", loss, reduction)


def _smooth_l1(diff, beta):
    ad = ops.abs(diff)
    return ops.select(ad < beta, ad * ad * (0.5 / beta), ad - 0.5 * beta)


@export(_F)
def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    _t("SmoothL1Loss", input, "logits")
    _t("SmoothL1Loss", target, "labels")
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError("For 'SmoothL1Loss', the 'beta' must be a float, but got %s." % type(beta).__name__)
    if beta <= 0:
        raise ValueError("For 'SmoothL1Loss', the 'beta' must be greater than 0, but got %s." % beta)
    return _reduce("SmoothL1Loss", _smooth_l1(input - target, float(beta)), reduction)


@export(_F)
def huber_loss(input, target, reduction="mean", delta=1.0):
    if delta <= 0:
        raise ValueError("For 'huber_loss', the 'delta' must be greater than 0, but got %s." % delta)
    ad = ops.abs(input - target)
    loss = ops.select(ad < delta, ad * ad * 0.5, (ad - 0.5 * delta) * delta)
    return _reduce("huber_loss", loss, reduction)


@export(_F)
def soft_margin_loss(input, target, reduction="mean"):
    return _reduce("soft_margin_loss", ops.softplus(-input * target), reduction)


@export(_F)
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    loss = ops.relu(-target * (input1 - input2) + margin)
    return _reduce("margin_ranking_loss", loss, reduction)


@export(_F)
def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    loss = ops.select(targets > 0, inputs, ops.relu(margin - inputs))
    return _reduce("hinge_embedding_loss", loss, reduction)


@export(_F)
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    cos = ops.cosine_similarity(input1, input2, 1)
    loss = ops.select(target > 0, 1.0 - cos, ops.relu(cos - margin))
    return _reduce("cosine_embedding_loss", loss, reduction)


@export(_F)
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    def dist(a, b):
        return ops.pow(ops.sum(ops.pow(ops.abs(a - b) + eps, p), -1), 1.0 / p)
    dp = dist(anchor, positive)
    dn = dist(anchor, negative)
    if swap:
        dn = ops.minimum(dn, dist(positive, negative))
    return _reduce("triplet_margin_loss", ops.relu(dp - dn + margin), reduction)


@export(_F)
def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    v = ops.maximum(var, U.as_tensor(eps, like=var))
    loss = (ops.log(v) + (x - target) * (x - target) / v) * 0.5
    if full:
        loss = loss + 0.5 * float(np.log(2 * np.pi))
    return _reduce("gaussian_nll_loss", loss, reduction)


@export(_F)
def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction="mean"):
    if log_input:
        loss = ops.exp(input) - target * input
    else:
        loss = input - target * ops.log(input + eps)
    return _reduce("poisson_nll_loss", loss, reduction)


@export(_F)
def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    loss = -(target * ops.logsigmoid(input) + (1.0 - target) * ops.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = ops.mean(loss, -1)
    return _reduce("multilabel_soft_margin_loss", loss, reduction)


@export(_F)
def l2_loss(x):
    return ops.sum(x * x) * 0.5


@export(_F)
def square_difference(x, y):
    d = x - y
    return d * d


@export(_F)
def depend(value, expr):
    return value


# ---------------------------------------------------------------- assignment
def _check_parameter(op, variable):
    if not U.is_parameter(variable):
        raise TypeError("For '%s', the 'variable' must be a Parameter, but got %s."
                        % (op, type(variable).__name__))


@export(_F)
def assign(variable, value):
    _check_parameter("Assign", variable)
    v = value if isinstance(value, Tensor) else U.as_tensor(value, like=variable)
    if tuple(v.shape) != tuple(variable.shape):
        v = ops.broadcast_to(v, tuple(variable.shape))
    # variable * 0 + v: a graph-mode trace makes it symbolic, so the write is refused there
    return U.write_parameter("Assign", variable, ops.stop_gradient(variable) * 0 + v)


@export(_F)
def assign_add(variable, value):
    _check_parameter("AssignAdd", variable)
    return U.write_parameter("AssignAdd", variable, variable + value)


@export(_F)
def assign_sub(variable, value):
    _check_parameter("AssignSub", variable)
    return U.write_parameter("AssignSub", variable, variable - value)


# ---------------------------------------------------------------- misc nn functions
@export(_F)
def dense(input, weight, bias=None):
    out = ops.matmul(input, ops.swapaxes(weight, -1, -2) if weight.ndim >= 2 else weight)
    return out + bias if bias is not None else out


@export(_F)
def bias_add(input_x, bias):
    view = (1, bias.shape[0]) + (1,) * (input_x.ndim - 2)
    return input_x + ops.reshape(bias, view)


@export(_F)
def pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    *lead, c, h, w = input.shape
    x = ops.reshape(input, tuple(lead) + (c // (r * r), r, r, h, w))
    n = len(lead)
    x = ops.transpose(x, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return ops.reshape(x, tuple(lead) + (c // (r * r), h * r, w * r))


@export(_F)
def pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    *lead, c, h, w = input.shape
    n = len(lead)
    x = ops.reshape(input, tuple(lead) + (c, h // r, r, w // r, r))
    x = ops.transpose(x, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return ops.reshape(x, tuple(lead) + (c * r * r, h // r, w // r))


@export(_F)
def adaptive_avg_pool1d(input, output_size):
    length = input.shape[-1]
    cols = []
    for i in range(output_size):
        s = (i * length) // output_size
        e = -(-((i + 1) * length) // output_size)
        cols.append(ops.mean(ops.narrow(input, input.ndim - 1, s, e - s), -1, True))
    return ops.concat(tuple(cols), -1)


@export(_F)
def adaptive_max_pool1d(input, output_size):
    """The maximum of each of output_size bins of the last axis, bin i spanning
    [floor(i * L / out), ceil((i + 1) * L / out))."""
    U.check_tensor("adaptive_max_pool1d", "input", input)
    if isinstance(output_size, bool) or not isinstance(output_size, int) or output_size < 1:
        raise ValueError("For adaptive_max_pool1d, 'output_size' must be an int >= 1, but got %s." % (output_size,))
    length = input.shape[-1]
    if length < output_size:
        raise ValueError("For adaptive_max_pool1d input's last dimension must be greater or equal to output size %d, "
                         "but got %d." % (output_size, length))
    cols = []
    for i in range(output_size):
        s = (i * length) // output_size
        e = -(-((i + 1) * length) // output_size)
        cols.append(ops.amax(ops.narrow(input, input.ndim - 1, s, e - s), -1, True))
    return ops.concat(tuple(cols), -1)


def _even_adaptive_avg(x, sizes):
    """Adaptive average pooling of x's last len(sizes) axes when each output size divides its axis
    (None keeps the axis): one reshape to (..., out, size // out, ...) and one mean, whose gradient
    is one broadcast. The bin-by-bin form cuts a slice per bin, and each slice's gradient is a
    zero-padded copy of the whole input (28x28 -> 7x7: 49 of them, 3.7x PyTorch's time). None when
    a size does not divide."""
    k = len(sizes)
    shape, axes = list(x.shape[:x.ndim - k]), []
    for size, out in zip(x.shape[x.ndim - k:], sizes):
        out = size if out is None else out
        if size % out:
            return None
        shape += [out, size // out]
        axes.append(len(shape) - 1)
    return ops.mean(ops.reshape(x, tuple(shape)), tuple(axes))


@export(_F)
def adaptive_avg_pool2d(input, output_size):
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else output_size
    h, w = input.shape[-2], input.shape[-1]
    oh = h if oh is None else oh
    ow = w if ow is None else ow
    even = _even_adaptive_avg(input, (oh, ow))
    if even is not None:
        return even
    rows = []
    for i in range(oh):
        hs, he = (i * h) // oh, -(-((i + 1) * h) // oh)
        band = ops.narrow(input, input.ndim - 2, hs, he - hs)
        cols = []
        for j in range(ow):
            ws, we = (j * w) // ow, -(-((j + 1) * w) // ow)
            cols.append(ops.mean(ops.narrow(band, input.ndim - 1, ws, we - ws), (-2, -1), True))
        rows.append(ops.concat(tuple(cols), -1))
    return ops.concat(tuple(rows), -2)


_cpp_cross_entropy = getattr(ops, "cross_entropy", None)
if getattr(_cpp_cross_entropy, "__module__", None) == __name__:
    _cpp_cross_entropy = getattr(_cpp_cross_entropy, "_cpp", None)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """ops.cross_entropy: class indices or class probabilities as target, with weight,
    ignore_index and label_smoothing (the C++ op serves the cases without them)."""
    _t("cross_entropy", input)
    _t("cross_entropy", target, "target")
    if weight is not None:
        _t("cross_entropy", weight, "weight")
    # MindSpore names its argument checks 'cross_entropy_loss'.
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise TypeError("For 'cross_entropy_loss', the type of 'ignore_index' should be 'int', but got '%s' with "
                        "type '%s'." % (ignore_index, type(ignore_index).__name__))
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, float):
        raise TypeError("For 'cross_entropy_loss', the type of 'label_smoothing' should be 'float', but got '%s' "
                        "with type '%s'." % (label_smoothing, type(label_smoothing).__name__))
    if label_smoothing < 0:
        raise ValueError("For 'cross_entropy_loss', the 'label_smoothing' must be a non-negative float, but got %s."
                         % label_smoothing)
    U.check_reduction("cross_entropy", reduction)
    if target.dtype in U._INTS:
        hits = False
        if not ops._functional_array._symbolic(target):
            hits = bool((target.asnumpy() == ignore_index).any())
        if not hits and label_smoothing == 0 and weight is None and _cpp_cross_entropy is not None:
            return _cpp_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
        axis = 1 if input.ndim > 1 else 0
        return nll_loss(ops.log_softmax(input, axis), target, weight, ignore_index, reduction, label_smoothing)
    if label_smoothing == 0 and weight is None and _cpp_cross_entropy is not None:
        return _cpp_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
    axis = 1 if input.ndim > 1 else 0
    c = input.shape[axis]
    logp = ops.log_softmax(input, axis)
    tgt = target * (1.0 - label_smoothing) + label_smoothing / c if label_smoothing > 0 else target
    if weight is not None:
        logp = logp * ops.reshape(weight, (1, c) + (1,) * (input.ndim - 2) if input.ndim > 1 else (c,))
    loss = -ops.sum(logp * tgt, axis)
    if reduction == "mean":
        return ops.sum(loss) / float(loss.size if input.ndim > 1 else 1)
    return _reduce("cross_entropy", loss, reduction)


cross_entropy._cpp = _cpp_cross_entropy
U.export(_F, force=True)(cross_entropy)
