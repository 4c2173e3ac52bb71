"""Checkpoints in MindSpore's .ckpt format: save_checkpoint, load_checkpoint, load_param_into_net
(also mindspore.save_checkpoint, ... as MindSpore 2.2 exports them).

A file is a sequence of serialized Checkpoint messages (_checkpoint_proto.py), one Value per
Parameter in MindSpore's order (a Cell's parameters_and_names, then append_dict); a 0-D tensor is
written with dims [0], as MindSpore does. Files are written to a temporary file in the target's
directory and renamed over it, so a failed save leaves the previous file (or none). async_save
writes in the caller's thread (the file is the same); integrated_save concerns parallel training
only. Encrypted checkpoints (enc_key / dec_key) are refused.
"""
import os
import tempfile

import numpy as np

import mindspore as _ms
from mindspore import Parameter, Tensor
from mindspore import log as logger
from mindspore.train import _checkpoint_proto as _proto

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]

_FLOAT_TYPES = ("Float16", "Float32", "Float64")
_INT_TYPES = ("Int8", "Int16", "Int32", "Int64")


def _check_bool(value, name, who):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the type of '%s' must be bool, but got %s."
                        % (who, name, type(value).__name__))


def _refuse_key(key, name, who):
    if key is not None:
        raise ValueError("For '%s', encrypted checkpoints ('%s') are not supported by gradstep."
                         % (who, name))


def _tensor_bytes(data):
    """(dims, tensor_type, content) of a Tensor as MindSpore writes them."""
    type_name = str(data.dtype)
    if type_name == "BFloat16":
        words = data.astype(_ms.float32).asnumpy().reshape(-1).view(np.uint32)
        flat = (words >> 16).astype(np.uint16)
    elif type_name in _proto.NUMPY_TYPES:
        flat = np.ascontiguousarray(data.asnumpy().reshape(-1))
    else:
        raise TypeError("For 'save_checkpoint', the dtype %s cannot be saved in a checkpoint." % type_name)
    dims = [0] if tuple(data.shape) == () else list(data.shape)
    return dims, type_name, flat.astype(flat.dtype.newbyteorder("<"), copy=False).tobytes()


def _items(save_obj, choice_func):
    """[(name, Tensor or str)] of a Cell, a list of {"name", "data"} dicts or a name -> data dict."""
    if isinstance(save_obj, _ms.nn.Cell):
        items = {}
        for _, param in save_obj.parameters_and_names():
            items.setdefault(param.name, param)
        items = list(items.items())
    elif isinstance(save_obj, dict):
        items = list(save_obj.items())
    elif isinstance(save_obj, list):
        items = []
        for entry in save_obj:
            if not isinstance(entry, dict) or "name" not in entry or "data" not in entry:
                raise TypeError("For 'save_checkpoint', when 'save_obj' is a list, each element must be a dict "
                                "with the keys 'name' and 'data', but got %r." % (entry,))
            items.append((entry["name"], entry["data"]))
    else:
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, "
                        "but got %s." % type(save_obj))
    for name, data in items:
        if not isinstance(name, str):
            raise TypeError("For 'save_checkpoint', the parameter name must be str, but got %s." % type(name))
        if not isinstance(data, (Tensor, str)):
            raise TypeError("For 'save_checkpoint', the data of '%s' must be a Parameter or a Tensor, but got %s."
                            % (name, type(data)))
    if choice_func is not None:
        items = [(name, data) for name, data in items if choice_func(name)]
    return items


def _append_items(append_dict):
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError("For 'save_checkpoint', the argument 'append_dict' must be dict, but got %s."
                        % type(append_dict))
    items = []
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: "
                            "int, float, bool, str, Parameter or Tensor, but got key: %s, value: %s"
                            % (type(key), type(value)))
        items.append((key, value if isinstance(value, (str, Tensor)) else Tensor(value)))
    return items


def _serialize(items):
    message = _proto.checkpoint_class()()
    for name, data in items:
        value = message.value.add()
        value.tag = name
        if isinstance(data, str):
            dims, type_name, content = [0], "str", np.array(data).tobytes()
        else:
            dims, type_name, content = _tensor_bytes(data)
        value.tensor.dims.extend(dims)
        value.tensor.tensor_type = type_name
        value.tensor.tensor_content = content
    return message.SerializeToString()


def _write_atomically(path, payload):
    directory = os.path.dirname(path) or "."
    fd, temp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.remove(temp)
        raise


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, **kwargs):
    """Writes the parameters of save_obj (a Cell, a list of {"name": ..., "data": ...} dicts or a dict
    name -> Parameter/Tensor) and append_dict to ckpt_file_name (".ckpt" appended when missing)."""
    if kwargs:
        raise TypeError("For 'save_checkpoint', got an unexpected keyword argument '%s'." % next(iter(kwargs)))
    if not isinstance(ckpt_file_name, str):
        raise TypeError("For 'save_checkpoint', the parameter %s for checkpoint file name is invalid,'ckpt_file_name' "
                        "must be string, but got %s." % (ckpt_file_name, type(ckpt_file_name)))
    _check_bool(integrated_save, "integrated_save", "save_checkpoint")
    _check_bool(async_save, "async_save", "save_checkpoint")
    _refuse_key(enc_key, "enc_key", "save_checkpoint")
    if choice_func is not None and not callable(choice_func):
        raise TypeError("For 'save_checkpoint', the type of 'choice_func' must be function, but got %s."
                        % type(choice_func))
    path = os.path.realpath(ckpt_file_name)
    if os.path.isdir(path):
        raise IsADirectoryError("For 'save_checkpoint', the parameter `ckpt_file_name`: %s is a directory, "
                                "it must be a file name." % path)
    if not path.endswith(".ckpt"):
        path += ".ckpt"
    items = _items(save_obj, choice_func) + _append_items(append_dict)
    _write_atomically(path, _serialize(items))


def _check_prefix(prefix, name):
    if prefix is None:
        return ()
    prefixes = (prefix,) if isinstance(prefix, str) else prefix
    if not isinstance(prefixes, (list, tuple)) or not prefixes or \
            not all(isinstance(p, str) and p for p in prefixes):
        raise TypeError("For 'load_checkpoint', the type of '%s' must be string, list[string] or tuple[string] "
                        "of non-empty strings, but got %r." % (name, prefix))
    return tuple(prefixes)


def _parse(path):
    with open(path, "rb") as f:
        payload = f.read()
    if not payload:
        raise ValueError("For 'load_checkpoint', the checkpoint file '%s' is empty." % path)
    message = _proto.checkpoint_class()()
    try:
        message.ParseFromString(payload)
    except _proto.decode_error_types() as err:
        raise ValueError("For 'load_checkpoint', the checkpoint file '%s' is not a complete MindSpore checkpoint "
                         "(truncated, corrupted or another format): %s" % (path, err)) from None
    if not message.IsInitialized():  # not every protobuf runtime checks required fields itself
        raise ValueError("For 'load_checkpoint', the checkpoint file '%s' is not a complete MindSpore checkpoint "
                         "(truncated, corrupted or another format): missing %s"
                         % (path, ", ".join(message.FindInitializationErrors())))
    if not message.value:
        raise ValueError("For 'load_checkpoint', the checkpoint file '%s' holds no parameter: it is not a "
                         "MindSpore checkpoint." % path)
    return message


def _joined(message):
    """(tag, dims, tensor_type, bytes): a tensor MindSpore split into consecutive Values is joined."""
    merged = []
    for value in message.value:
        tensor = value.tensor
        if merged and merged[-1][0] == value.tag:
            merged[-1][3].append(tensor.tensor_content)
        else:
            merged.append((value.tag, list(tensor.dims), tensor.tensor_type, [tensor.tensor_content]))
    return [(tag, dims, type_name, b"".join(parts)) for tag, dims, type_name, parts in merged]


def _decode(path, tag, dims, type_name, content):
    def bad(what):
        return ValueError("For 'load_checkpoint', the checkpoint file '%s' is corrupted: the parameter '%s' %s."
                          % (path, tag, what))

    if type_name == "str":
        text = np.frombuffer(content, dtype="<U%d" % max(len(content) // 4, 1)) if len(content) % 4 == 0 else None
        if text is None or text.size != 1:
            raise bad("has %d bytes, not one string" % len(content))
        return str(text[0])
    np_type = _proto.NUMPY_TYPES.get(type_name)
    if np_type is None:
        raise bad("has the unknown tensor_type %r" % type_name)
    itemsize = np.dtype(np_type).itemsize
    count = 1 if dims == [0] else int(np.prod(dims, dtype=np.int64))
    if any(d < 0 for d in dims) or len(content) != count * itemsize:
        raise bad("has %d bytes for dims %s of %s (%d expected)" % (len(content), dims, type_name, count * itemsize))
    data = np.frombuffer(content, dtype=np.dtype(np_type).newbyteorder("<")).astype(np_type)
    # MindSpore's reading: dims [0] is a 0-D float or integer tensor; other one-element dims stay 1-D.
    if dims == [0] and ("Float" in type_name or "Int" in type_name):
        data = data.reshape(())
    elif dims not in ([0], [1]):
        data = data.reshape(dims)
    ms_type = getattr(_ms, "bool_" if type_name == "Bool" else type_name.lower())
    if type_name == "BFloat16":
        widened = (data.astype(np.uint32) << 16).view(np.float32)
        return Tensor(widened, _ms.float32).astype(ms_type)
    return Tensor(data, ms_type)


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """{name: Parameter} of a MindSpore checkpoint file, loaded into net when it is given."""
    if not isinstance(ckpt_file_name, str):
        raise TypeError("For 'load_checkpoint', the type of 'ckpt_file_name' must be str, but got %s."
                        % type(ckpt_file_name))
    if not ckpt_file_name.endswith(".ckpt"):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt', please input the "
                         "correct 'ckpt_file_name', but got %s." % ckpt_file_name)
    path = os.path.realpath(ckpt_file_name)
    if not os.path.isfile(path):
        raise ValueError("For 'load_checkpoint', the checkpoint file: %s does not exist, please check whether the "
                         "'ckpt_file_name' is correct." % ckpt_file_name)
    _check_bool(strict_load, "strict_load", "load_checkpoint")
    _refuse_key(dec_key, "dec_key", "load_checkpoint")
    filters = _check_prefix(filter_prefix, "filter_prefix")
    specified = _check_prefix(specify_prefix, "specify_prefix")
    if choice_func is not None and not callable(choice_func):
        raise TypeError("For 'load_checkpoint', the type of 'choice_func' must be function, but got %s."
                        % type(choice_func))
    if choice_func is not None and (filters or specified):
        raise ValueError("For 'load_checkpoint', when 'choice_func' is set, 'filter_prefix' and 'specify_prefix' "
                         "must be None.")
    parameter_dict = {}
    for tag, dims, type_name, content in _joined(_parse(path)):
        if specified and not tag.startswith(specified):
            continue
        if tag.startswith(filters) if filters else False:
            continue
        if choice_func is not None and not choice_func(tag):
            continue
        data = _decode(path, tag, dims, type_name, content)
        if isinstance(data, str):
            parameter_dict[tag] = data
        else:  # gradstep's Bool Parameters must say they carry no gradient
            parameter_dict[tag] = Parameter(data, name=tag, requires_grad=type_name != "Bool")
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load)
    return parameter_dict


def _trailing_ones_fit(param, new_param):
    """MindSpore loads (12, 2048, 1, 1) into (12, 2048): the extra trailing dimensions are 1."""
    shape, new_shape = tuple(param.shape), tuple(new_param.shape)
    return len(new_shape) > len(shape) and new_shape[:len(shape)] == shape and \
        all(d == 1 for d in new_shape[len(shape):])


def _convertible(param, new_param, strict_load):
    kinds = {str(param.dtype), str(new_param.dtype)}
    return not strict_load and (kinds <= set(_FLOAT_TYPES) or kinds <= set(_INT_TYPES))


def _update_param(param, new_param, strict_load):
    if tuple(param.shape) != tuple(new_param.shape) and not _trailing_ones_fit(param, new_param):
        raise RuntimeError(
            "For 'load_param_into_net', %s in the argument 'net' should have the same shape as %s in the argument "
            "'parameter_dict'. But got its shape %s in the argument 'net' and shape %s in the argument "
            "'parameter_dict'.May you need to check whether the checkpoint you loaded is correct or the batch size "
            "and so on in the 'net' and 'parameter_dict' are same."
            % (param.name, param.name, tuple(param.shape), tuple(new_param.shape)))
    data = new_param.reshape(param.shape) if tuple(param.shape) != tuple(new_param.shape) else new_param
    if param.dtype != new_param.dtype:
        if not _convertible(param, new_param, strict_load):
            raise RuntimeError(
                "For 'load_param_into_net', %s in the argument 'net' should have the same type as %s in the argument "
                "'parameter_dict'. but got its type %s in the argument 'net' and type %s in the argument "
                "'parameter_dict'.May you need to check whether the checkpoint you loaded is correct."
                % (param.name, param.name, param.dtype, new_param.dtype))
        logger.warning("The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then "
                       "the type convert from %s to %s in the network."
                       % (new_param.name, new_param.dtype, param.dtype, new_param.dtype, param.dtype))
        data = data.astype(param.dtype)
    param.set_data(Tensor(data))


def _prefixed_matches(not_loaded, parameter_dict):
    """MindSpore's non-strict fallback: one prefix that turns the unloaded names into checkpoint names
    (a checkpoint of a wrapped network loaded into the bare one, or the reverse)."""
    for name in not_loaded:
        for key in parameter_dict:
            if key != name and key.endswith(name) and key[-len(name) - 1] == ".":
                prefix = key[:-len(name)]
                return {n: prefix + n for n in not_loaded if prefix + n in parameter_dict}
    return {}


def load_param_into_net(net, parameter_dict, strict_load=False):
    """Loads parameter_dict into net's Parameters of the same name; returns (param_not_load,
    ckpt_not_load): the net's Parameters left as they were and the checkpoint's entries not used."""
    if not isinstance(net, _ms.nn.Cell):
        raise TypeError("For 'load_param_into_net', the argument 'net' should be a Cell, but got %s." % type(net))
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got %s."
                        % type(parameter_dict))
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str)):
            raise TypeError("For 'load_param_into_net', the element in the argument 'parameter_dict' should be a "
                            "'Parameter', but got %s." % type(value))
    _check_bool(strict_load, "strict_load", "load_param_into_net")
    params = {}
    for _, param in net.parameters_and_names():
        params.setdefault(param.name, param)
    param_not_load, ckpt_not_load = [], list(parameter_dict)
    for name, param in params.items():
        new_param = parameter_dict.get(name)
        if isinstance(new_param, Parameter):
            _update_param(param, new_param, strict_load)
            ckpt_not_load.remove(name)
        else:
            param_not_load.append(name)
    if param_not_load and not strict_load:
        for name, key in _prefixed_matches(param_not_load, parameter_dict).items():
            if isinstance(parameter_dict[key], Parameter):
                _update_param(params[name], parameter_dict[key], strict_load)
                param_not_load.remove(name)
                if key in ckpt_not_load:
                    ckpt_not_load.remove(key)
    if param_not_load:
        logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not "
                       "in the 'parameter_dict': %s" % (len(param_not_load), param_not_load))
    return param_not_load, ckpt_not_load


# MindSpore 2.2 defines export and load in this module too, and scripts import them from here.
from mindspore.train._deployment import export, load  # noqa: E402,F401
