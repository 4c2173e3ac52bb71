"""Compiled graphs to and from MindSpore's MINDIR files (mind_ir.ModelProto, _mindir_proto.py).

The core describes a compiled graph (mindspore._export_graph) and builds one back from a description
(mindspore._GraphRunner): Note [Graphs for MINDIR] in core/python/jit/jit_export.cpp. This module maps
descriptions to MindSpore 2.2's layout and back:
- graph inputs are ValueInfoProtos ("<graph>:<name>", one TensorProto with dims and data_type) and
  Parameters are GraphProto.parameter TensorProtos holding their values in raw_data (little-endian);
- every op node names a PrimitiveProto of ModelProto.primitives ("REF::<name>"), which carries the
  primitive's type (MindSpore's primitive name) and its attributes; the node's "shape" attribute
  records its output type as MindSpore's exporter does;
- constants are "Constant" nodes with a "value" attribute; a node with several outputs is read
  through TupleGetItem nodes, a tuple result is a MakeTuple node.
The reader also takes MindSpore 1.x's layout (op_type the primitive name, attributes on the node) and
passes through the nodes that only order side effects (Load, Depend, UpdateState, monads).
"""
import warnings

import numpy as np

import mindspore as _ms
from mindspore.train import _mindir_proto as _proto
from mindspore.train._checkpoint_proto import NUMPY_TYPES

__all__ = []

# Nodes that are plumbing in MindSpore's graphs, not computations.
_PASS_FIRST = ("Depend", "Load")
_MONADS = ("UpdateState",)
# Arguments MindSpore 2.2's primitives take as (constant) inputs after their tensors, which the core's
# ops hold as attributes of these names: the writer moves them into Constant inputs, the reader back.
_REDUCTIONS = ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny")
_INPUT_ATTRS = dict({"Reshape": ("shape",), "Transpose": ("perm",), "Tile": ("multiples",), "ExpandDims": ("axis",),
                     "Gather": ("axis",), "Cast": ("dtype",), "StridedSlice": ("begin", "end", "strides")},
                    **{op: ("axis",) for op in _REDUCTIONS})
# What an op left out when it means the default (a reduction over every axis).
_INPUT_DEFAULTS = {"axis": ()}
# StridedSlice's masks, which the core's StridedSlice has already applied to begin / end / strides.
_SLICE_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
# Attributes MindSpore keeps on primitives for its own bookkeeping; our ops have no use for them.
_SKIPPED_ATTRS = ("input_names", "output_names", "primitive_target")


# protobuf serializes no message of 2 GB or more.
_MAX_FILE_BYTES = 2**31 - 1
# Reading: a node's value is a value id (int, a tensor), _Outputs (an op's outputs), a tuple (MakeTuple),
# a _Const or _MONAD.
_MONAD = object()
# How many outputs the reader gives a primitive whose node does not say: more than the core's ops
# return but Split (whose output_num says).
_MAX_OUTPUTS = 8


class _Const:
    """A constant that is not a tensor: a scalar, a tuple of ints or a dtype."""

    def __init__(self, value):
        self.value = value


class _Outputs(list):
    """The value ids of an op node's outputs: as an operand, the node means its first output."""


class MindIRError(Exception):
    """A file that is not a MINDIR model gradstep can run; _deployment turns it into load's error."""


def _first(value):
    return value[0] if isinstance(value, _Outputs) else value


def _dtype(type_name):
    """The mindspore dtype whose str() is type_name ("Float32" -> mindspore.float32)."""
    return getattr(_ms, "bool_" if type_name == "Bool" else type_name.lower())


def _dtype_of(number, where):
    if number not in _proto.DATA_TYPES:
        raise MindIRError("%s has the data_type %d, which is not one of MindSpore's tensor types." % (where, number))
    return _proto.DATA_TYPES[number]


def _fill_tensor_proto(proto, tensor, name=None):
    type_name = str(tensor.dtype)
    if type_name not in NUMPY_TYPES or type_name == "BFloat16":
        raise TypeError("For 'export', the dtype %s cannot be written in a MINDIR file by gradstep." % type_name)
    proto.dims.extend(tensor.shape)
    proto.data_type = _proto.DATA_TYPE_OF[type_name]
    if name is not None:
        proto.name = name
    flat = np.ascontiguousarray(tensor.asnumpy().reshape(-1))
    proto.raw_data = flat.astype(flat.dtype.newbyteorder("<"), copy=False).tobytes()


def _fill_attr(proto, name, value, element=False):
    """An attribute as MindSpore writes one: a scalar in i / f / s, or, as an element of a tuple, in
    the repeated ints / floats / strings (MindSpore's reader takes a tuple's elements from there)."""
    proto.name = name
    if value is None:
        proto.type = _proto.ATTR["NONE"]
    elif isinstance(value, (bool, int)):
        proto.type = _proto.ATTR["BOOL" if isinstance(value, bool) else "INT64"]
        if element:
            proto.ints.append(int(value))
        else:
            proto.i = int(value)
    elif isinstance(value, float):  # MindSpore holds a primitive's float attributes as float32
        proto.type = _proto.ATTR["FLOAT"]
        if element:
            proto.floats.append(value)
        else:
            proto.f = value
    elif isinstance(value, str):
        proto.type = _proto.ATTR["STRING"]
        if element:
            proto.strings.append(value.encode())
        else:
            proto.s = value.encode()
    elif isinstance(value, tuple):
        proto.type = _proto.ATTR["TUPLE"]
        for item in value:
            _fill_attr(proto.values.add(), "", item, element=True)
    else:  # a dtype: MindSpore's "type form", a TENSORS attribute whose tensor has a data_type, no data
        proto.type = _proto.ATTR["TENSORS"]
        proto.tensors.add().data_type = _proto.DATA_TYPE_OF[str(value)]


def write_model(description, file_name):
    """Writes the graph `description` (mindspore._export_graph) to file_name as a ModelProto."""
    model = _proto.model_class()()
    model.ir_version = "1"
    model.mind_ir_version = 1
    model.producer_name = "MindSpore"
    model.producer_version = _ms.__version__
    model.little_endian = True
    graph = model.graph
    graph.name = description["name"]
    values = description["values"]
    names = {}

    def name_of(value_id):
        if value_id not in names:
            names[value_id] = "%s:%%%d" % (graph.name, value_id)
        return names[value_id]

    taken = set()
    parameters = iter(description["parameters"])
    for value_id in description["inputs"]:
        kind, name, dtype, shape = values[value_id]
        unique, k = name, 1
        while unique in taken:  # two Parameters may share a name; MindIR names must differ
            unique, k = "%s_%d" % (name, k), k + 1
        taken.add(unique)
        names[value_id] = "%s:%s" % (graph.name, unique)
        if kind == "parameter":
            _fill_tensor_proto(graph.parameter.add(), next(parameters), names[value_id])
        else:
            graph.input.add(name=names[value_id]).tensor.add(dims=shape, data_type=_proto.DATA_TYPE_OF[str(dtype)])
    for value_id, tensor in description["constants"].items():
        node = graph.node.add(op_type="Constant", name=name_of(value_id), output=[name_of(value_id)])
        # MindSpore writes a tensor constant as a TENSORS attribute whose tensor holds raw_data.
        _fill_tensor_proto(node.attribute.add(name="value", type=_proto.ATTR["TENSORS"]).tensors.add(), tensor)

    def add_primitive(op_type, attrs, instance):
        primitive = model.primitives.add(name="%s_%d" % (op_type, len(model.primitives)), op_type=op_type,
                                         instance_name=instance)
        for attr_name, value in attrs.items():
            _fill_attr(primitive.attribute.add(), attr_name, value)
        return "REF::" + primitive.name

    constant_names = {}

    def add_constant(value):
        """A Constant node holding a scalar, a tuple of ints or a dtype (one per distinct value)."""
        key = (type(value).__name__, str(value))
        if key not in constant_names:
            name = constant_names[key] = "%s:constant%d" % (graph.name, len(constant_names))
            _fill_attr(graph.node.add(op_type="Constant", name=name, output=[name]).attribute.add(), "value", value)
        return constant_names[key]

    for k, spec in enumerate(description["nodes"]):
        outputs = spec["outputs"]
        op = spec["op"]
        node_name = "%s:%s_%d" % (graph.name, op, k) if len(outputs) > 1 else name_of(outputs[0])
        inputs = [name_of(i) for i in spec["inputs"]]
        if spec["variadic"]:  # MindSpore's Concat, Stack, AddN take one tuple of tensors
            packed = "%s:%s_%d_inputs" % (graph.name, op, k)
            graph.node.add(op_type=add_primitive("MakeTuple", {}, graph.name), name=packed, output=[packed],
                           input=inputs)
            inputs = [packed]
        attrs = dict(spec["attrs"])
        for attr_name in _INPUT_ATTRS.get(op, ()):
            inputs.append(add_constant(attrs.pop(attr_name, _INPUT_DEFAULTS.get(attr_name))))
        node = graph.node.add(op_type=add_primitive(op, attrs, spec["scope"] or graph.name),
                              name=node_name, output=[node_name], domain=spec["scope"], input=inputs)
        shape = node.attribute.add(name="shape", type=_proto.ATTR["TENSORS"])
        for value_id in outputs:
            _, _, dtype, dims = values[value_id]
            shape.tensors.add(dims=dims, data_type=_proto.DATA_TYPE_OF[str(dtype)])
        if len(outputs) > 1:
            for index, value_id in enumerate(outputs):
                graph.node.add(op_type=add_primitive("TupleGetItem", {}, graph.name), name=name_of(value_id),
                               output=[name_of(value_id)], input=[node_name, add_constant(index)])
    results = [name_of(i) for i in description["outputs"]]
    if description["tuple_output"]:
        result = "%s:result" % graph.name
        graph.node.add(op_type=add_primitive("MakeTuple", {}, graph.name), name=result, output=[result],
                       input=results)
    else:
        result = results[0]
    info = graph.output.add(name=result)
    for value_id in description["outputs"]:
        _, _, dtype, dims = values[value_id]
        info.tensor.add(dims=dims, data_type=_proto.DATA_TYPE_OF[str(dtype)])
    size = model.ByteSize()
    if size >= _MAX_FILE_BYTES:
        raise ValueError("For 'export', the model '%s' needs %d bytes, over protobuf's limit of 2 GB for one "
                         "message; MindSpore keeps the weights of such models in external data files, which "
                         "gradstep does not write." % (graph.name, size))
    data = model.SerializeToString()
    with open(file_name, "wb") as f:
        f.write(data)
    return len(data)


def _t(text):
    """A name the reader parsed as bytes (model_class(text_as_bytes=True))."""
    return text.decode("utf-8", "replace")


def _tensor_from_proto(proto, where):
    """A Tensor from a TensorProto's dims, data_type and data (raw_data or the typed lists)."""
    type_name = _dtype_of(proto.data_type, where)
    if type_name == "BFloat16" or type_name.startswith("Complex"):
        raise MindIRError("%s holds %s values, which gradstep does not read from MINDIR files." % (where, type_name))
    if proto.HasField("external_data"):
        raise MindIRError("%s keeps its data in the external file '%s'; gradstep reads MINDIR files that hold "
                          "their weights." % (where, _t(proto.external_data.location)))
    np_type = np.dtype(NUMPY_TYPES[type_name])
    shape = tuple(proto.dims)
    count = int(np.prod(shape, dtype=np.int64))
    if proto.raw_data:
        if len(proto.raw_data) != count * np_type.itemsize:
            raise MindIRError("%s has %d bytes of data, but its shape %s of %s needs %d."
                              % (where, len(proto.raw_data), list(shape), type_name, count * np_type.itemsize))
        flat = np.frombuffer(proto.raw_data, np_type.newbyteorder("<")).astype(np_type)
    else:
        typed = proto.float_data or proto.int32_data or proto.int64_data or proto.double_data or proto.uint64_data
        if len(typed) != count:
            raise MindIRError("%s has %d values, but its shape %s needs %d." % (where, len(typed), list(shape), count))
        flat = np.array(typed).astype(np_type)
    return _ms.Tensor(flat.reshape(shape).copy())


def _attr_value(proto, where):
    """A primitive attribute as the core's attributes hold it, or None for what they cannot hold.
    MindSpore 1.x wrote a tuple as its elements' type with the elements in the repeated fields
    (ref_attr_name "scalar:Tuple[value1,...],") and a dtype as a TENSORS attribute."""
    kind = proto.type
    ref = _t(proto.ref_attr_name)
    if ref.startswith(("scalar:Tuple[", "scalar:List[")):
        items = list(proto.ints) or list(proto.floats) or list(proto.doubles)
        return tuple(int(v) for v in items) if proto.ints or not items else None

    def scalar(single, repeated):  # a scalar in its own field, or (a tuple's element) in the repeated one
        return getattr(proto, single) if proto.HasField(single) or not getattr(proto, repeated) \
            else getattr(proto, repeated)[0]

    if kind in (_proto.ATTR["BOOL"],):
        return bool(scalar("i", "ints"))
    if kind in (_proto.ATTR[t] for t in ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64")):
        return int(scalar("i", "ints"))
    if kind == _proto.ATTR["FLOAT"]:
        return float(scalar("f", "floats"))
    if kind == _proto.ATTR["DOUBLE"]:
        return float(scalar("d", "doubles"))
    if kind == _proto.ATTR["STRING"]:
        return _t(scalar("s", "strings"))
    if kind in (_proto.ATTR["TUPLE"], _proto.ATTR["LIST"]):
        items = [_attr_value(v, where) for v in proto.values]
        return tuple(items) if all(isinstance(v, int) and not isinstance(v, bool) for v in items) else None
    if kind == _proto.ATTR["TENSORS"] and len(proto.tensors) == 1 and not proto.tensors[0].HasField("raw_data") \
            and not proto.tensors[0].dims:
        return _dtype(_dtype_of(proto.tensors[0].data_type, where))
    if kind == _proto.ATTR["UNDEFINED"] and proto.ints:  # MindSpore 1.x: a tuple of ints
        return tuple(int(v) for v in proto.ints)
    return None


def _constant(node, where):
    """A Constant node's value: a Tensor, a _Const (a scalar, tuple, dtype or None: an op argument),
    or _MONAD (the side-effect tokens, which no op of ours takes)."""
    for attr in node.attribute:
        if _t(attr.name) != "value":
            continue
        if attr.type == _proto.ATTR["TENSOR"] or attr.HasField("t"):
            return _tensor_from_proto(attr.t, where)
        if attr.type == _proto.ATTR["TENSORS"] and attr.tensors and (
                attr.tensors[0].HasField("raw_data") or _t(attr.ref_attr_name).startswith("tensor:")):
            return _tensor_from_proto(attr.tensors[0], where)  # a tensor holds data; without, it names a dtype
        if attr.type in (_proto.ATTR["UMONAD"], _proto.ATTR["IOMONAD"]):
            return _MONAD
        return _Const(None if attr.type == _proto.ATTR["NONE"] else _attr_value(attr, where))
    raise MindIRError("%s has no 'value' attribute." % where)


def _is_output_type(attr):
    """Whether a node attribute records the node's output types: 2.x names it "shape", 1.x leaves it
    unnamed with ref_attr_name "shape:..."."""
    return (_t(attr.name) == "shape" and attr.type == _proto.ATTR["TENSORS"]) or \
        _t(attr.ref_attr_name).startswith("shape:")


def _output_count(node, attrs):
    """An upper bound on a primitive node's outputs: its "shape" attribute's types, Split's
    output_num, else _MAX_OUTPUTS (the core maps as many as the op really has)."""
    count = _MAX_OUTPUTS
    for attr in list(node.attribute) + list(attrs):
        if _is_output_type(attr):
            count = max(count, len(attr.tensors))
        elif _t(attr.name) == "output_num" and 0 < attr.i < 1 << 20:
            count = max(count, attr.i)
    return count


def _is_tensor(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _op_node(op, attrs, args, outputs, constants, where, scope):
    """The description of a primitive's node: its tensor inputs (a tuple's elements spliced in, as
    MindSpore passes Concat its tensors), its attributes, and its trailing constant inputs turned
    into the attributes the core's op has for them (_INPUT_ATTRS)."""
    tensors, extra = [], []
    for arg in args:
        if arg is _MONAD:
            continue
        items = arg if isinstance(arg, tuple) else (_first(arg),)
        for item in items:
            if _is_tensor(item) and not extra:
                tensors.append(item)
            else:
                extra.append(item)
    converted = {}
    for attr in attrs:
        name = _t(attr.name)
        if name in _SKIPPED_ATTRS or _is_output_type(attr):
            continue  # bookkeeping, or the node's output type (1.x files keep it beside the attributes)
        value = _attr_value(attr, "%s attribute '%s'" % (where, name))
        if value is not None:
            converted[name] = value
    names = _INPUT_ATTRS.get(op, ())
    if len(extra) > len(names):
        raise MindIRError("%s takes %d inputs that are not tensors, and gradstep's %s takes %d such arguments%s"
                          % (where, len(extra), op, len(names), " (%s)" % ", ".join(names) if names else ""))
    for name, item in zip(names, extra):
        if _is_tensor(item) and item in constants:  # a constant tensor holding the argument's values
            item = _Const(constants[item].asnumpy().tolist())
        if not isinstance(item, _Const):
            raise MindIRError("%s takes its '%s' from a computed tensor; gradstep's %s needs it constant"
                              % (where, name, op))
        value = item.value
        if op in _REDUCTIONS and isinstance(value, int):  # MindSpore's axis may be one int
            value = (value,)
        if isinstance(value, list):
            value = tuple(value)
        if value is not None:
            converted[name] = value
    if op == "StridedSlice" and any(converted.pop(mask, 0) for mask in _SLICE_MASKS):
        raise MindIRError("%s has StridedSlice masks; gradstep's StridedSlice takes begin, end and strides with "
                          "the masks already applied" % where)
    return {"op": op, "inputs": tensors, "outputs": outputs, "attrs": converted, "scope": scope}


def read_model(data):
    """The graph description, parameter names and values of a serialized ModelProto."""
    from google.protobuf.message import DecodeError

    model = _proto.model_class(text_as_bytes=True)()
    try:
        # protobuf only warns when it meets a stray end-group tag and stops there (a warning made an
        # error inside its C++ parser becomes a SystemError): a corrupt file too.
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            model.ParseFromString(data)
        if warned:
            raise ValueError(str(warned[0].message))
    except (DecodeError, RuntimeError, ValueError) as e:
        raise MindIRError("it is not a MindSpore MINDIR model (the protobuf ModelProto does not parse: %s)" % e) \
            from None
    graph = model.graph
    if not graph.node:
        raise MindIRError("it holds no graph (a MINDIR model's ModelProto has a graph with nodes)")
    primitives = {_t(p.name): p for p in model.primitives}
    values, inputs, parameters, parameter_names, constants, nodes = [], [], [], [], {}, []
    defined = {}  # node or input name -> its value (see _MONAD)

    def new_value(kind, name, dtype, shape):
        values.append((kind, name, dtype, shape))
        return len(values) - 1

    for info in graph.input:
        where = "the input '%s'" % _t(info.name)
        if len(info.tensor) != 1:
            raise MindIRError("%s is not a tensor (gradstep runs graphs whose inputs are tensors)" % where)
        t = info.tensor[0]
        if any(d < 0 for d in t.dims):
            raise MindIRError("%s has the dynamic shape %s; gradstep runs MINDIR graphs exported with static shapes"
                              % (where, list(t.dims)))
        short = _t(info.name).split(":")[-1]
        value_id = new_value("argument", short, _dtype(_dtype_of(t.data_type, where)), tuple(t.dims))
        inputs.append(value_id)
        defined[_t(info.name)] = value_id
    for p in graph.parameter:
        tensor = _tensor_from_proto(p, "the parameter '%s'" % _t(p.name))
        short = _t(p.name).split(":")[-1]
        value_id = new_value("parameter", short, tensor.dtype, tuple(tensor.shape))
        inputs.append(value_id)
        parameters.append(tensor)
        parameter_names.append(short)
        defined[_t(p.name)] = value_id

    def use(name, where):
        if name not in defined:
            raise MindIRError("%s uses '%s', which no input, parameter or earlier node defines" % (where, name))
        return defined[name]

    result = None
    for index, node in enumerate(graph.node):
        op_type = _t(node.op_type)
        where = "node %d ('%s', %s)" % (index, _t(node.name), op_type)
        outputs = [_t(o) for o in node.output] or [_t(node.name)]
        if op_type == "Constant":
            value = _constant(node, where)
            if isinstance(value, _ms.Tensor):
                value_id = new_value("constant", "", value.dtype, tuple(value.shape))
                constants[value_id] = value
                value = value_id
            for out in outputs:
                defined[out] = value
            continue
        if op_type.startswith("REF::"):
            primitive = primitives.get(op_type[5:])
            if primitive is None:
                raise MindIRError("%s refers to the primitive '%s', which the model does not hold"
                                  % (where, op_type[5:]))
            op, attrs = _t(primitive.op_type), primitive.attribute
        else:
            op, attrs = op_type.split("::")[-1], node.attribute
        args = [use(_t(name), where) for name in node.input]
        if op == "Return":
            result = args[0] if args else None
            continue
        if op == "MakeTuple":
            value = tuple(_first(a) for a in args)
        elif op == "TupleGetItem":
            if len(args) != 2 or not isinstance(args[0], (list, tuple)) or not isinstance(args[1], _Const) \
                    or not isinstance(args[1].value, int):
                raise MindIRError("%s does not take an element of a tuple by a constant index" % where)
            if not 0 <= args[1].value < len(args[0]):
                raise MindIRError("%s takes element %d of a tuple of %d" % (where, args[1].value, len(args[0])))
            value = args[0][args[1].value]
        elif op in _PASS_FIRST:
            value = args[0] if args else _MONAD
        elif op in _MONADS:
            value = _MONAD
        else:
            value = _Outputs(new_value("output", "", _ms.float32, ()) for _ in range(_output_count(node, attrs)))
            nodes.append(_op_node(op, attrs, args, value, constants, where, _t(node.domain)))
        for out in outputs:
            defined[out] = value
    if result is None:  # MindSpore's files name the results in graph.output; several make a tuple
        if not graph.output:
            raise MindIRError("its graph names no output")
        outputs = [use(_t(info.name), "the graph's output") for info in graph.output]
        result = tuple(_first(v) for v in outputs) if len(outputs) > 1 else outputs[0]
    tuple_output = isinstance(result, tuple)
    leaves = list(result) if tuple_output else [_first(result)]
    if any(not _is_tensor(v) for v in leaves):
        raise MindIRError("its graph returns something that is not a tensor or a tuple of tensors")
    description = {"name": _t(graph.name) or "graph", "values": values, "inputs": inputs, "parameters": parameters,
                   "constants": constants, "nodes": nodes, "outputs": leaves, "tuple_output": tuple_output}
    return description, parameter_names
