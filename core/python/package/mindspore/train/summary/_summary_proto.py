"""MindSpore's summary file messages (summary.proto's Event and Summary, anf_ir.proto's
TensorProto, package mindspore.irpb), built at run time from a descriptor as the checkpoint
messages are (train/_checkpoint_proto.py)."""
from mindspore.train._checkpoint_proto import _MISSING, _message_class

__all__ = []

# anf_ir.proto's DataType for the NumPy dtypes a tensor summary holds.
DATA_TYPES = {"bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6, "uint16": 7, "uint32": 8,
              "uint64": 9, "float16": 10, "float32": 11, "float64": 12}

_event = None


def _file_descriptor():
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto(name="gradstep_mindspore_summary.proto", package="mindspore.irpb",
                                             syntax="proto2")
    F = descriptor_pb2.FieldDescriptorProto

    def field(msg, name, number, ftype, label=F.LABEL_OPTIONAL, type_name=None, oneof=None, packed=False):
        f = msg.field.add(name=name, number=number, type=ftype, label=label)
        if type_name:
            f.type_name = type_name
        if oneof is not None:
            f.oneof_index = oneof
        if packed:
            f.options.packed = True

    tensor = fdp.message_type.add(name="TensorProto")
    field(tensor, "dims", 1, F.TYPE_INT64, F.LABEL_REPEATED)
    field(tensor, "data_type", 2, F.TYPE_INT32)
    field(tensor, "float_data", 3, F.TYPE_FLOAT, F.LABEL_REPEATED, packed=True)
    field(tensor, "int32_data", 4, F.TYPE_INT32, F.LABEL_REPEATED, packed=True)
    field(tensor, "int64_data", 5, F.TYPE_INT64, F.LABEL_REPEATED, packed=True)
    field(tensor, "double_data", 6, F.TYPE_DOUBLE, F.LABEL_REPEATED, packed=True)
    field(tensor, "uint64_data", 7, F.TYPE_UINT64, F.LABEL_REPEATED, packed=True)
    field(tensor, "raw_data", 8, F.TYPE_BYTES)

    summary = fdp.message_type.add(name="Summary")
    image = summary.nested_type.add(name="Image")
    field(image, "height", 1, F.TYPE_INT32, F.LABEL_REQUIRED)
    field(image, "width", 2, F.TYPE_INT32, F.LABEL_REQUIRED)
    field(image, "colorspace", 3, F.TYPE_INT32, F.LABEL_REQUIRED)
    field(image, "encoded_image", 4, F.TYPE_BYTES, F.LABEL_REQUIRED)
    histogram = summary.nested_type.add(name="Histogram")
    bucket = histogram.nested_type.add(name="bucket")
    field(bucket, "left", 1, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    field(bucket, "width", 2, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    field(bucket, "count", 3, F.TYPE_INT64, F.LABEL_REQUIRED)
    field(histogram, "buckets", 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".mindspore.irpb.Summary.Histogram.bucket")
    for number, name in ((2, "nan_count"), (3, "pos_inf_count"), (4, "neg_inf_count")):
        field(histogram, name, number, F.TYPE_INT64)
    for number, name in ((5, "max"), (6, "min"), (7, "sum")):
        field(histogram, name, number, F.TYPE_DOUBLE)
    field(histogram, "count", 8, F.TYPE_INT64)
    value = summary.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    field(value, "tag", 1, F.TYPE_STRING, F.LABEL_REQUIRED)
    field(value, "scalar_value", 3, F.TYPE_FLOAT, oneof=0)
    field(value, "image", 4, F.TYPE_MESSAGE, type_name=".mindspore.irpb.Summary.Image", oneof=0)
    field(value, "tensor", 8, F.TYPE_MESSAGE, type_name=".mindspore.irpb.TensorProto", oneof=0)
    field(value, "histogram", 9, F.TYPE_MESSAGE, type_name=".mindspore.irpb.Summary.Histogram", oneof=0)
    field(summary, "value", 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".mindspore.irpb.Summary.Value")

    event = fdp.message_type.add(name="Event")
    event.oneof_decl.add(name="what")
    field(event, "wall_time", 1, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    field(event, "step", 2, F.TYPE_INT64)
    field(event, "version", 3, F.TYPE_STRING, oneof=0)
    field(event, "summary", 5, F.TYPE_MESSAGE, type_name=".mindspore.irpb.Summary", oneof=0)
    return fdp


def event_class():
    """The Event message class; ImportError naming the Debian package when protobuf is missing."""
    global _event
    if _event is None:
        try:
            from google.protobuf import descriptor_pool, message_factory
        except ImportError:
            raise ImportError(_MISSING.replace("MindSpore checkpoints", "MindSpore summaries")) from None
        pool = descriptor_pool.DescriptorPool()
        pool.Add(_file_descriptor())
        _event = _message_class(message_factory.MessageFactory(pool), pool, "mindspore.irpb.Event")
    return _event
