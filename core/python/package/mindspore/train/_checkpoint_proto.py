"""MindSpore's checkpoint file format: the protobuf messages of its checkpoint.proto, built at run
time from a descriptor (no protoc, no generated module), and the tensor_type names it writes.

    message Checkpoint { message Value { required string tag = 1; required TensorProto tensor = 2; }
                         repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }

The fields are proto2 `required`, as in MindSpore, so a file that lacks one fails to parse.
"""
import numpy as np

__all__ = []

_MISSING = ("Reading and writing MindSpore checkpoints needs Python's protobuf module, which is "
            "not installed: install Debian's package python3-protobuf (apt-get install python3-protobuf).")

# tensor_type as MindSpore writes it (str(dtype)) -> the NumPy dtype of tensor_content's bytes.
# BFloat16 has no NumPy dtype: its bytes are the upper halves of float32 words (serialization.py).
NUMPY_TYPES = {
    "Bool": np.bool_, "Int8": np.int8, "Int16": np.int16, "Int32": np.int32, "Int64": np.int64,
    "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32, "UInt64": np.uint64,
    "Float16": np.float16, "Float32": np.float32, "Float64": np.float64, "BFloat16": np.uint16,
}

_classes = None


def field(msg, name, number, ftype, label, type_name=None, oneof=None, packed=False):
    """Adds a field to a DescriptorProto being built (the checkpoint and summary messages)."""
    f = msg.field.add(name=name, number=number, type=ftype, label=label)
    if type_name:
        f.type_name = type_name
    if oneof is not None:
        f.oneof_index = oneof
    if packed:
        f.options.packed = True


def _file_descriptor():
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto(name="gradstep_mindspore_checkpoint.proto", syntax="proto2")
    F = descriptor_pb2.FieldDescriptorProto

    tensor = fdp.message_type.add(name="TensorProto")
    field(tensor, "dims", 1, F.TYPE_INT64, F.LABEL_REPEATED)
    field(tensor, "tensor_type", 2, F.TYPE_STRING, F.LABEL_REQUIRED)
    field(tensor, "tensor_content", 3, F.TYPE_BYTES, F.LABEL_REQUIRED)
    ckpt = fdp.message_type.add(name="Checkpoint")
    value = ckpt.nested_type.add(name="Value")
    field(value, "tag", 1, F.TYPE_STRING, F.LABEL_REQUIRED)
    field(value, "tensor", 2, F.TYPE_MESSAGE, F.LABEL_REQUIRED, ".TensorProto")
    field(ckpt, "value", 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".Checkpoint.Value")
    return fdp


def _message_class(factory, pool, full_name):
    descriptor = pool.FindMessageTypeByName(full_name)
    from google.protobuf import message_factory
    if hasattr(message_factory, "GetMessageClass"):  # protobuf >= 4.22
        return message_factory.GetMessageClass(descriptor)
    return factory.GetPrototype(descriptor)


def checkpoint_class():
    """The Checkpoint message class; ImportError naming the Debian package when protobuf is missing."""
    global _classes
    if _classes is None:
        try:
            from google.protobuf import descriptor_pool, message_factory
        except ImportError:
            raise ImportError(_MISSING) from None
        # A private pool: the names cannot clash with another module's messages in the default pool.
        pool = descriptor_pool.DescriptorPool()
        pool.Add(_file_descriptor())
        factory = message_factory.MessageFactory(pool)
        _classes = _message_class(factory, pool, "Checkpoint")
    return _classes


def decode_error_types():
    from google.protobuf.message import DecodeError
    return (DecodeError,)
