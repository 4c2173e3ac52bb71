"""load reads MINDIR files it did not write: a MatMul + Add model encoded here byte by byte from
mind_ir.proto's field numbers, in MindSpore 2.x's layout (primitives referenced as REF::, the result
named in the graph's outputs) and in 1.x's (attributes on the node, its encodings of tuples and
tensor constants), runs in nn.GraphCell; so does a 2.x graph passing arguments as constant inputs,
a tuple to Concat, a monad through Load and two outputs. A missing, misnamed, truncated, garbage or
foreign file is MindSpore's error naming the file, never a crash."""
import os
import tempfile

import numpy as np
import mindspore as ms
from mindspore import Tensor, load, nn

from _check import raises

folder = tempfile.mkdtemp()


def varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def num(field, value):  # a varint field (wire type 0)
    return varint(field << 3) + varint(value)


def msg(field, *parts):  # a length-delimited field (wire type 2): bytes, string or message
    body = b"".join(p.encode() if isinstance(p, str) else p for p in parts)
    return varint(field << 3 | 2) + varint(len(body)) + body


FLOAT, INT64, STRING, BOOL, TENSORS, LIST = 1, 7, 8, 9, 19, 21


def tensor(dims, data=None, name=None):  # TensorProto: dims 1, data_type 2, name 7, raw_data 9
    return b"".join([num(1, d) for d in dims] + [num(2, FLOAT)] + ([msg(7, name)] if name else [])
                    + ([msg(9, np.asarray(data, "<f4").tobytes())] if data is not None else []))


def attr(name, kind, *parts):  # AttributeProto: name 1, type 16
    return msg(1, name) + num(16, kind) + b"".join(parts)


def node(op_type, inputs, output, *attributes):  # NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
    return msg(1, b"".join(msg(1, i) for i in inputs) + msg(2, output) + msg(3, output) + msg(4, op_type)
               + b"".join(msg(5, a) for a in attributes))


w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
b = np.array([1.0, -1.0, 0.5, 2.0], np.float32)
x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]], np.float32)
expected = x @ w.T + b

matmul_attrs = [attr("transpose_a", BOOL, num(3, 0)), attr("transpose_b", BOOL, num(3, 1)),
                attr("input_names", LIST, msg(17, attr("", STRING, msg(11, "x1"))),  # a tuple's elements sit in
                     msg(17, attr("", STRING, msg(11, "x2"))))]                     # the repeated fields


def graph_start(x_type):
    return (msg(2, "net")                                                      # GraphProto.name
            + msg(5, msg(1, "net:x") + msg(2, x_type))                        # input: ValueInfoProto
            + msg(3, tensor([4, 3], w, "net:w"))                              # parameter
            + node("Constant", [], "net:b", attr("value", TENSORS, msg(12, tensor([4], b)))))  # data: a tensor


def matmul_add_2x(x_type):
    return (msg(1, "1") + msg(2, "MindSpore") + num(13, 1)
            + msg(7, graph_start(x_type) + node("REF::MatMul_1", ["net:x", "net:w"], "net:mm")
                  + node("REF::Add_2", ["net:mm", "net:b"], "net:y")
                  + msg(6, msg(1, "net:y")))                                   # output: ValueInfoProto
            + msg(12, msg(1, "MatMul_1") + msg(2, "MatMul") + b"".join(msg(3, a) for a in matmul_attrs))
            + msg(12, msg(1, "Add_2") + msg(2, "Add")))


model_2x = matmul_add_2x(tensor([2, 3]))
# MindSpore 1.x's encodings: a tensor constant as TENSORS ("tensor:value0"), a tuple as its elements'
# type with the elements in `ints` ("scalar:Tuple[...]"), the output type as an unnamed attribute.
model_1x = (msg(1, "0.1.0") + msg(2, "MindSpore")
            + msg(7, msg(2, "net") + msg(5, msg(1, "net:x") + msg(2, tensor([2, 3])))
                  + msg(3, tensor([4, 3], w, "net:w"))
                  + node("Constant", [], "net:b", msg(1, "value") + num(16, TENSORS) + msg(15, "tensor:value0")
                         + msg(12, tensor([4], b)))
                  + node("MatMul", ["net:x", "net:w"], "net:mm", *matmul_attrs,
                         msg(15, "shape:shape1,") + msg(12, tensor([2, 4])))
                  + node("Add", ["net:mm", "net:b"], "net:y")
                  + node("Constant", [], "net:shape", msg(1, "value") + num(16, INT64) + num(10, 4) + num(10, 2)
                         + msg(15, "scalar:Tuple[value1,value2,],"))
                  + node("Reshape", ["net:y", "net:shape"], "net:out") + msg(6, msg(1, "net:out"))))

for label, data, want in (("2x", model_2x, expected), ("1x", model_1x, expected.reshape(4, 2))):
    path = os.path.join(folder, "matmul_add_%s.mindir" % label)
    with open(path, "wb") as f:
        f.write(data)
    y = nn.GraphCell(load(path))(Tensor(x))
    assert y.shape == want.shape and np.allclose(y.asnumpy(), want, atol=1e-6), (label, y)

# MindSpore 2.2 passes some arguments as constant inputs (Reshape's shape, ReduceSum's axis, Cast's
# type), Concat its tensors as one tuple, and threads side effects through Load and a monad; a graph
# with two outputs returns a tuple.
TUPLE, UMONAD = 20, 23


def constant(name, *parts):
    return node("Constant", [], name, attr("value", *parts))


def primitive(name, op_type, *attributes):
    return msg(12, msg(1, name) + msg(2, op_type) + b"".join(msg(3, a) for a in attributes))


model_args = (msg(7, msg(2, "g") + msg(5, msg(1, "g:x") + msg(2, tensor([2, 3])))
                  + constant("g:shape", TUPLE, msg(17, attr("", INT64, num(10, 3))),
                             msg(17, attr("", INT64, num(10, 2))))
                  + node("REF::Reshape_0", ["g:x", "g:shape"], "g:r")
                  + constant("g:axis", INT64, num(3, 1))
                  + node("REF::ReduceSum_1", ["g:r", "g:axis"], "g:s")
                  + node("REF::MakeTuple_2", ["g:s", "g:s"], "g:t")
                  + node("REF::Concat_3", ["g:t"], "g:c")
                  + constant("g:u", UMONAD)
                  + node("REF::Load_4", ["g:c", "g:u"], "g:l")
                  + constant("g:type", TENSORS, msg(12, num(2, 11)))  # the "type form": a TensorProto's data_type
                  + node("REF::Cast_5", ["g:l", "g:type"], "g:y")
                  + msg(6, msg(1, "g:y")) + msg(6, msg(1, "g:s")))  # two outputs: a tuple
              + primitive("Reshape_0", "Reshape")
              + primitive("ReduceSum_1", "ReduceSum", attr("keep_dims", BOOL, num(3, 1)))
              + primitive("MakeTuple_2", "MakeTuple") + primitive("Concat_3", "Concat", attr("axis", INT64, num(3, 1)))
              + primitive("Load_4", "Load") + primitive("Cast_5", "Cast"))
path = os.path.join(folder, "arguments.mindir")
with open(path, "wb") as f:
    f.write(model_args)
y, s = nn.GraphCell(load(path))(Tensor(x))
row_sums = x.reshape(3, 2).sum(axis=1, keepdims=True)
assert y.dtype == ms.float64 and np.allclose(y.asnumpy(), np.concatenate([row_sums, row_sums], axis=1)), y
assert s.dtype == ms.float32 and np.allclose(s.asnumpy(), row_sums), s

# A file naming a primitive gradstep has not got, and one whose parameter data does not fit its shape.
unknown = model_2x.replace(b"\x12\x06MatMul", b"\x12\x06MatMuX")
bad_data = model_2x.replace(msg(3, tensor([4, 3], w, "net:w")), msg(3, tensor([4, 2], w, "net:w")))
dynamic = matmul_add_2x(num(1, 2**64 - 1) + num(1, 3) + num(2, FLOAT))  # dims [-1, 3]: int64 -1 as a varint
for data, match in ((unknown, "The primitive 'MatMuX' is not supported"), (bad_data, "48 bytes of data"),
                    (dynamic, "has the dynamic shape [-1, 3]")):
    path = os.path.join(folder, "bad.mindir")
    with open(path, "wb") as f:
        f.write(data)
    raises(RuntimeError, load, path, match=match)

absent = os.path.join(folder, "absent.mindir")
raises(ValueError, load, absent, match="does not exist, please check whether the 'file_name' is correct: '%s'" % absent)
os.mkdir(os.path.join(folder, "folder.mindir"))  # a directory is no file to read
raises(ValueError, load, os.path.join(folder, "folder.mindir"), match="does not exist")
raises(ValueError, load, os.path.join(folder, "model.onnx"),
       match="should end with '.mindir', please input the correct")
raises(ValueError, load, 3, match="must be string")

# Every truncation of a valid file, random bytes, a text file, an end-group tag and a checkpoint under
# a .mindir name:
# load's RuntimeError naming the file. Flipped bytes either load or fail the same way, never crash.
rng = np.random.RandomState(0)
path = os.path.join(folder, "broken.mindir")
foreign = ([model_2x[:n] for n in range(0, len(model_2x), 7)] + [rng.bytes(300), b"not a model\n" * 20]
           + [b"\x0c" + model_2x])  # a stray end-group tag: protobuf stops there with only a warning
ms.save_checkpoint([{"name": "w", "data": Tensor(w)}], os.path.join(folder, "w.ckpt"))
with open(os.path.join(folder, "w.ckpt"), "rb") as f:
    foreign.append(f.read())
for data in foreign:
    with open(path, "wb") as f:
        f.write(data)
    raises(RuntimeError, load, path, match="Load MindIR failed. The file '%s' cannot be run: " % path)
loaded = 0
for k in range(150):
    data = bytearray(model_2x)
    data[rng.randint(len(data))] = rng.randint(256)
    with open(path, "wb") as f:
        f.write(bytes(data))
    try:
        nn.GraphCell(load(path))(Tensor(x))
        loaded += 1
    except (RuntimeError, ValueError, TypeError) as e:
        assert "RuntimeError" in type(e).__name__ or "GraphCell" in str(e) or "For '" in str(e), e
assert 0 < loaded < 150, loaded
