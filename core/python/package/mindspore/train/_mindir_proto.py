"""MindSpore's MINDIR file format: the messages of its mind_ir.proto (package mind_ir, proto2, as in
MindSpore 2.2), built at run time from a descriptor as the checkpoint messages are
(_checkpoint_proto.py). The fields gradstep reads or writes are declared with MindSpore's numbers and
types; the others (ModelProto's preprocessor and parallel, GraphProto's map_parameter, TensorProto's
quant_params, AttributeProto's tuple_info) are left out, so a file holding them still parses: protobuf
skips fields a message does not declare.
"""
from mindspore.train._checkpoint_proto import _MISSING, _message_class, field as _field

__all__ = []

# AttributeProto.AttributeType and TensorProto.DataType, the values MindSpore writes.
ATTR = dict(UNDEFINED=0, FLOAT=1, UINT8=2, INT8=3, UINT16=4, INT16=5, INT32=6, INT64=7, STRING=8, BOOL=9,
            FLOAT16=10, DOUBLE=11, UINT32=12, UINT64=13, COMPLEX64=14, COMPLEX128=15, BFLOAT16=16, TENSOR=17,
            GRAPH=18, TENSORS=19, TUPLE=20, LIST=21, DICT=22, UMONAD=23, IOMONAD=24, NONE=25)
# TensorProto.DataType -> str(mindspore dtype); FLOAT64 and DOUBLE both mean Float64.
DATA_TYPES = {1: "Float32", 2: "UInt8", 3: "Int8", 4: "UInt16", 5: "Int16", 6: "Int32", 7: "Int64", 9: "Bool",
              10: "Float16", 11: "Float64", 12: "UInt32", 13: "UInt64", 14: "Complex64", 15: "Complex128",
              16: "BFloat16", 17: "Float64"}
DATA_TYPE_OF = {name: number for number, name in DATA_TYPES.items() if number != 17}

_classes = {}


def _file_descriptor(text_as_bytes):
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto(name="gradstep_mind_ir.proto", package="mind_ir", syntax="proto2")
    F = descriptor_pb2.FieldDescriptorProto
    opt, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED

    def field(msg, name, number, ftype, label, type_name=None):
        if ftype == F.TYPE_STRING and text_as_bytes:
            ftype = F.TYPE_BYTES
        _field(msg, name, number, ftype, label, type_name)

    attr = fdp.message_type.add(name="AttributeProto")
    for name, number, ftype, label, type_name in (
            ("name", 1, F.TYPE_STRING, opt, None), ("f", 2, F.TYPE_FLOAT, opt, None),
            ("i", 3, F.TYPE_INT64, opt, None), ("d", 4, F.TYPE_DOUBLE, opt, None),
            ("s", 5, F.TYPE_BYTES, opt, None), ("t", 6, F.TYPE_MESSAGE, opt, ".mind_ir.TensorProto"),
            ("g", 7, F.TYPE_MESSAGE, opt, ".mind_ir.GraphProto"), ("floats", 8, F.TYPE_FLOAT, rep, None),
            ("doubles", 9, F.TYPE_DOUBLE, rep, None), ("ints", 10, F.TYPE_INT64, rep, None),
            ("strings", 11, F.TYPE_BYTES, rep, None), ("tensors", 12, F.TYPE_MESSAGE, rep, ".mind_ir.TensorProto"),
            ("graphs", 13, F.TYPE_MESSAGE, rep, ".mind_ir.GraphProto"), ("doc_string", 14, F.TYPE_STRING, opt, None),
            ("ref_attr_name", 15, F.TYPE_STRING, opt, None), ("type", 16, F.TYPE_INT32, opt, None),
            ("values", 17, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")):
        field(attr, name, number, ftype, label, type_name)

    info = fdp.message_type.add(name="ValueInfoProto")
    field(info, "name", 1, F.TYPE_STRING, opt)
    field(info, "tensor", 2, F.TYPE_MESSAGE, rep, ".mind_ir.TensorProto")
    field(info, "doc_string", 3, F.TYPE_STRING, opt)
    field(info, "denotation", 4, F.TYPE_STRING, opt)
    field(info, "attr_info", 5, F.TYPE_MESSAGE, opt, ".mind_ir.AttributeProto")

    node = fdp.message_type.add(name="NodeProto")
    field(node, "input", 1, F.TYPE_STRING, rep)
    field(node, "output", 2, F.TYPE_STRING, rep)
    field(node, "name", 3, F.TYPE_STRING, opt)
    field(node, "op_type", 4, F.TYPE_STRING, opt)
    field(node, "attribute", 5, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")
    field(node, "doc_string", 6, F.TYPE_STRING, opt)
    field(node, "domain", 7, F.TYPE_STRING, opt)
    field(node, "node_attr", 8, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")
    field(node, "primal_attr", 9, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")

    model = fdp.message_type.add(name="ModelProto")
    for name, number in (("ir_version", 1), ("producer_name", 2), ("producer_version", 3), ("domain", 4),
                         ("model_version", 5), ("doc_string", 6)):
        field(model, name, number, F.TYPE_STRING, opt)
    field(model, "graph", 7, F.TYPE_MESSAGE, opt, ".mind_ir.GraphProto")
    field(model, "functions", 8, F.TYPE_MESSAGE, rep, ".mind_ir.GraphProto")
    field(model, "little_endian", 10, F.TYPE_BOOL, opt)
    field(model, "primitives", 12, F.TYPE_MESSAGE, rep, ".mind_ir.PrimitiveProto")
    field(model, "mind_ir_version", 13, F.TYPE_INT64, opt)

    graph = fdp.message_type.add(name="GraphProto")
    field(graph, "node", 1, F.TYPE_MESSAGE, rep, ".mind_ir.NodeProto")
    field(graph, "name", 2, F.TYPE_STRING, opt)
    field(graph, "parameter", 3, F.TYPE_MESSAGE, rep, ".mind_ir.TensorProto")
    field(graph, "doc_string", 4, F.TYPE_STRING, opt)
    field(graph, "input", 5, F.TYPE_MESSAGE, rep, ".mind_ir.ValueInfoProto")
    field(graph, "output", 6, F.TYPE_MESSAGE, rep, ".mind_ir.ValueInfoProto")
    field(graph, "bprop_hash", 7, F.TYPE_STRING, opt)
    field(graph, "attribute", 8, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")
    field(graph, "bprop_filepath", 9, F.TYPE_STRING, opt)

    tensor = fdp.message_type.add(name="TensorProto")
    external = tensor.nested_type.add(name="ExternalDataProto")
    field(external, "location", 1, F.TYPE_STRING, opt)
    field(external, "offset", 2, F.TYPE_INT64, opt)
    field(external, "length", 3, F.TYPE_INT64, opt)
    field(external, "checksum", 4, F.TYPE_STRING, opt)
    for name, number, ftype, label, type_name in (
            ("dims", 1, F.TYPE_INT64, rep, None), ("data_type", 2, F.TYPE_INT32, opt, None),
            ("float_data", 3, F.TYPE_FLOAT, rep, None), ("int32_data", 4, F.TYPE_INT32, rep, None),
            ("string_data", 5, F.TYPE_BYTES, rep, None), ("int64_data", 6, F.TYPE_INT64, rep, None),
            ("name", 7, F.TYPE_STRING, opt, None), ("doc_string", 8, F.TYPE_STRING, opt, None),
            ("raw_data", 9, F.TYPE_BYTES, opt, None), ("double_data", 10, F.TYPE_DOUBLE, rep, None),
            ("uint64_data", 11, F.TYPE_UINT64, rep, None),
            ("external_data", 12, F.TYPE_MESSAGE, opt, ".mind_ir.TensorProto.ExternalDataProto"),
            ("ref_key", 13, F.TYPE_STRING, opt, None), ("min_dims", 14, F.TYPE_INT64, rep, None),
            ("max_dims", 15, F.TYPE_INT64, rep, None), ("compression_type", 16, F.TYPE_INT32, opt, None)):
        field(tensor, name, number, ftype, label, type_name)

    primitive = fdp.message_type.add(name="PrimitiveProto")
    field(primitive, "name", 1, F.TYPE_STRING, opt)
    field(primitive, "op_type", 2, F.TYPE_STRING, opt)
    field(primitive, "attribute", 3, F.TYPE_MESSAGE, rep, ".mind_ir.AttributeProto")
    field(primitive, "instance_name", 4, F.TYPE_STRING, opt)
    return fdp


def model_class(text_as_bytes=False):
    """The mind_ir.ModelProto message class; ImportError naming the Debian package when protobuf is
    missing. Its nested messages are reached through the fields (ModelProto().graph.node.add()).
    text_as_bytes: the string fields are bytes, which is how the reader parses a file: protobuf's
    C++ parser logs an error line to stderr for a string field holding invalid UTF-8 (a corrupt
    file), and that line is not ours to show; the reader decodes the names itself."""
    if text_as_bytes not in _classes:
        try:
            from google.protobuf import descriptor_pool, message_factory
        except ImportError:
            raise ImportError(_MISSING.replace("MindSpore checkpoints", "MindSpore's MINDIR files")) from None
        pool = descriptor_pool.DescriptorPool()
        pool.Add(_file_descriptor(text_as_bytes))
        factory = message_factory.MessageFactory(pool)
        _classes[text_as_bytes] = _message_class(factory, pool, "mind_ir.ModelProto")
    return _classes[text_as_bytes]
