"""mindspore.SummaryRecord (mindspore.train.summary): writes scalars, images, histograms and
tensors to a summary file in MindSpore's format (MindInsight reads it), from add_value calls and
from the summary ops (ops.ScalarSummary, ImageSummary, HistogramSummary, TensorSummary) the
network ran since the last record(). Graphs and lineage are not written."""
import math
import struct
import time
import zlib

import numpy as np

from mindspore import Tensor, log as logger
from mindspore.train.summary import _summary_proto
from mindspore.train.summary._event_file import EventFile

__all__ = ["SummaryRecord"]

_PLUGINS = ("scalar", "image", "histogram", "tensor")
_OTHER_PLUGINS = ("graph", "train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data", "LANDSCAPE")
# What the summary ops ran since the last record(), the latest value per tag (as MindSpore's
# summary cache keeps it): {(plugin, tag): array}, taken by record().
_op_values = {}
_open_records = []


def _from_op(plugin, tag, value):
    """A summary op's value (ops/_primitives_image.py); kept only while a SummaryRecord is open."""
    if _open_records:
        _op_values.pop((plugin, tag), None)
        _op_values[(plugin, tag)] = np.array(value.asnumpy())


def _png(image):
    """PNG bytes of an HWC uint8 image (1 or 3 channels), written with zlib."""
    height, width, channels = image.shape
    color = {1: 0, 3: 2, 4: 6}[channels]
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _canvas(images):
    """An NCHW batch laid out in a grid (ceil(sqrt(N)) columns) as one HWC uint8 image."""
    n, c, h, w = images.shape
    if c not in (1, 3, 4):
        raise ValueError("The image's channel count must be 1, 3 or 4, but got %d." % c)
    data = images.astype(np.float64)
    if data.dtype.kind == "f" and np.nanmax(np.abs(data)) <= 1.0:
        data = data * 255.0
    data = np.clip(np.nan_to_num(data), 0, 255).astype(np.uint8)
    cols = int(math.ceil(math.sqrt(n)))
    rows = int(math.ceil(n / cols))
    canvas = np.zeros((rows * h, cols * w, c), np.uint8)
    for i in range(n):
        r, q = divmod(i, cols)
        canvas[r * h:(r + 1) * h, q * w:(q + 1) * w] = data[i].transpose(1, 2, 0)
    return canvas


def _fill_histogram(histogram, values, bins=30):
    flat = values.astype(np.float64).ravel()
    finite = flat[np.isfinite(flat)]
    histogram.nan_count = int(np.isnan(flat).sum())
    histogram.pos_inf_count = int(np.isposinf(flat).sum())
    histogram.neg_inf_count = int(np.isneginf(flat).sum())
    histogram.count = int(flat.size)
    if finite.size == 0:
        histogram.max, histogram.min, histogram.sum = math.nan, math.nan, 0.0
        return
    histogram.max, histogram.min, histogram.sum = float(finite.max()), float(finite.min()), float(finite.sum())
    lo, hi = float(finite.min()), float(finite.max())
    counts, edges = np.histogram(finite, bins=bins if hi > lo else 1, range=(lo, hi if hi > lo else lo + 1.0))
    for count, left, right in zip(counts, edges[:-1], edges[1:]):
        histogram.buckets.add(left=float(left), width=float(right - left), count=int(count))


def _fill_tensor(proto, values):
    kind = str(values.dtype)
    if kind not in _summary_proto.DATA_TYPES:
        raise TypeError("A tensor summary cannot hold %s values." % kind)
    proto.dims.extend(values.shape)
    proto.data_type = _summary_proto.DATA_TYPES[kind]
    proto.raw_data = np.ascontiguousarray(values).astype(values.dtype.newbyteorder("<")).tobytes()


def _checked_value(plugin, name, value):
    if not isinstance(name, str) or not name:
        raise ValueError("For 'add_value', the 'name' must be a non-empty str, but got %r." % (name,))
    if not isinstance(value, Tensor):
        raise TypeError("For 'add_value', the 'value' must be a Tensor, but got %s." % type(value).__name__)
    array = np.array(value.asnumpy())
    if plugin == "scalar" and array.size != 1:
        raise ValueError("For 'add_value', a scalar value must hold one element, but got shape %s."
                         % (array.shape,))
    if plugin == "image" and array.ndim != 4:
        raise ValueError("For 'add_value', an image value must be a 4-D NCHW Tensor, but got shape %s."
                         % (array.shape,))
    return array


class SummaryRecord:
    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(log_dir, str) or not log_dir:
            raise ValueError("For 'SummaryRecord', the 'log_dir' must be a non-empty str, but got %r." % (log_dir,))
        for arg, text in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(text, str):
                raise TypeError("For 'SummaryRecord', the '%s' must be a str, but got %s." % (arg, type(text).__name__))
        if max_file_size is not None and (isinstance(max_file_size, bool) or not isinstance(max_file_size, int)
                                          or max_file_size <= 0):
            raise ValueError("For 'SummaryRecord', the 'max_file_size' must be a positive int, but got %r."
                             % (max_file_size,))
        if not isinstance(raise_exception, bool):
            raise TypeError("For 'SummaryRecord', the 'raise_exception' must be bool.")
        self._event = _summary_proto.event_class()
        self._file = EventFile(log_dir, file_prefix, file_suffix, self._event, max_file_size)
        self._log_dir = log_dir
        self._pending = []
        self._mode = "train"
        self._closed = False
        _open_records.append(self)

    @property
    def log_dir(self):
        return self._file.path

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def set_mode(self, mode):
        if mode not in ("train", "eval"):
            raise ValueError("For 'set_mode', the 'mode' must be 'train' or 'eval', but got %r." % (mode,))
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queues a value for the next record(): plugin 'scalar', 'image', 'histogram' or 'tensor'."""
        if plugin in _OTHER_PLUGINS:
            raise ValueError("For 'add_value', gradstep does not write the '%s' plugin (graphs and lineage are "
                             "MindInsight metadata); scalars, images, histograms and tensors are written." % plugin)
        if plugin not in _PLUGINS:
            raise ValueError("For 'add_value', the 'plugin' must be one of %s, but got %r."
                             % (list(_PLUGINS + _OTHER_PLUGINS), plugin))
        array = _checked_value(plugin, name, value)
        if any(p == plugin and t == name for p, t, _ in self._pending):
            logger.warning("%r has duplicate values. Only the newest one will be recorded." % ("%s/%s" % (name, plugin)))
            self._pending = [e for e in self._pending if not (e[0] == plugin and e[1] == name)]
        self._pending.append((plugin, name, array))

    def record(self, step, train_network=None, plugin_filter=None):
        """Writes what was queued and what the summary ops ran, as one event at `step`."""
        if self._closed:
            logger.warning("The SummaryRecord has been closed; record() writes nothing.")
            return False
        if isinstance(step, bool) or not isinstance(step, int):
            raise ValueError("For 'record', the 'step' must be an int, but got %s." % type(step).__name__)
        if self._mode == "eval":
            self._pending = []
            return True
        values = self._pending + [(plugin, tag, array) for (plugin, tag), array in _op_values.items()]
        self._pending = []
        _op_values.clear()
        if plugin_filter is not None:
            values = [v for v in values if plugin_filter(v[0])]
        event = self._event(wall_time=time.time(), step=step)
        event.summary.SetInParent()
        for plugin, tag, array in values:
            value = event.summary.value.add(tag=tag)
            if plugin == "scalar":
                value.scalar_value = float(array.reshape(-1)[0])
            elif plugin == "image":
                canvas = _canvas(array)
                value.image.height, value.image.width = canvas.shape[0], canvas.shape[1]
                value.image.colorspace = canvas.shape[2]
                value.image.encoded_image = _png(canvas)
            elif plugin == "histogram":
                _fill_histogram(value.histogram, array)
            else:
                _fill_tensor(value.tensor, array)
        self._file.write_event(event)
        self._file.flush()
        return True

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._closed:
            self._file.close()
            self._closed = True
            if self in _open_records:
                _open_records.remove(self)
