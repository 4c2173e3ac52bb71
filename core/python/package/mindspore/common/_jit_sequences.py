"""What graph mode adds to Python's dict and list/tuple (MindSpore's static graph syntax): the
dict method has_key, and count of a tensor in a list or tuple (MindSpore's SequenceCount), which
Python cannot answer while the tensor's value is only known when the graph runs. The compiler
(core/python/jit) routes `d.has_key(k)` and `seq.count(t)` here."""
import mindspore


def has_key_of(obj):
    """obj.has_key for a dict (whether the key is in it), the object's own has_key otherwise."""
    if isinstance(obj, dict):
        return obj.__contains__
    return obj.has_key


def sequence_count(seq, value):
    """How many elements of seq equal the tensor value, as an Int64 scalar Tensor."""
    from mindspore import Tensor, ops
    total = Tensor(0, mindspore.int64)
    for item in seq:
        if isinstance(item, (Tensor, int, float, bool)):
            same = ops.equal(item if isinstance(item, Tensor) else Tensor(item, value.dtype), value)
            total = total + ops.cast(same.all() if same.ndim else same, mindspore.int64)
    return total
