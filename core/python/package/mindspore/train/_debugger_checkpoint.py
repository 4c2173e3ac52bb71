"""A checkpoint the debugger loads for the user (File > Open Checkpoint, --checkpoint FILE): read
when the run starts, so a bad file fails before the script does, and loaded into the first Cell the
script calls at top level that holds one of its Parameters, as if the script had called
load_param_into_net on its network there."""
import sys

from mindspore.train import serialization

_armed = None  # (path, {name: Parameter}) until a Cell takes it


def arm(path):
    global _armed
    _armed = None
    _armed = (path, serialization.load_checkpoint(path))


def load_into(cell):
    """Loads the armed checkpoint into cell when a Parameter of cell is in it; True once loaded."""
    global _armed
    if _armed is None:
        return True
    path, entries = _armed
    names = [p.name for p in cell.get_parameters()]
    if not any(n in entries or any(k.endswith("." + n) for k in entries) for n in names):
        return False
    _armed = None
    not_loaded, unused = serialization.load_param_into_net(cell, entries)
    loaded = len(names) - len(not_loaded)
    line = "gradstep: loaded %d of %d Parameters of %s from %s" % (loaded, len(names), type(cell).__name__, path)
    if not_loaded:
        line += "; kept as they were: " + ", ".join(not_loaded)
    if unused:
        line += "; checkpoint entries not used: " + ", ".join(unused)
    print(line, file=sys.stderr)
    return True


def finish():
    """At the end of the run: says when no Cell the script called held a Parameter of the file."""
    global _armed
    if _armed is not None:
        print("gradstep: the checkpoint %s was not loaded: no Cell the script called holds a Parameter "
              "named as one of its %d entries" % (_armed[0], len(_armed[1])), file=sys.stderr)
    _armed = None
