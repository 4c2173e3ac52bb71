"""MindSpore .ckpt files: a file written here byte by byte from the protobuf wire format (not by
gradstep's writer) is read with its names, shapes, dtypes and values, and saving what was read
gives the same bytes; save/load round trips, load_param_into_net's results and errors; truncated,
corrupt and foreign files are ValueErrors naming the file; ModelCheckpoint's files."""
import os
import struct
import tempfile

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor
from mindspore.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint
from mindspore.train.serialization import load_checkpoint as serialization_load

from _check import raises

tmp = tempfile.mkdtemp()


# --- the wire format, written by hand ------------------------------------------------------------
def varint(n):
    out = bytearray()
    n &= (1 << 64) - 1  # int64 fields encode negatives as ten-byte two's complement
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def field(number, wire_type, payload):
    key = varint(number << 3 | wire_type)
    if wire_type == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def tensor_proto(dims, type_name, content):
    # TensorProto: repeated int64 dims = 1 (unpacked, as proto2 writes it), string tensor_type = 2,
    # bytes tensor_content = 3.
    out = b"".join(field(1, 0, varint(d)) for d in dims)
    return out + field(2, 2, type_name.encode()) + field(3, 2, content)


def value(tag, dims, type_name, content):
    # Checkpoint.value = 1 holding Value { string tag = 1; TensorProto tensor = 2; }
    return field(1, 2, field(1, 2, tag.encode()) + field(2, 2, tensor_proto(dims, type_name, content)))


weight = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
bias = np.array([0.5, -1.25], np.float32)
counts = np.array([[1, -2], [3, 2 ** 40]], np.int64)
half = np.array([1.5, -0.25, 65504], np.float16)
flags = np.array([True, False, True])
hand_made = (value("fc.weight", [2, 3], "Float32", weight.tobytes())
             + value("fc.bias", [2], "Float32", bias.tobytes())
             + value("counts", [2, 2], "Int64", counts.tobytes())
             + value("half", [3], "Float16", half.tobytes())
             + value("flags", [3], "Bool", flags.tobytes())
             + value("global_step", [0], "Int32", struct.pack("<i", 42))
             + value("lr", [0], "Float32", struct.pack("<f", 0.125))
             + value("bf", [2], "BFloat16", struct.pack("<HH", 0x3FC0, 0xC040)))  # 1.5, -3.0
path = os.path.join(tmp, "hand.ckpt")
with open(path, "wb") as f:
    f.write(hand_made)

loaded = ms.load_checkpoint(path)
assert list(loaded) == ["fc.weight", "fc.bias", "counts", "half", "flags", "global_step", "lr", "bf"], list(loaded)
assert all(isinstance(p, Parameter) and p.name == name for name, p in loaded.items())
assert loaded["fc.weight"].dtype == ms.float32 and loaded["fc.weight"].shape == (2, 3)
assert np.array_equal(loaded["fc.weight"].asnumpy(), weight)
assert np.array_equal(loaded["fc.bias"].asnumpy(), bias)
assert loaded["counts"].dtype == ms.int64 and np.array_equal(loaded["counts"].asnumpy(), counts)
assert loaded["half"].dtype == ms.float16 and np.array_equal(loaded["half"].asnumpy(), half)
assert loaded["flags"].dtype == ms.bool_ and np.array_equal(loaded["flags"].asnumpy(), flags)
assert loaded["global_step"].shape == () and int(loaded["global_step"].asnumpy()) == 42
assert loaded["global_step"].dtype == ms.int32
assert loaded["lr"].shape == () and float(loaded["lr"].asnumpy()) == 0.125
assert loaded["bf"].dtype == ms.bfloat16
assert np.array_equal(loaded["bf"].astype(ms.float32).asnumpy(), [1.5, -3.0])

# Saving what was read writes the same bytes.
again = os.path.join(tmp, "again")
ms.save_checkpoint(loaded, again)  # ".ckpt" is appended
with open(again + ".ckpt", "rb") as f:
    assert f.read() == hand_made, "the round trip changed the file"
ms.save_checkpoint([{"name": k, "data": v} for k, v in loaded.items()], again + ".ckpt")
with open(again + ".ckpt", "rb") as f:
    assert f.read() == hand_made
assert not [n for n in os.listdir(tmp) if n.endswith(".tmp")], "a temporary file was left behind"

# A tensor MindSpore split over consecutive Values of one tag is joined.
split = (value("big", [4], "Float32", np.float32([1, 2]).tobytes())
         + value("big", [4], "Float32", np.float32([3, 4]).tobytes()))
with open(os.path.join(tmp, "split.ckpt"), "wb") as f:
    f.write(split)
assert np.array_equal(ms.load_checkpoint(os.path.join(tmp, "split.ckpt"))["big"].asnumpy(), [1, 2, 3, 4])

# filter_prefix, specify_prefix, choice_func; the same function in mindspore.train.serialization.
assert list(ms.load_checkpoint(path, filter_prefix="fc.")) == ["counts", "half", "flags", "global_step", "lr", "bf"]
assert list(serialization_load(path, specify_prefix=["fc.", "lr"])) == ["fc.weight", "fc.bias", "lr"]
assert list(ms.load_checkpoint(path, choice_func=lambda n: n.startswith("h"))) == ["half"]
raises(ValueError, ms.load_checkpoint, path, specify_prefix="nothing", match="empty after filter")


# --- damaged and foreign files ---------------------------------------------------------------
def failing(data, name, match):
    bad = os.path.join(tmp, name)
    with open(bad, "wb") as f:
        f.write(data)
    raises(ValueError, ms.load_checkpoint, bad, match=match)
    try:
        ms.load_checkpoint(bad)
    except ValueError as err:
        assert bad in str(err), str(err)


failing(hand_made[:-3], "truncated.ckpt", "not a complete MindSpore checkpoint")
failing(hand_made[:len(hand_made) // 2], "half.ckpt", "not a complete MindSpore checkpoint")
failing(b"", "empty.ckpt", "is empty")
failing(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "picture.ckpt", "not a complete MindSpore checkpoint")
failing(value("w", [2, 3], "Float32", weight.tobytes()[:-4]), "short.ckpt", "'w' has 20 bytes for dims")
failing(value("w", [2], "Complex7", b"12345678"), "type.ckpt", "unknown tensor_type 'Complex7'")
failing(field(1, 2, field(1, 2, b"no_tensor")), "required.ckpt", "not a complete MindSpore checkpoint")
failing(field(2, 0, varint(7)), "foreign.ckpt", "holds no parameter")
raises(ValueError, ms.load_checkpoint, os.path.join(tmp, "missing.ckpt"), match="does not exist")
raises(ValueError, ms.load_checkpoint, path[:-5] + ".txt", match="should end with '.ckpt'")
raises(ValueError, ms.load_checkpoint, path, dec_key=b"0123456789abcdef", match="not supported")
raises(ValueError, ms.save_checkpoint, loaded, again, enc_key=b"0123456789abcdef", match="not supported")
raises(TypeError, ms.save_checkpoint, 3, again, match="must be nn.Cell, list or dict")


# --- networks --------------------------------------------------------------------------------
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc(x)


net = Net()
net_path = os.path.join(tmp, "net.ckpt")
ms.save_checkpoint(net, net_path, append_dict={"epoch_num": 3, "note": "hi", "scale": 0.5})
params = ms.load_checkpoint(net_path)
assert params["epoch_num"].dtype == ms.int64 and int(params["epoch_num"].asnumpy()) == 3
assert params["note"] == "hi" and float(params["scale"].asnumpy()) == 0.5
other = Net()
not_loaded, ckpt_not_loaded = ms.load_param_into_net(other, params)
assert not_loaded == [] and ckpt_not_loaded == ["epoch_num", "note", "scale"], (not_loaded, ckpt_not_loaded)
assert np.array_equal(other.fc.weight.asnumpy(), net.fc.weight.asnumpy())

# load_checkpoint(net=...) loads; the hand-made file's fc.* fit Net; other names are reported.
fresh = Net()
ms.load_checkpoint(path, net=fresh)
assert np.array_equal(fresh.fc.weight.asnumpy(), weight)
assert ms.load_param_into_net(Net(), {"fc.weight": loaded["fc.weight"]}) == (["fc.bias"], [])

# A checkpoint of a wrapped network (names with a prefix) loads into the bare one when not strict.
prefixed = {"network." + k: Parameter(v.copy(), name="network." + k) for k, v in params.items()
            if k.startswith("fc.")}
assert ms.load_param_into_net(Net(), prefixed) == ([], [])
assert ms.load_param_into_net(Net(), prefixed, strict_load=True)[0] == ["fc.weight", "fc.bias"]

# Shapes must agree; float16 converts to float32 unless strict_load.
wrong = {"fc.weight": Parameter(Tensor(np.zeros((3, 2), np.float32)), name="fc.weight")}
raises(RuntimeError, ms.load_param_into_net, Net(), wrong,
       match="fc.weight in the argument 'net' should have the same shape as fc.weight")
halves = {"fc.weight": Parameter(Tensor(weight.astype(np.float16)), name="fc.weight")}
target = Net()
ms.load_param_into_net(target, halves)
assert target.fc.weight.dtype == ms.float32
assert np.array_equal(target.fc.weight.asnumpy(), weight.astype(np.float16).astype(np.float32))
raises(RuntimeError, ms.load_param_into_net, Net(), halves, strict_load=True, match="should have the same type")
raises(TypeError, ms.load_param_into_net, Net(), {"fc.weight": 1.0}, match="should be a 'Parameter'")
raises(TypeError, ms.load_param_into_net, "net", {}, match="should be a Cell")

# A failed save leaves the previous file untouched.
with open(net_path, "rb") as f:
    before = f.read()
raises(TypeError, ms.save_checkpoint, [{"name": "x", "data": 1}], net_path, match="must be a Parameter or a Tensor")
with open(net_path, "rb") as f:
    assert f.read() == before

# --- ModelCheckpoint -------------------------------------------------------------------------
import mindspore.dataset as ds  # noqa: E402

rng = np.random.RandomState(0)
xs = rng.randn(40, 3).astype(np.float32)
ys = (xs @ np.float32([[1, -1], [2, 0], [0, 1]])).astype(np.float32)
data = ds.NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False).batch(10)
ckpt_dir = os.path.join(tmp, "run")
model_net = Net()
model = Model(model_net, nn.MSELoss(), nn.Momentum(model_net.trainable_params(), 0.01, 0.9))
config = CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2, append_info=["epoch_num", "step_num"])
callback = ModelCheckpoint("net", ckpt_dir, config)
model.train(2, data, callbacks=[callback])
assert sorted(os.listdir(ckpt_dir)) == ["net-2_2.ckpt", "net-2_4.ckpt"], sorted(os.listdir(ckpt_dir))
final = ms.load_checkpoint(callback.latest_ckpt_file_name)
assert int(final["epoch_num"].asnumpy()) == 2 and int(final["step_num"].asnumpy()) == 8
assert np.array_equal(final["fc.weight"].asnumpy(), model_net.fc.weight.asnumpy())
# A second run with the same prefix does not overwrite the first one's files.
second = ModelCheckpoint("net", ckpt_dir, CheckpointConfig(save_checkpoint_steps=4))
model.train(1, data, callbacks=[second])
assert os.path.basename(second.latest_ckpt_file_name) == "net_1-1_4.ckpt"
raises(ValueError, CheckpointConfig, 0, 0, 0, 0, match="can't be all None or 0")
raises(ValueError, ModelCheckpoint, "a/b", match="does not contain '/'")
print("ok")

# CheckpointConfig: a step count makes the seconds rule None, a maximum count the per-minutes rule.
from mindspore.train.callback import CheckpointConfig  # noqa: E402
config = CheckpointConfig()
assert (config.save_checkpoint_steps, config.save_checkpoint_seconds) == (1, None)
assert (config.keep_checkpoint_max, config.keep_checkpoint_per_n_minutes) == (5, None)
config = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=30, keep_checkpoint_max=0,
                          keep_checkpoint_per_n_minutes=2)
assert (config.save_checkpoint_seconds, config.keep_checkpoint_per_n_minutes) == (30, 2)
assert config.get_checkpoint_policy()["keep_checkpoint_max"] == 0
