"""ops.ctc_greedy_decoder: best-path decoding of CTC logits. At each step of a sequence the class with
the largest logit wins; with merge_repeated a class equal to the previous step's winner is dropped,
and the blank (the last class, num_classes - 1) is dropped always. The outputs are a sparse tensor's
parts: (index (b, position), value) pairs, its dense shape (batch, longest decoding) and, per
sequence, minus the sum of the winning logits. Decoding is discrete: no gradient (MindSpore defines
none either)."""
import numpy as np

from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


@export(_F)
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    op = "CTCGreedyDecoder"
    U.check_tensor(op, "inputs", inputs)
    U.check_tensor(op, "sequence_length", sequence_length)
    U.check_bool(op, "merge_repeated", merge_repeated)
    if inputs.ndim != 3:
        raise ValueError("For '%s', 'inputs' must be 3-D (max_time, batch_size, num_classes), but got %d-D."
                         % (op, inputs.ndim))
    lengths = U.numpy_of(sequence_length).reshape(-1).astype(np.int64)
    max_time, batch, classes = inputs.shape
    if sequence_length.ndim != 1 or lengths.size != batch:
        raise ValueError("For '%s', 'sequence_length' must be 1-D of size batch_size (%d), but got shape %s."
                         % (op, batch, tuple(sequence_length.shape)))
    if (lengths < 0).any() or (lengths > max_time).any():
        raise ValueError("For '%s', the values of 'sequence_length' must be in [0, %d], but got %s."
                         % (op, max_time, lengths.tolist()))
    logits = U.numpy_of(inputs)
    blank = classes - 1
    decoded, log_prob = [], np.zeros((batch, 1), logits.dtype)
    for b in range(batch):
        steps = logits[:lengths[b], b, :]
        best = steps.argmax(-1) if lengths[b] else np.zeros(0, np.int64)
        log_prob[b, 0] = -steps.max(-1).sum() if lengths[b] else 0
        out, previous = [], -1
        for c in best.tolist():
            if c != blank and not (merge_repeated and c == previous):
                out.append(c)
            previous = c
        decoded.append(out)
    indices = [(b, i) for b, seq in enumerate(decoded) for i in range(len(seq))]
    values = [c for seq in decoded for c in seq]
    longest = max((len(seq) for seq in decoded), default=0)
    return (U.const(np.asarray(indices, np.int64).reshape(-1, 2), mstype.int64),
            U.const(np.asarray(values, np.int64), mstype.int64),
            U.const(np.asarray([batch, longest], np.int64), mstype.int64),
            U.const(log_prob, inputs.dtype))
