"""Automatic mixed precision of MindSpore 2.2 (mindspore.train.amp; also mindspore.amp):
auto_mixed_precision, build_train_network, custom_mixed_precision, get_white_list, get_black_list.

A Cell marked with to_float(float16) runs every op with its float inputs cast to float16
(Note [Mixed precision] in core/ops/dispatch.cpp). The levels:
  O0  nothing changes;
  O1  the white-listed Cells compute in float16 and their outputs are cast back to float32; the
      white-listed primitives a Cell of the script holds as attributes (self.matmul = ops.MatMul())
      get float16 inputs and a float32 output;
  O2  the whole network computes in float16 but the black-listed Cells (BatchNorm, LayerNorm),
      which compute in float32 and hand float16 on; the output is cast back to float32;
  O3  the whole network computes in float16; the output is cast back to float32.

How gradstep differs from MindSpore's source (not in what a script computes): O1 marks the Cells
in place instead of rewriting the network's source (MindSpore's mindspore.rewrite), so the
network keeps its class and its attributes; a black-listed Cell at O2 casts its own output to
float16 instead of being replaced by a wrapper Cell, so net.bn1 is still the BatchNorm2d.
build_train_network accepts DynamicLossScaleManager on CPU, which MindSpore refuses there
(its CPU backend lacks the control flow of TrainOneStepWithLossScaleCell; gradstep runs it).
Level "auto" picks a level by device as MindSpore does, and gradstep's device is the CPU.
"""
import mindspore as _ms
import mindspore.nn as nn
# The modules that add the listed layers and TrainOneStepWithLossScaleCell to mindspore.nn (the
# package imports its modules in name order, and this one may come first).
import mindspore.nn._layers_basic  # noqa: F401
import mindspore.nn._layers_conv  # noqa: F401
import mindspore.nn._layers_norm  # noqa: F401
import mindspore.nn._layers_rnn  # noqa: F401
import mindspore.nn._loss_scale  # noqa: F401
import mindspore.ops._primitives_nn  # noqa: F401
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore import log as logger
from mindspore.ops import operations as P
from mindspore.ops.primitive import Primitive
from mindspore.train._checks import check_value_type
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "build_train_network", "custom_mixed_precision", "get_white_list",
           "get_black_list"]


def _existing(module, names):
    # MindSpore's lists name a few classes gradstep does not provide (nn.Conv3dTranspose,
    # ops.Conv3DTranspose); a network cannot hold those, so leaving them out changes nothing.
    return [getattr(module, n) for n in names if hasattr(module, n)]


AMP_WHITE_LIST = (
    _existing(nn, ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
                   "Dense", "LSTMCell", "RNNCell", "GRUCell"])
    + _existing(P, ["Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput", "MatMul",
                    "BatchMatMul", "PReLU", "ReLU", "Ger"]))

AMP_BLACK_LIST = [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]


def _mixed_precision_cast(dst_type, value):
    """value with every float Tensor in it (and in its tuples and lists) cast to dst_type
    (MindSpore's F.mixed_precision_cast)."""
    if isinstance(value, Tensor):
        if value.dtype in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16) and value.dtype != dst_type:
            return ops.cast(value, dst_type)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(_mixed_precision_cast(dst_type, v) for v in value)
    return value


class _OutputTo16(nn.Cell):
    """Wraps a Cell and casts its output to float16."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return ops.cast(self._backbone(*args, **kwargs), mstype.float16)


class _OutputTo32(nn.Cell):
    """Wraps a network and casts its float outputs back to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _mixed_precision_cast(mstype.float32, self._backbone(*args, **kwargs))


class _MixedPrecisionPrimitive:
    """A white-listed primitive at O1: float16 inputs, float32 outputs (MindSpore inserts a Cast
    before each input and after the output of the call)."""

    def __init__(self, primitive):
        self.__dict__["_primitive"] = primitive

    def __call__(self, *args, **kwargs):
        if _ms._amp_override() == "O0":  # the amp what-if (Note [The amp what-if])
            return self._primitive(*args, **kwargs)
        args = tuple(_mixed_precision_cast(mstype.float16, a) for a in args)
        return _mixed_precision_cast(mstype.float32, self._primitive(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self.__dict__["_primitive"], name)

    def __repr__(self):
        return repr(self._primitive)


def _is_fp16(cell):
    return cell._get_mixed_precision() == mstype.float16


def _script_cell(cell):
    # MindSpore's rewrite expands the Cells a script defines (and the containers holding them);
    # its own layers are leaves.
    module = type(cell).__module__ or ""
    return not module.startswith("mindspore.") or isinstance(cell, (nn.SequentialCell, nn.CellList))


def _white_list_cells(network, white_list):
    for name, value in list(vars(network).items()):
        if isinstance(value, Primitive) and type(value) in white_list:
            network.__dict__[name] = _MixedPrecisionPrimitive(value)
    for cell in network.cells():
        if type(cell) in white_list:
            if not _is_fp16(cell):  # to_float(float16) set by the script: left as it is
                cell.to_float(mstype.float16)
                cell._set_output_cast(mstype.float32)
        elif _script_cell(cell):
            _white_list_cells(cell, white_list)


def _auto_white_list(network, white_list):
    if _is_fp16(network):
        return network
    _white_list_cells(network, white_list)
    return network


def _auto_black_list(network, black_list):
    network.to_float(mstype.float16)
    for cell in network.cells():
        if isinstance(cell, tuple(black_list)):
            cell.to_float(mstype.float32)
            cell._set_output_cast(mstype.float16)
        else:
            _auto_black_list(cell, black_list)


def auto_mixed_precision(network, amp_level="O0"):
    """The network with amp_level's mixed precision ("O0", "O1", "O2" or "O3"; see the module's
    docstring); O2 and O3 return it wrapped so that its output is cast back to float32."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if amp_level == "O0":
        return network
    if amp_level == "O1":
        return _auto_white_list(network, AMP_WHITE_LIST)
    if amp_level == "O2":
        _auto_black_list(network, AMP_BLACK_LIST)
    elif amp_level == "O3":
        network.to_float(mstype.float16)
    else:
        raise ValueError("The amp level {} is not supported".format(amp_level))
    return _OutputTo32(network)


def _apply_o2_in_place(network):
    """amp's O2 on network itself, its output cast back to float32 (the amp what-if applies it to
    the network a script calls, which auto_mixed_precision's wrapper could not replace)."""
    _auto_black_list(network, AMP_BLACK_LIST)
    network._set_output_cast(mstype.float32)


def _do_keep_batchnorm_fp32(network):
    for cell in network.cells():
        if isinstance(cell, tuple(AMP_BLACK_LIST)):
            cell.to_float(mstype.float32)
            cell._set_output_cast(mstype.float16)
        else:
            _do_keep_batchnorm_fp32(cell)


def _config_level(level):
    return {
        "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
               "loss_scale_manager": DynamicLossScaleManager()},
        "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    }[level]


def _check_kwargs(key_words):
    for arg in key_words:
        if arg not in ['cast_model_type', 'keep_batchnorm_fp32', 'loss_scale_manager']:
            raise ValueError(f"Unsupported arg '{arg}'")
    if 'cast_model_type' in key_words:
        value = key_words['cast_model_type']
        if value not in (mstype.float16, mstype.float32):
            raise TypeError("The type of 'cast_model_type' should be in [Float16, Float32], but got %s." % (value,))
    if 'keep_batchnorm_fp32' in key_words:
        check_value_type('keep_batchnorm_fp32', key_words['keep_batchnorm_fp32'], bool)
    if key_words.get('loss_scale_manager'):
        check_value_type('loss_scale_manager', key_words['loss_scale_manager'], [LossScaleManager])


def _check_level(level, boost_level):
    levels = ['O0', 'O1', 'O2', 'O3', 'auto']
    if not isinstance(level, str):
        raise TypeError("The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'], "
                        "but got type {}.".format(type(level)))
    if level not in levels:
        raise ValueError("The 'level' should be in %s, but got %s." % (levels, level))
    if boost_level not in ['O0', 'O1', 'O2']:
        raise ValueError("The 'boost_level' should be in ['O0', 'O1', 'O2'], but got %s." % (boost_level,))
    if level == "auto":
        target = _ms.get_context("device_target")
        if target == "GPU":
            level = "O2"
        elif target == "Ascend":
            level = "O3"
        else:
            raise ValueError("Level `auto` only support when `device_target` is GPU or Ascend.")
    if boost_level != "O0":
        logger.warning("For 'build_train_network', boost_level '%s' is not supported by gradstep: the network is "
                       "trained as with boost_level 'O0'." % boost_level)
    return level


class _AmpWithLossCell(nn.Cell):
    """The loss Cell of a float16 network: its output and the label cast to float32 first, so the
    loss computes in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        label = _mixed_precision_cast(mstype.float32, label)
        return self._loss_fn(_mixed_precision_cast(mstype.float32, out), label)


_AmpWithLossCell.__name__ = "WithLossCell"


def _add_loss_network(network, loss_fn, cast_model_type):
    check_value_type('loss_fn', loss_fn, nn.Cell)
    if cast_model_type == mstype.float16:
        return _AmpWithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def build_train_network(network, optimizer, loss_fn=None, level='O0', boost_level='O0', **kwargs):
    """A training Cell for network at a mixed-precision level: TrainOneStepWithLossScaleCell when
    the level's (or the given) loss_scale_manager has an update cell, TrainOneStepCell otherwise.
    kwargs: cast_model_type, keep_batchnorm_fp32, loss_scale_manager (overriding the level's)."""
    check_value_type('optimizer', optimizer, nn.Optimizer)
    level = _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_config_level(level), **kwargs)
    if config["cast_model_type"] == mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _do_keep_batchnorm_fp32(network)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
    elif config["cast_model_type"] == mstype.float32 and level in ("O2", "O3"):
        pass
    else:
        network = auto_mixed_precision(network, level)
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    if config["loss_scale_manager"] is not None:
        manager = config["loss_scale_manager"]
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()


def get_white_list():
    """A copy of the white list of O1 (Cells and primitives computed in float16)."""
    return list(AMP_WHITE_LIST)


def get_black_list():
    """A copy of the black list of O2 (Cells kept in float32)."""
    return list(AMP_BLACK_LIST)


def _list_check(custom_list, list_name):
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, nn.Cell) and not issubclass(elem, Primitive):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and 'Primitive', "
                            f"but got {elem}")
        if list_name == "black_list" and not issubclass(elem, nn.Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")
    if list_name == 'black_list':
        for elem in AMP_BLACK_LIST:
            if elem not in custom_list:
                logger.warning(f"{elem} is removed from internal black list.")


def custom_mixed_precision(network, *, white_list=None, black_list=None):
    """O1 with white_list, or O2 with black_list (exactly one of them), instead of the built-in lists."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided "
                         "at the same time, please provide one or the other.")
    if white_list is not None:
        _list_check(white_list, "white_list")
        return _auto_white_list(network, white_list)
    _list_check(black_list, "black_list")
    _auto_black_list(network, black_list)
    return _OutputTo32(network)
