"""Modules that MindSpore splits its names across (mindspore.ops.operations.nn_ops,
mindspore.nn.layer.conv, ...) show the names of the module that holds them here, so every path a
script imports from reaches the same object."""
import importlib


def forwarding(target, own):
    """A module __getattr__ (PEP 562) that looks names up in the module `target`."""

    def __getattr__(name):
        if not name.startswith("__"):
            try:
                return getattr(importlib.import_module(target), name)
            except AttributeError:
                pass
        raise AttributeError("module '%s' has no attribute '%s'" % (own, name))

    return __getattr__


def listing(target, own_names):
    """A module __dir__ that lists the target's public names beside the module's own."""

    def __dir__():
        names = set(own_names)
        names.update(n for n in dir(importlib.import_module(target)) if not n.startswith("_"))
        return sorted(names)

    return __dir__
