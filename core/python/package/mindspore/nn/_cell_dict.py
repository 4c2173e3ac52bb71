"""nn.CellDict: Cells held by string keys in insertion order, registered as children (so their
parameters belong to the owner); like MindSpore's, it has no construct of its own."""
from collections import OrderedDict

import mindspore.nn as _nn

__all__ = ["CellDict"]


class CellDict(_nn.Cell):
    """CellDict(args=None, **kwargs): a dict (or pairs, or another CellDict) of key -> Cell."""

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs.pop("auto_prefix", True)
        flags = kwargs.pop("flags", None)
        super().__init__(auto_prefix, flags) if flags is not None else super().__init__(auto_prefix)
        self.__dict__["_keys"] = OrderedDict()
        if len(args) > 1:
            raise TypeError("For 'CellDict', it takes at most one positional argument, but got %d." % len(args))
        if args:
            self.update(args[0])
        if kwargs:
            self.update(kwargs)

    def _check(self, key, cell):
        if not isinstance(key, str):
            raise TypeError("For 'CellDict', the type of key should be str, but got %s." % type(key).__name__)
        if not isinstance(cell, _nn.Cell):
            raise TypeError("For 'CellDict', the type of cell should be Cell, but got %s." % type(cell).__name__)
        if "." in key or not key:
            raise KeyError("For 'CellDict', key should not contain '.' or be empty, but got %r." % key)

    def __getitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key, cell):
        self._check(key, cell)
        self.insert_child_to_cell(key, cell)
        self._keys[key] = None

    def __delitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        del self._keys[key]
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(list(self._keys))

    def __contains__(self, key):
        return key in self._keys

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def pop(self, key):
        cell = self[key]
        del self[key]
        return cell

    def keys(self):
        return list(self._keys)

    def values(self):
        return [self[k] for k in self._keys]

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def update(self, cells):
        if isinstance(cells, (CellDict, dict, OrderedDict)):
            pairs = list(cells.items())
        else:
            pairs = []
            for i, pair in enumerate(cells):
                if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                    raise ValueError("For 'CellDict', element %d of 'cells' should be a (key, Cell) pair, but got %r."
                                     % (i, pair))
                pairs.append(tuple(pair))
        for key, cell in pairs:
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError("For 'CellDict', the method 'construct' is not defined.")


_nn.CellDict = CellDict
