"""The text sources of mindspore.dataset: TextFileDataset (one row per line, column 'text') and
CSVDataset (one column per field, typed by column_defaults), with MindSpore's Shuffle modes, num_samples
and num_shards / shard_id. Both read their files when built and serve the rows through
GeneratorDataset (random access for Shuffle.GLOBAL or no shuffle; a per-epoch generator for
Shuffle.FILES and Shuffle.INFILE)."""
import csv
import enum
import glob
import numbers
import os

import numpy as np

import mindspore.dataset as _ds

__all__ = ["Shuffle", "TextFileDataset", "CSVDataset"]


class Shuffle(str, enum.Enum):
    """How a file-based dataset shuffles: all rows, the order of the files, or rows within each file."""
    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def _files(who, dataset_files):
    """The files dataset_files names (glob patterns allowed), in lexicographical order."""
    patterns = [dataset_files] if isinstance(dataset_files, str) else dataset_files
    if not isinstance(patterns, (list, tuple)) or not patterns:
        raise TypeError("Argument dataset_files with value %s is not of type [<class 'str'>, <class 'list'>], "
                        "but got %s." % (dataset_files, type(dataset_files)))
    found, missing = [], []
    for p in patterns:
        if not isinstance(p, str):
            raise TypeError("%s: dataset_files must be strings, but got %s." % (who, type(p)))
        matches = sorted(glob.glob(p)) if any(c in p for c in "*?[") else ([p] if os.path.isfile(p) else [])
        if not matches:
            missing.append(p)
        found.extend(matches)
    if missing:
        raise ValueError("The following patterns did not match any files: %s" % missing)
    return sorted(found)


def _shuffle_mode(shuffle):
    if shuffle is None or shuffle is True:
        return Shuffle.GLOBAL
    if shuffle is False:
        return None
    if isinstance(shuffle, Shuffle):
        return shuffle
    raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like 'Shuffle.GLOBAL' or "
                    "'Shuffle.FILES' or 'Shuffle.INFILE'.")


class _Rows:
    """Random access to rows read in advance."""

    def __init__(self, rows):
        self._rows = rows

    def __getitem__(self, index):
        return self._rows[index]

    def __len__(self):
        return len(self._rows)


class _FileOrder:
    """Shuffle.FILES / INFILE: each epoch shuffles the order of the files or the rows within each
    file (NumPy's generator, seeded by set_seed), then keeps this shard's rows."""

    def __init__(self, per_file, mode, num_shards, shard_id):
        self._per_file, self._mode = per_file, mode
        self._num_shards, self._shard_id = num_shards or 1, shard_id or 0

    def __call__(self):
        files = list(range(len(self._per_file)))
        if self._mode == Shuffle.FILES:
            np.random.shuffle(files)
        index = 0
        for f in files:
            rows = list(self._per_file[f])
            if self._mode == Shuffle.INFILE:
                np.random.shuffle(rows)
            for row in rows:
                if index % self._num_shards == self._shard_id:
                    yield row
                index += 1


def _check_optional_int(name, value, low):
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("Argument %s with value %s is not of type [<class 'int'>], but got %s."
                        % (name, value, type(value)))
    if value < low:
        raise ValueError("Input %s is not within the required interval of [%d, 2147483647]." % (name, low))


class _FileDataset(_ds.GeneratorDataset):
    def _start(self, per_file, names, num_samples, shuffle, num_shards, shard_id):
        _check_optional_int("num_samples", num_samples, 0)
        mode = _shuffle_mode(shuffle)
        if mode in (Shuffle.FILES, Shuffle.INFILE):
            if (num_shards is None) != (shard_id is None):
                raise ValueError("num_shards and shard_id must be given together.")
            if num_shards is not None and not 0 <= shard_id < num_shards:
                raise ValueError("Input shard_id is not within the required interval of [0, %d]."
                                 % (num_shards - 1))
            super().__init__(_FileOrder(per_file, mode, num_shards, shard_id), column_names=names,
                             num_samples=num_samples, shuffle=False)
            return
        rows = [row for rows in per_file for row in rows]
        super().__init__(_Rows(rows), column_names=names, num_samples=num_samples, shuffle=mode is not None,
                         num_shards=num_shards, shard_id=shard_id)


class TextFileDataset(_FileDataset):
    """The lines of text files (newlines removed, empty lines skipped) in one string column 'text'."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        per_file = []
        for path in _files("TextFileDataset", dataset_files):
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                per_file.append([line for line in f.read().split("\n") if line])
        self._start(per_file, ["text"], num_samples, shuffle, num_shards, shard_id)


def _field(value, default, column, line, path):
    """One CSV field typed as its column default (int -> int32, float -> float32, str)."""
    if value == "":
        if default is None:
            raise RuntimeError("Invalid csv, %s line %d: column %d is empty and has no default value."
                               % (path, line, column))
        value = default
    if isinstance(default, int):
        try:
            return np.int32(int(value))
        except (ValueError, OverflowError):
            raise RuntimeError("Invalid csv, %s line %d: column %d should be an int, but got '%s'."
                               % (path, line, column, value)) from None
    if isinstance(default, float):
        try:
            return np.float32(float(value))
        except ValueError:
            raise RuntimeError("Invalid csv, %s line %d: column %d should be a float, but got '%s'."
                               % (path, line, column, value)) from None
    return np.array(str(value))


class CSVDataset(_FileDataset):
    """The records of CSV files, one scalar column per field: int32, float32 or string as the
    column's entry in column_defaults says (string without defaults). Without column_names, the
    first line of each file names the columns."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError("field_delim is invalid: it must be one character other than '\"', '\\r' and "
                             "'\\n', but got %r." % (field_delim,))
        if column_defaults is not None:
            if not isinstance(column_defaults, list):
                raise TypeError("Argument column_defaults with value %s is not of type [<class 'list'>], "
                                "but got %s." % (column_defaults, type(column_defaults)))
            for d in column_defaults:
                if isinstance(d, bool) or not isinstance(d, (int, float, str)):
                    raise TypeError("column type in column_defaults is invalid, it must be int, float or str, "
                                    "but got %s." % type(d))
        if column_names is not None and (not isinstance(column_names, list)
                                         or not all(isinstance(n, str) for n in column_names)):
            raise TypeError("Argument column_names with value %s is not of type [<class 'list'>] of str."
                            % (column_names,))
        names = list(column_names) if column_names else None
        per_file = []
        for path in _files("CSVDataset", dataset_files):
            with open(path, encoding="utf-8", newline="") as f:
                records = [r for r in csv.reader(f, delimiter=field_delim) if r]
            if column_names is None and records:
                header, records = records[0], records[1:]
                names = names or header
            rows = []
            for line, record in enumerate(records, start=1 if column_names else 2):
                if names is not None and len(record) != len(names):
                    raise RuntimeError("Invalid csv, %s line %d: it has %d fields, but there are %d columns %s."
                                       % (path, line, len(record), len(names), names))
                defaults = column_defaults or [""] * len(record)
                if len(defaults) != len(record):
                    raise RuntimeError("Invalid csv, %s line %d: it has %d fields, but column_defaults has %d."
                                       % (path, line, len(record), len(defaults)))
                rows.append(tuple(_field(v, d, c, line, path) for c, (v, d) in enumerate(zip(record, defaults))))
            per_file.append(rows)
        if not names:
            raise RuntimeError("CSVDataset: the files have no header line and column_names is not given.")
        self._start(per_file, names, num_samples, shuffle, num_shards, shard_id)


_ds.Shuffle = Shuffle
_ds.TextFileDataset = TextFileDataset
_ds.CSVDataset = CSVDataset
