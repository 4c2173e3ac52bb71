"""A summary file as MindSpore writes it: records framed as TFRecord's (8-byte little-endian
length, its masked CRC-32C, the serialized Event, the Event's masked CRC-32C), the first record
the version event "MindSpore.Event:1"."""
import os
import socket
import struct
import time

__all__ = []


def _crc32c_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def frame(payload):
    length = struct.pack("<Q", len(payload))
    return length + struct.pack("<I", masked_crc(length)) + payload + struct.pack("<I", masked_crc(payload))


def read_records(path):
    """The payloads of a summary file, each checked against its CRCs (ValueError otherwise)."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        if at + 12 > len(data):
            raise ValueError("%s: a record header is cut short at byte %d" % (path, at))
        length_bytes = data[at:at + 8]
        (length,) = struct.unpack("<Q", length_bytes)
        (length_crc,) = struct.unpack("<I", data[at + 8:at + 12])
        if length_crc != masked_crc(length_bytes):
            raise ValueError("%s: the length CRC of the record at byte %d does not match" % (path, at))
        payload = data[at + 12:at + 12 + length]
        (payload_crc,) = struct.unpack("<I", data[at + 12 + length:at + 16 + length])
        if payload_crc != masked_crc(payload):
            raise ValueError("%s: the data CRC of the record at byte %d does not match" % (path, at))
        out.append(payload)
        at += 16 + length
    return out


class EventFile:
    """One open summary file in `directory`, named as MindSpore names it."""

    def __init__(self, directory, prefix, suffix, event_class, max_file_size=None):
        os.makedirs(directory, exist_ok=True)
        self._directory, self._prefix, self._suffix = directory, prefix, suffix
        self._event_class, self._max = event_class, max_file_size
        self._open_new()

    def _open_new(self):
        name = "%s.out.events.summary.%d.%s%s" % (self._prefix, int(time.time()), socket.gethostname(), self._suffix)
        self.path = os.path.realpath(os.path.join(self._directory, name))
        self._file = open(self.path, "ab")
        self._size = 0
        version = self._event_class(wall_time=time.time(), version="MindSpore.Event:1")
        self._write(version.SerializeToString())

    def _write(self, payload):
        record = frame(payload)
        self._file.write(record)
        self._size += len(record)

    def write_event(self, event):
        payload = event.SerializeToString()
        if self._max is not None and self._size + len(payload) + 16 > self._max:
            self._file.close()
            self._open_new()
        self._write(payload)

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()
