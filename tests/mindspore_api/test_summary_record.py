"""SummaryRecord and SummaryCollector write MindSpore's summary files: TFRecord-framed Event
messages (CRC-32C checked on reading), the version event first, then one event per record()
with scalars, PNG images, histograms and tensors; the collector records the loss at step 1 and
every collect_freq steps, the first step's input images, parameter histograms and the summary
ops' latest values."""
import glob
import shutil
import struct
import tempfile
import zlib

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import Tensor, nn, ops
from mindspore.train import Callback, Model, SummaryCollector
from mindspore.train.summary._event_file import read_records
from mindspore.train.summary._summary_proto import event_class

from _check import close, raises

Event = event_class()


def events(directory):
    (path,) = glob.glob(directory + "/*.summary.*_MS")
    return [Event.FromString(payload) for payload in read_records(path)], path


root = tempfile.mkdtemp(prefix="summary_test_")
try:
    # SummaryRecord on its own
    with ms.SummaryRecord(root + "/direct") as record:
        record.add_value("scalar", "acc", Tensor(np.float32(0.75)))
        record.add_value("tensor", "w", Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        record.add_value("histogram", "h", Tensor(np.array([0.0, 1.0, 1.0, np.nan, np.inf], np.float32)))
        record.add_value("image", "img", Tensor(np.ones((2, 1, 4, 5), np.float32)))
        assert record.record(7)
        raises(TypeError, record.add_value, "scalar", "x", 1.0, match="must be a Tensor")
        raises(ValueError, record.add_value, "curve", "x", Tensor(1.0), match="'plugin' must be one of")
        raises(ValueError, record.add_value, "scalar", "x", Tensor(np.ones(2)), match="one element")
    written, path = events(root + "/direct")
    assert written[0].version == "MindSpore.Event:1" and written[1].step == 7
    values = {v.tag: v for v in written[1].summary.value}
    close(values["acc"].scalar_value, 0.75)
    tensor = values["w"].tensor
    assert list(tensor.dims) == [2, 3] and tensor.data_type == 11             # DT_FLOAT32
    close(np.frombuffer(tensor.raw_data, "<f4").reshape(2, 3), np.arange(6).reshape(2, 3))
    hist = values["h"].histogram
    assert (hist.count, hist.nan_count, hist.pos_inf_count) == (5, 1, 1)
    assert sum(b.count for b in hist.buckets) == 3 and (hist.min, hist.max, hist.sum) == (0.0, 1.0, 2.0)
    image = values["img"].image                                                  # 2 images, 2 columns
    assert (image.height, image.width, image.colorspace) == (4, 10, 1)
    png = image.encoded_image
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (10, 4)
    idat = png.index(b"IDAT")
    raw = zlib.decompress(png[idat + 4:idat + 4 + struct.unpack(">I", png[idat - 4:idat])[0]])
    assert len(raw) == 4 * (1 + 10) and raw[1] == 255                            # ones scaled to 255
    # a corrupted byte fails the CRC
    data = bytearray(open(path, "rb").read())
    data[-6] ^= 0xFF
    open(path, "wb").write(bytes(data))
    raises(ValueError, read_records, path, match="CRC")

    # SummaryCollector in Model.train
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3)
            self.fc = nn.Dense(2 * 8 * 8, 3)
            self.scalar = ops.ScalarSummary()

        def construct(self, x):
            z = self.fc(ops.flatten(self.conv(x)))
            self.scalar("zmean", z.mean())
            return z

    class Losses(Callback):
        def __init__(self):
            super().__init__()
            self.seen = {}

        def on_train_step_end(self, run_context):
            params = run_context.original_args()
            self.seen[params.cur_step_num] = float(params.net_outputs.asnumpy())

    rs = np.random.RandomState(0)
    data = ds.NumpySlicesDataset({"x": rs.rand(40, 1, 8, 8).astype(np.float32),
                                  "y": rs.randint(0, 3, 40).astype(np.int32)}, shuffle=False).batch(8)
    net = Net()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.SGD(net.trainable_params(), 0.1))
    losses = Losses()
    model.train(2, data, callbacks=[SummaryCollector(root + "/collector", collect_freq=3), losses])
    written, _ = events(root + "/collector")
    steps = [e.step for e in written[1:]]
    assert steps == [1, 3, 6, 9], steps                                          # 10 steps in all
    for e in written[1:]:
        tags = [v.tag for v in e.summary.value]
        loss = [v.scalar_value for v in e.summary.value if v.tag == "loss"]
        close(loss[0], losses.seen[e.step], rtol=1e-6)
        assert tags.count("zmean[:Scalar]") == 1 and "conv.weight/auto" in tags
    assert "input_data/auto" in [v.tag for v in written[1].summary.value]
    raises(ValueError, SummaryCollector, root, collect_freq=0, match="collect_freq")
    raises(ValueError, SummaryCollector, root, collect_specified_data={"collect_everything": True},
           match="collect_specified_data")
finally:
    shutil.rmtree(root)
print("ok")
