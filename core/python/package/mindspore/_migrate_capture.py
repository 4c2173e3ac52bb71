"""The MindSpore side of `gradstep migrate` (core/migrate; Note [Migration capture] in
core/migrate/capture.h): armed by the run before the user's port starts, it finds the network the
port trains (the first Cell called at top level that holds trainable Parameters, inside MindSpore's
training wrappers), copies PyTorch's initial weights into the Parameters gradstep matched, feeds the
network and its loss PyTorch's batch, records every Cell's forward output, the loss, the gradients
the optimizer receives and the Parameters after its update, and stops the script after N steps."""
import json
import os
import re
import sys

import numpy as np

import mindspore
from mindspore import nn

_capture = None
_WRAPPERS = ("TrainOneStepCell", "TrainOneStepWithLossScaleCell", "WithLossCell", "WithGradCell",
             "WithEvalCell")
_WRAPPED_CHILD = ("network", "_backbone")
# The functional calls of the pitfall table (core/migrate/call_pitfalls.h), recorded with their
# arguments when a Cell's own construct makes them (Note [Functional calls] in
# core/migrate/capture.h): mindspore.ops functions, primitives and Tensor methods.
_RECORDED_FUNCTIONS = ("split", "chunk", "tensor_split", "norm", "normalize", "l2_normalize", "lp_norm",
                       "clip_by_value", "clamp", "clip", "leaky_relu", "gelu", "dropout", "softmax", "log_softmax")
_RECORDED_PRIMITIVES = ("Split", "L2Normalize", "LpNorm", "ClipByValue", "LeakyReLU", "GeLU", "Dropout", "Softmax",
                        "LogSoftmax")
_RECORDED_METHODS = ("split", "chunk", "tensor_split", "norm", "clamp", "clip", "softmax")
_PACKAGE_ORIGIN = "<gradstep>/"
# Loss functions a port may call at top level instead of a loss Cell (its loss and labels are then
# taken there, as the PyTorch side takes F.cross_entropy's).
_LOSS_FUNCTIONS = ("cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
                   "binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div")


def _jsonable(value):
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, mindspore.Tensor):
        return "tensor"
    return str(value)


def _signature_names(init):
    """(names, defaults) of a constructor from its pybind11 docstring or its Python signature."""
    doc = getattr(init, "__doc__", None) or ""
    match = re.match(r"__init__\(self[^,)]*,?\s*(.*)\)", doc.splitlines()[0] if doc else "")
    names, defaults = [], {}
    if match:
        for part in re.split(r",\s*(?![^\[\(]*[\]\)])", match.group(1)):
            name, _, rest = part.partition(":")
            name = name.strip()
            if not name or name.startswith("*"):
                continue
            names.append(name)
            if " = " in rest:
                defaults[name] = rest.split(" = ", 1)[1].strip()
        return names, defaults
    import inspect
    try:
        for p in list(inspect.signature(init).parameters.values())[1:]:
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                names.append(p.name)
                if p.default is not p.empty:
                    defaults[p.name] = repr(p.default)
    except (TypeError, ValueError):
        pass
    return names, defaults


def _constructor_args(obj, given, init=None):
    """The arguments given to obj's constructor by name, with the defaults it did not get (as
    text, from the signature) under "defaults"."""
    args, kwargs = given if given else ((), {})
    names, defaults = _signature_names(init or type(obj).__init__)
    if not names and init is None:
        # A constructor of *args, **kwargs handing them on (LSTM's to the RNN base's): the base's
        # defaults stand for the arguments not given by name; positions are not the base's, so
        # positional arguments stay unnamed.
        for base in type(obj).__mro__[1:]:
            base_names, base_defaults = _signature_names(base.__init__)
            if base_names:
                defaults = base_defaults
                break
    out = {}
    for name, value in zip(names, args):
        out[name] = _jsonable(value)
    for name, value in kwargs.items():
        out[name] = _jsonable(value)
    for name in ("pad_mode", "padding", "has_bias", "momentum", "eps", "alpha", "approximate", "keep_prob",
                 "p", "reduction", "sparse", "data_format"):
        if name not in out and name not in defaults and hasattr(obj, name):
            try:
                out[name] = _jsonable(getattr(obj, name))
            except Exception:  # an attribute that cannot be read is not an argument
                pass
    return {"given": out, "defaults": {k: v for k, v in defaults.items() if k not in out}}


class _Blob:
    """Tensors as float64 little-endian in one file, indexed in the JSON."""

    def __init__(self, path):
        self.file = open(path, "wb")
        self.offset = 0
        self.index = {}

    def add(self, key, value):
        array = value.asnumpy() if isinstance(value, mindspore.Tensor) else np.asarray(value)
        dtype = str(array.dtype)
        data = np.ascontiguousarray(array, dtype="<f8")
        self.file.write(data.tobytes())
        self.index[key] = {"offset": self.offset, "shape": list(data.shape), "dtype": dtype}
        self.offset += data.nbytes


def _function_args(function, rest, kwargs):
    """A loss function's arguments after (input, target), as a Cell's: {"given", "defaults"}."""
    import inspect
    try:
        parameters = list(inspect.signature(function).parameters.values())[2:]
    except (TypeError, ValueError):
        parameters = []
    given = {p.name: _jsonable(v) for p, v in zip(parameters, rest)}
    given.update({k: _jsonable(v) for k, v in kwargs.items()})
    defaults = {p.name: repr(p.default) for p in parameters
                if p.default is not p.empty and p.name not in given}
    return {"given": given, "defaults": defaults}


def _call_value(value):
    """An argument of a recorded call: a Tensor as {"tensor": shape}, else as JSON holds it."""
    if isinstance(value, mindspore.Tensor):
        if value.ndim == 0:
            return {"tensor": [], "value": value.asnumpy().item()}
        return {"tensor": list(value.shape)}
    if isinstance(value, (tuple, list)):
        return [_call_value(v) for v in value]
    return _jsonable(value)


def _ms_dtype(array_dtype):
    return {"float16": mindspore.float16, "float32": mindspore.float32, "float64": mindspore.float64,
            "int32": mindspore.int32, "int64": mindspore.int64, "bool": mindspore.bool_}.get(str(array_dtype))


def _tensor_leaves(value, prefix=""):
    """The Tensors of a Cell's output in order: the output itself, or a tuple's or list's elements
    by position ("0", "1.0": an LSTM's output and (h, c)), as PyTorch's side numbers them."""
    if isinstance(value, mindspore.Tensor):
        return [(prefix, value)]
    leaves = []
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            leaves.extend(_tensor_leaves(v, "%s.%d" % (prefix, i) if prefix else str(i)))
    return leaves


class _Capture:
    def __init__(self, directory, steps, copy_weights, match):
        self.directory, self.steps, self.copy_weights, self.match = directory, steps, copy_weights, match
        with open(os.path.join(directory, "torch.json")) as f:
            self.torch = json.load(f)
        self.torch_blob = np.fromfile(os.path.join(directory, "torch.bin"), dtype="<f8")
        self.blob = _Blob(os.path.join(directory, "mindspore.bin"))
        self.depth = 0
        self.root = None
        self.paths = {}
        self.forward, self.events, self.stack = [], [], []
        self.calls, self.call_events = [], []
        self.in_recorded_call = False
        self.recording_call = False
        self.loss = self.loss_info = None
        self.optimizer = None
        self.steps_done = 0
        self.error = None
        self.copied = []
        self.input_info = []
        self.target_info = None
        self.init_args = {}
        self.finished = False
        self.handles = []
        self.initial = {}

    def torch_tensor(self, key):
        entry = self.torch["tensors"].get(key)
        if entry is None:
            return None
        start = entry["offset"] // 8
        count = int(np.prod(entry["shape"])) if entry["shape"] else 1
        return self.torch_blob[start:start + count].reshape(entry["shape"])

    # --- finding the network -------------------------------------------------------------
    @staticmethod
    def unwrap(cell):
        while type(cell).__name__ in _WRAPPERS:
            inner = next((getattr(cell, n) for n in _WRAPPED_CHILD if isinstance(getattr(cell, n, None), nn.Cell)), None)
            if inner is None:
                break
            cell = inner
        return cell

    def adopt_root(self, cell):
        self.root = cell
        self.paths = {id(c): path for path, c in cell.cells_and_names()}
        # Parameter objects are made afresh on each access: they are known by their names
        self.param_names = {p.name: name for name, p in cell.parameters_and_names()}
        for path, c in cell.cells_and_names():
            self.handles.append(c.register_forward_pre_hook(self.pre_hook(path)))
            self.handles.append(c.register_forward_hook(self.post_hook(path)))
        if self.copy_weights:
            self.copy_torch_weights()
        self.initial = {name: p.asnumpy().copy() for name, p in cell.parameters_and_names()}

    def structure(self):
        params = []
        trainable = {id(p) for p in self.root.trainable_params()}
        for name, p in self.root.parameters_and_names():
            owner, _, attr = name.rpartition(".")
            params.append({"name": name, "module": owner, "attr": attr, "shape": list(p.shape),
                           "kind": "parameter" if id(p) in trainable else "buffer", "dtype": str(p.dtype).lower()})
        return params

    def copy_torch_weights(self):
        answer = json.loads(self.match(json.dumps({"params": self.structure()})))
        by_name = dict(self.root.parameters_and_names())
        for pair in answer["pairs"]:
            value = self.torch_tensor("init/" + pair["torch"])
            target = by_name.get(pair["mindspore"])
            if value is None or target is None:
                continue
            if pair.get("transpose"):
                value = value.T
            if tuple(value.shape) != tuple(target.shape):
                continue
            target.set_data(mindspore.Tensor(value.astype(target.asnumpy().dtype)))
            self.copied.append(pair["mindspore"])

    # --- the calls ------------------------------------------------------------------------
    def recording(self):
        return self.steps_done < self.steps

    def pre_hook(self, path):
        def hook(_cell_id, _inputs):
            if self.recording_call:
                self.stack.append(path)
        return hook

    def post_hook(self, path):
        def hook(_cell_id, _inputs, output):
            if self.recording_call:
                if self.stack:
                    self.stack.pop()
                for n, (element, tensor) in enumerate(_tensor_leaves(output)):
                    self.forward.append((path, tensor.asnumpy().copy(), str(tensor.dtype).lower(), element, n == 0))
        return hook

    def recorded_call(self, name, original, args, kwargs, init=None):
        """Runs one of the table's functions; records it when the user's code inside a Cell called
        it (not mindspore's own code, nor a recorded call within another)."""
        caller = sys._getframe(2).f_code.co_filename
        if self.in_recorded_call or not self.recording_call or not self.stack or caller.startswith(_PACKAGE_ORIGIN):
            return original(*args, **kwargs)
        call = {"framework": "mindspore", "module": self.stack[-1], "position": len(self.forward), "function": name,
                "args": [_call_value(a) for a in args], "kwargs": {k: _call_value(v) for k, v in kwargs.items()},
                "outputs": []}
        if init is not None:
            call["init"] = {k: _call_value(v) for k, v in init.items()}
        self.calls.append(call)
        self.in_recorded_call = True
        try:
            out = original(*args, **kwargs)
        except Exception as e:  # the port's error is often here (Split's output_num): say so
            call["error"] = "%s: %s" % (type(e).__name__, e)
            raise
        finally:
            self.in_recorded_call = False
        call["outputs"] = [list(t.shape) for _, t in _tensor_leaves(out)]
        return out

    def substitute(self, args, keys, infos):
        """args with each Tensor replaced by PyTorch's tensor of the same shape (or a permutation
        of it: the layout differs and is reported), in the port's own dtype."""
        out = list(args)
        tensor_positions = [i for i, a in enumerate(args) if isinstance(a, mindspore.Tensor)]
        for i, key in zip(tensor_positions, keys):
            value = self.torch_tensor(key)
            arg = args[i]
            info = {"shape": list(arg.shape), "dtype": str(arg.dtype).lower(), "substituted": False}
            infos.append(info)
            if value is None:
                continue
            if tuple(value.shape) == tuple(arg.shape):
                out[i] = mindspore.Tensor(value.astype(arg.asnumpy().dtype))
                info["substituted"] = True
            elif value.ndim == 4 and arg.ndim == 4 and tuple(value.transpose(0, 2, 3, 1).shape) == tuple(arg.shape):
                out[i] = mindspore.Tensor(value.transpose(0, 2, 3, 1).astype(arg.asnumpy().dtype))
                info["substituted"] = True
                info["layout"] = "NHWC"
        return tuple(out)

    def call(self, original, cell, args, kwargs):
        if isinstance(cell, nn.Optimizer):  # a Python optimizer is a Cell
            return self.optimizer_call(original, cell, args, kwargs)
        if self.depth > 0 or not self.recording():
            return original(cell, *args, **kwargs)
        if self.root is None and cell.trainable_params():
            self.adopt_root(self.unwrap(cell))
        if self.root is not None and (cell is self.root or self.unwrap(cell) is self.root):
            return self.root_call(original, cell, args, kwargs)
        if self.root is not None and not cell.trainable_params():
            return self.loss_call(original, cell, args, kwargs)
        return self.nested(original, cell, args, kwargs)

    def nested(self, original, cell, args, kwargs):
        self.depth += 1
        try:
            return original(cell, *args, **kwargs)
        finally:
            self.depth -= 1

    def root_call(self, original, cell, args, kwargs):
        """A call of the network, or of a training wrapper around it (WithLossCell,
        TrainOneStepCell: called with the batch and the labels, returning the loss)."""
        self.forward, self.stack, self.calls = [], [], []
        wrapper = cell is not self.root
        infos = []
        keys = ["input/0", "target"] if wrapper else ["input/%d" % i for i in range(8)]
        args = self.substitute(args, keys, infos)
        if self.steps_done == 0:
            self.input_info = infos[:1] if wrapper else infos
        if wrapper:
            self.target_info = infos[1] if len(infos) > 1 else None
            self.wrapper_loss_info(cell)
            optimizer = getattr(cell, "optimizer", None)
            if optimizer is not None and self.optimizer is None:
                self.optimizer = {"class": type(optimizer).__name__, "args": self.init_args.get(id(optimizer), {})}
        self.recording_call = True
        steps_before = self.steps_done
        try:
            out = self.nested(original, cell, args, kwargs)
        except Exception as e:
            if self.error is None:
                self.error = {"module": self.stack[-1] if self.stack else "", "type": type(e).__name__,
                              "message": str(e)}
                self.record_forward(self.steps_done + 1)  # what ran before the error is compared
            raise
        finally:
            self.recording_call = False
        if wrapper:
            loss = out[0] if isinstance(out, tuple) and out else out
            if isinstance(loss, mindspore.Tensor):
                self.loss = loss.asnumpy().copy()
            # A TrainOneStepCell's step: its optimizer ran inside gradstep's C++ (or already
            # ended the step when it is a Python optimizer)
            if type(cell).__name__.startswith("TrainOneStep") and self.steps_done == steps_before:
                self.end_step(self.steps_done + 1)
        return out

    def wrapper_loss_info(self, cell):
        while cell is not None and cell is not self.root:
            loss_fn = getattr(cell, "_loss_fn", None)
            if isinstance(loss_fn, nn.Cell):
                self.loss_info = {"class": type(loss_fn).__name__,
                                  "args": _constructor_args(loss_fn, getattr(loss_fn, "_gradstep_init_args", None))}
                return
            cell = next((getattr(cell, n) for n in _WRAPPED_CHILD if isinstance(getattr(cell, n, None), nn.Cell)), None)

    def loss_call(self, original, cell, args, kwargs):
        if len(args) >= 2 and isinstance(args[1], mindspore.Tensor):
            infos = []
            rest = self.substitute(args[1:2], ["target"], infos)
            args = (args[0],) + rest + tuple(args[2:])
            self.target_info = infos[0] if infos else None
            self.loss_info = {"class": type(cell).__name__, "args": self.init_args.get(id(cell))
                              or _constructor_args(cell, getattr(cell, "_gradstep_init_args", None))}
        out = self.nested(original, cell, args, kwargs)
        if isinstance(out, mindspore.Tensor):
            self.loss = out.asnumpy().copy()
        return out

    def functional_loss(self, name, original, args, kwargs):
        """A loss function the script calls at top level on the network's output: PyTorch's
        labels replace the port's, and its value is the step's loss."""
        if self.depth > 0 or self.root is None or not self.recording() or len(args) < 2 \
                or not isinstance(args[1], mindspore.Tensor):
            return original(*args, **kwargs)
        infos = []
        args = (args[0],) + self.substitute(args[1:2], ["target"], infos) + tuple(args[2:])
        self.target_info = infos[0] if infos else None
        self.loss_info = {"class": "ops." + name, "args": _function_args(original, args[2:], kwargs)}
        out = original(*args, **kwargs)
        if isinstance(out, mindspore.Tensor):
            self.loss = out.asnumpy().copy()
        return out

    def optimizer_call(self, original, optimizer, args, kwargs):
        if not self.recording() or self.root is None:
            return original(optimizer, *args, **kwargs)
        step = self.steps_done + 1
        grads = args[0] if args else kwargs.get("gradients", ())
        for p, g in zip(optimizer.parameters, grads):
            name = self.param_names.get(p.name)
            if name is not None:
                self.blob.add("grad/%d/%s" % (step, name), g)
        self.record_forward(step)
        self.optimizer = {"class": type(optimizer).__name__, "args": self.init_args.get(id(optimizer), {})}
        result = original(optimizer, *args, **kwargs)
        self.end_step(step)
        return result

    def end_step(self, step):
        """After the update: the Parameters and buffers, and the end of the script after N steps."""
        if step != self.steps_done + 1 or self.root is None:
            return
        if self.forward or self.loss is not None:
            self.record_forward(step)
        for name, p in self.root.parameters_and_names():
            self.blob.add("after/%d/%s" % (step, name), p)
        self.steps_done = step
        if self.steps_done >= self.steps:
            self.finish(True)
            import _gradstep_host
            raise _gradstep_host.ScriptStopped("the migration comparison recorded its steps")

    # --- the record ----------------------------------------------------------------------
    def record_forward(self, step):
        """The outputs of the network's last call and the loss, as the step's."""
        calls = {}
        for index, (path, out, dtype, element, first) in enumerate(self.forward):
            if first:  # a tuple's elements share their call
                calls[path] = calls.get(path, 0) + 1
            key = "fwd/%d/%d" % (step, index)
            self.blob.add(key, out)
            self.blob.index[key]["dtype"] = dtype
            event = {"step": step, "module": path, "call": calls[path], "tensor": key}
            if element:
                event["element"] = element
            self.events.append(event)
        self.call_events.extend(dict(call, step=step) for call in self.calls)
        self.forward, self.calls = [], []
        if self.loss is not None:
            self.blob.add("loss/%d" % step, self.loss)
            self.loss = None

    def finish(self, completed):
        if self.finished:
            return
        self.finished = True
        for handle in self.handles:
            handle.remove()
        if self.forward and not completed:
            self.record_forward(self.steps_done + 1)  # the network ran but no optimizer followed
        doc = {"framework": "mindspore", "completed": completed, "parameter_names": getattr(self, "param_names", {}), "steps": self.steps_done, "modules": [],
               "params": [], "forward": self.events, "calls": self.call_events, "loss": self.loss_info, "optimizer": self.optimizer,
               "error": self.error, "root": None, "copied": self.copied, "inputs": self.input_info,
               "target": self.target_info}
        if self.root is not None:
            doc["root"] = type(self.root).__name__
            for path, c in self.root.cells_and_names():
                doc["modules"].append({"path": path, "class": type(c).__name__, "training": bool(c.training),
                                       "args": _constructor_args(c, getattr(c, "_gradstep_init_args", None))})
            doc["params"] = self.structure()
            for name, value in self.initial.items():
                self.blob.add("init/" + name, value)
        self.blob.file.close()
        doc["tensors"] = self.blob.index
        with open(os.path.join(self.directory, "mindspore.json"), "w") as f:
            json.dump(doc, f)


def _optimizer_classes():
    """Every class an optimizer's __call__ or __init__ may come from: mindspore.nn's optimizers and
    their bases (the Optimizer users subclass is not the base the built-in ones derive from)."""
    found = []
    for name in dir(nn):
        value = getattr(nn, name)
        if isinstance(value, type) and "Optimizer" in [c.__name__ for c in value.__mro__]:
            for cls in value.__mro__:
                if cls not in found and cls.__module__.startswith("mindspore") and cls not in nn.Cell.__mro__:
                    found.append(cls)
    return found


_saved = []


def _wrap_calls(capture):
    """Wraps the table's functions in every namespace holding them, their primitives' __call__ and
    the Tensor methods, so the capture sees a Cell's own calls with their arguments."""
    from mindspore import ops
    namespaces = [ops]
    for name in ("function", "functional", "operations"):
        module = sys.modules.get("mindspore.ops." + name)
        if module is not None and module not in namespaces:
            namespaces.append(module)
    for name in _RECORDED_FUNCTIONS:
        original = getattr(ops, name, None)
        if original is None:
            continue
        wrapped = (lambda n, o: lambda *a, **k: capture.recorded_call(n, o, a, k))("ops." + name, original)
        for namespace in namespaces:
            if getattr(namespace, name, None) is original:
                _saved.append((namespace, name, original))
                setattr(namespace, name, wrapped)
    for name in _LOSS_FUNCTIONS:
        original = getattr(ops, name, None)
        if original is None:
            continue
        wrapped = (lambda n, o: lambda *a, **k: capture.functional_loss(n, o, a, k))(name, original)
        for namespace in namespaces:
            if getattr(namespace, name, None) is original:
                _saved.append((namespace, name, original))
                setattr(namespace, name, wrapped)
    for name in _RECORDED_PRIMITIVES:
        cls = getattr(ops, name, None)
        if not isinstance(cls, type):
            continue
        original = cls.__call__
        _saved.append((cls, "__call__", cls.__dict__.get("__call__", _INHERITED)))

        def call(self, *a, _original=original, _name=name, **k):
            return capture.recorded_call("ops." + _name, lambda *x, **y: _original(self, *x, **y), a, k,
                                         init=dict(self.attrs))
        setattr(cls, "__call__", call)
    for name in _RECORDED_METHODS:
        original = getattr(mindspore.Tensor, name, None)
        if original is None:
            continue
        _saved.append((mindspore.Tensor, name, mindspore.Tensor.__dict__.get(name, _INHERITED)))
        setattr(mindspore.Tensor, name,
                (lambda n, o: lambda *a, **k: capture.recorded_call(n, o, a, k))("Tensor." + name, original))


_INHERITED = object()  # _saved's mark for an attribute the class did not define itself


def arm(directory, steps, copy_weights, match):
    """Installs the capture for this run: Cell.__call__ and every optimizer's __init__ and
    __call__ are wrapped until finish()."""
    global _capture
    _capture = capture = _Capture(directory, steps, copy_weights, match)
    call = nn.Cell.__call__
    _saved.append((nn.Cell, "__call__", call))
    nn.Cell.__call__ = lambda self, *a, **k: capture.call(call, self, a, k)
    _wrap_calls(capture)
    for cls in _optimizer_classes():
        if "__call__" in cls.__dict__:
            original_call = cls.__dict__["__call__"]
            _saved.append((cls, "__call__", original_call))
            setattr(cls, "__call__", (lambda o: lambda self, *a, **k: capture.optimizer_call(o, self, a, k))(original_call))
        if "__init__" in cls.__dict__:
            original_init = cls.__dict__["__init__"]
            _saved.append((cls, "__init__", original_init))

            def init(self, *a, _original=original_init, _cls=cls, **k):
                _original(self, *a, **k)
                if next(c for c in type(self).__mro__ if "__init__" in c.__dict__) is not _cls:
                    return  # a base's constructor, run by the class the script made
                args = _constructor_args(self, (a, k), _original)
                for name in ("params", "parameters"):  # the Parameters, not a setting
                    args["given"].pop(name, None)
                capture.init_args[id(self)] = args
            setattr(cls, "__init__", init)


def finish():
    """At the end of the run: writes what was recorded (also when the script ended early) and
    takes the wrappers off."""
    global _capture
    while _saved:
        cls, name, original = _saved.pop()
        if original is _INHERITED:
            delattr(cls, name)
        else:
            setattr(cls, name, original)
    if _capture is not None:
        _capture.finish(False)
    _capture = None
