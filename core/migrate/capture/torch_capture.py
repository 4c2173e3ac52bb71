"""The PyTorch side of `gradstep migrate`: runs a user's PyTorch script unchanged under Debian's
python3-torch and records its first N training steps for the comparison (Note [Migration capture]
in core/migrate/capture.h). Nothing in the script names our hooks: the model is the module called at
top level whose parameters receive gradients, the batch is what it was called with, the loss is the
tensor backward() ran from, the target is the second input of the loss the script called at top
level, and a step ends with the optimizer's step().

usage: python3 torch_capture.py OUT_DIR STEPS SCRIPT [ARGS...]
exit status: 0 captured (or the script ended), 3 torch cannot be imported, else the script's error
(its traceback on stderr and, when it raised inside a module, that module in OUT_DIR/torch.json).
"""
import inspect
import json
import os
import runpy
import sys
import traceback

OUT_DIR, STEPS, SCRIPT = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    import numpy as np
    import torch
    from torch.overrides import TorchFunctionMode
except ImportError as e:
    print("gradstep-capture: cannot import torch: %s" % e, file=sys.stderr)
    sys.exit(3)


TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
# The functional calls of the pitfall table (core/migrate/call_pitfalls.h), recorded with their
# arguments when a module's own code makes them (Note [Functional calls] in core/migrate/capture.h).
RECORDED_CALLS = {"split", "chunk", "tensor_split", "norm", "normalize", "linalg_norm", "linalg_vector_norm",
                  "clamp", "clip", "leaky_relu", "gelu", "dropout", "softmax", "log_softmax"}


class _CaptureDone(BaseException):
    """Ends the script after the last recorded step; BaseException so `except Exception` in the
    script does not swallow it."""


class Blob:
    """Tensors as float64 little-endian in one file, indexed in the JSON (Note [Migration capture])."""

    def __init__(self, path):
        self.file = open(path, "wb")
        self.offset = 0
        self.index = {}

    def add(self, key, value):
        tensor = value.detach() if isinstance(value, torch.Tensor) else torch.as_tensor(value)
        dtype = str(tensor.dtype).replace("torch.", "")
        data = np.ascontiguousarray(tensor.cpu().numpy(), dtype="<f8")
        self.file.write(data.tobytes())
        self.index[key] = {"offset": self.offset, "shape": list(data.shape), "dtype": dtype}
        self.offset += data.nbytes
        return key


def jsonable(value):
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if isinstance(value, torch.Tensor):
        return "tensor"
    return repr(value)


def tensor_leaves(value, prefix=""):
    """The tensors of a module's output in order: the output itself, or a tuple's or list's
    elements by position ("0", "1.0": an LSTM's output and (h, c)), compared one by one."""
    if isinstance(value, torch.Tensor):
        return [(prefix, value)]
    leaves = []
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            leaves.extend(tensor_leaves(v, "%s.%d" % (prefix, i) if prefix else str(i)))
    return leaves


def call_value(value):
    """An argument of a recorded call: a tensor as {"tensor": shape}, else as JSON holds it."""
    if isinstance(value, torch.Tensor):
        if value.dim() == 0:
            return {"tensor": [], "value": value.item()}
        return {"tensor": list(value.shape)}
    if isinstance(value, (tuple, list)):
        return [call_value(v) for v in value]
    return jsonable(value)


def call_name(func, name):
    """How a user writes the call: x.split for a Tensor method, torch.nn.functional.normalize,
    torch.linalg.vector_norm, torch.split."""
    if getattr(torch.Tensor, name, None) is func:
        return "Tensor." + name
    module = getattr(func, "__module__", None) or "torch"
    if module == "torch.nn.functional":
        return "torch.nn.functional." + name
    if name.startswith("linalg_"):
        return "torch.linalg." + name[len("linalg_"):]
    return "torch." + name


def user_caller(func, name):
    """The frame that called the torch function, or None when torch's own code did (an
    nn.LeakyReLU calling F.leaky_relu is the module's business, compared by its arguments)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.endswith(os.path.join("torch", "overrides.py")):
        frame = frame.f_back
    if frame is not None and frame.f_code.co_filename.startswith(TORCH_DIR) and frame.f_code.co_name == name:
        frame = frame.f_back  # the Python function that dispatched to us (torch.split)
    if frame is None or frame.f_code.co_filename.startswith(TORCH_DIR):
        return None
    return frame


class CallRecorder(TorchFunctionMode):
    """Records the table's functional calls a module's own forward makes, in the module running."""

    def __init__(self, capture):
        super().__init__()
        self.capture = capture

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        if name in RECORDED_CALLS and self.capture.module_stack and user_caller(func, name) is not None:
            self.capture.record_call(call_name(func, name), args, kwargs, out)
        return out


def constructor_args(obj):
    """The constructor's arguments as the object holds them (PyTorch keeps them as attributes)."""
    args = {}
    names = []
    # The first constructor in the class's ancestry that names its arguments (nn.LSTM's own takes
    # *args, **kwargs and hands them to RNNBase's).
    for cls in type(obj).__mro__:
        try:
            names = [n for n, p in inspect.signature(cls.__init__).parameters.items()
                     if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)][1:]
        except (TypeError, ValueError):
            names = []
        if names:
            break
    for name in names:
        if name in ("args", "kwargs", "device", "dtype") or not hasattr(obj, name):
            continue
        value = getattr(obj, name)
        args[name] = (value is not None) if isinstance(value, torch.Tensor) and name == "bias" else jsonable(value)
    return args


class Capture:
    def __init__(self):
        self.blob = Blob(os.path.join(OUT_DIR, "torch.bin"))
        self.depth = 0
        self.candidates = {}  # id(module) -> {"module", "init": {name: tensor}}
        self.root = None
        self.paths = {}  # id(module) -> path under the root being recorded
        # this step's (path, tensor, element, first of its call, grad_fn) in execution order
        self.forward = []
        self.calls = []  # this step's functional calls (record_call), in execution order
        self.call_events = []
        self.call_recorder = CallRecorder(self)
        self.module_stack = []
        self.inputs = []
        self.current = None  # the candidate module of the last top-level call
        self.target = None
        self.loss = None
        self.loss_info = None
        self.optimizer = None
        self.steps_done = 0
        self.events = []
        self.error = None
        self.finished = False

    # --- the model and its calls ---------------------------------------------------------
    def recording(self):
        return self.steps_done < STEPS and torch.is_grad_enabled()

    def top_level_call(self, module, args):
        if not self.recording():
            return
        if any(True for _ in module.parameters()):
            entry = self.candidates.setdefault(id(module), {"module": module, "init": None})
            if entry["init"] is None:
                entry["init"] = {k: v.detach().clone() for k, v in module.state_dict(keep_vars=True).items()}
            self.paths = {id(m): p for p, m in module.named_modules()}
            self.forward = []
            self.calls = []
            self.inputs = [a.detach().clone() for a in args if isinstance(a, torch.Tensor)]
            self.current = module
        elif args and len(args) >= 2 and isinstance(args[1], torch.Tensor):
            self.target = args[1].detach().clone()
            self.loss_info = {"class": type(module).__name__, "args": constructor_args(module)}

    def call(self, original, module, args, kwargs):
        path = self.paths.get(id(module)) if self.recording() else None
        if self.depth == 0:
            self.top_level_call(module, args)
            path = self.paths.get(id(module)) if self.recording() else None
        self.depth += 1
        if path is not None:
            self.module_stack.append(path)
        try:
            if self.depth == 1 and path is not None:
                with self.call_recorder:
                    out = original(module, *args, **kwargs)
            else:
                out = original(module, *args, **kwargs)
        except Exception as e:
            if self.error is None and path is not None:
                self.error = {"module": self.module_stack[-1], "type": type(e).__name__, "message": str(e)}
            raise
        finally:
            self.depth -= 1
            if path is not None:
                self.module_stack.pop()
        if path is not None:
            for n, (element, tensor) in enumerate(tensor_leaves(out)):
                self.forward.append((path, tensor.detach().clone(), element, n == 0, tensor.grad_fn))
        return out

    def record_call(self, name, args, kwargs, out):
        outputs = [list(t.shape) for _, t in tensor_leaves(out)]
        self.calls.append({"framework": "torch", "module": self.module_stack[-1], "position": len(self.forward),
                           "function": name,
                           "args": [call_value(a) for a in args],
                           "kwargs": {k: call_value(v) for k, v in kwargs.items()}, "outputs": outputs})

    def functional_loss(self, name, original, args, kwargs):
        if self.depth == 0 and self.recording() and len(args) >= 2 and isinstance(args[1], torch.Tensor):
            self.target = args[1].detach().clone()
            extra = {k: jsonable(v) for k, v in kwargs.items() if not isinstance(v, torch.Tensor)}
            self.loss_info = {"class": "functional." + name, "args": extra}
        return original(*args, **kwargs)

    def backward(self, tensor):
        if self.recording():
            self.loss = tensor.detach().clone()

    # --- the step ------------------------------------------------------------------------
    def choose_root(self):
        best, best_count = None, -1
        for entry in self.candidates.values():
            count = sum(1 for p in entry["module"].parameters() if p.grad is not None)
            if count > best_count:
                best, best_count = entry, count
        self.root = best

    def step(self, optimizer, original, args, kwargs):
        if self.steps_done >= STEPS:
            return original(*args, **kwargs)
        if self.root is None:
            self.choose_root()
        if self.root is None:
            return original(*args, **kwargs)
        step = self.steps_done + 1
        module = self.root["module"]
        for name, p in module.named_parameters():
            if p.grad is not None:
                self.blob.add("grad/%d/%s" % (step, name), p.grad)
        self.record_forward(step)
        self.optimizer = {"class": type(optimizer).__name__,
                          "args": {k: jsonable(v) for k, v in optimizer.param_groups[0].items() if k != "params"}}
        result = original(*args, **kwargs)
        for name, value in module.state_dict(keep_vars=True).items():
            self.blob.add("after/%d/%s" % (step, name), value)
        self.steps_done = step
        if self.steps_done >= STEPS:
            self.finish(True)
            raise _CaptureDone()
        return result

    def data_flow(self):
        """For each recorded output, the earlier outputs it was computed from, read off the autograd
        graph: the grad_fn nodes reached backwards from its own before another output's."""
        producers = {}
        for index, entry in enumerate(self.forward):
            if entry[4] is not None:
                producers.setdefault(id(entry[4]), index)
        inputs = []
        for index, entry in enumerate(self.forward):
            found, node = set(), entry[4]
            if node is not None and producers.get(id(node), index) != index:
                found.add(producers[id(node)])  # a container's output is its last layer's
            elif node is not None:
                # seen holds the nodes, not only their ids: a freed wrapper's id is reused
                stack, seen = [f for f, _ in node.next_functions if f is not None], {}
                while stack and len(seen) < 20000:
                    f = stack.pop()
                    if id(f) in seen:
                        continue
                    seen[id(f)] = f
                    if producers.get(id(f), index) < index:
                        found.add(producers[id(f)])
                        continue
                    stack.extend(g for g, _ in f.next_functions if g is not None)
            inputs.append(sorted(found))
        return inputs

    def record_forward(self, step):
        if self.root is None or self.current is not self.root["module"]:
            return
        calls = {}
        inputs = self.data_flow()
        for index, (path, out, element, first, _) in enumerate(self.forward):
            if first:  # a tuple's elements share their call
                calls[path] = calls.get(path, 0) + 1
            key = self.blob.add("fwd/%d/%d" % (step, index), out)
            event = {"step": step, "module": path, "call": calls[path], "tensor": key, "inputs": inputs[index]}
            if element:
                event["element"] = element
            self.events.append(event)
        for call in self.calls:
            self.call_events.append(dict(call, step=step))
        if self.loss is not None:
            self.blob.add("loss/%d" % step, self.loss)
        if step == 1:
            for i, x in enumerate(self.inputs):
                self.blob.add("input/%d" % i, x)
            if self.target is not None:
                self.blob.add("target", self.target)

    # --- the record ----------------------------------------------------------------------
    def finish(self, completed):
        if self.finished:
            return
        self.finished = True
        if self.root is None:
            self.choose_root()
        doc = {"framework": "torch", "completed": completed, "steps": self.steps_done,
               "modules": [], "params": [], "forward": self.events, "calls": self.call_events, "loss": self.loss_info,
               "optimizer": self.optimizer, "error": self.error, "root": None}
        if self.root is not None:
            module = self.root["module"]
            if self.steps_done == 0:
                self.record_forward(1)
            doc["root"] = type(module).__name__
            for path, m in module.named_modules():
                doc["modules"].append({"path": path, "class": type(m).__name__, "training": m.training,
                                       "args": constructor_args(m)})
            trainable = {name for name, _ in module.named_parameters()}
            for name, value in self.root["init"].items():
                owner, _, attr = name.rpartition(".")
                self.blob.add("init/" + name, value)
                doc["params"].append({"name": name, "module": owner, "attr": attr, "shape": list(value.shape),
                                      "kind": "parameter" if name in trainable else "buffer",
                                      "dtype": str(value.dtype).replace("torch.", "")})
        self.blob.file.close()
        doc["tensors"] = self.blob.index
        with open(os.path.join(OUT_DIR, "torch.json"), "w") as f:
            json.dump(doc, f)


CAPTURE = Capture()


def install():
    module_call = torch.nn.Module.__call__
    torch.nn.Module.__call__ = lambda self, *a, **k: CAPTURE.call(module_call, self, a, k)

    tensor_backward = torch.Tensor.backward

    def backward(self, *a, **k):
        CAPTURE.backward(self)
        return tensor_backward(self, *a, **k)
    torch.Tensor.backward = backward

    optimizer_init = torch.optim.Optimizer.__init__

    def init(self, *a, **k):
        optimizer_init(self, *a, **k)
        step = self.step  # the bound method (torch 1.13 wraps it for its profiler)
        self.step = lambda *sa, **sk: CAPTURE.step(self, step, sa, sk)
    torch.optim.Optimizer.__init__ = init

    functional = torch.nn.functional
    for name in ("cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
                 "binary_cross_entropy_with_logits", "smooth_l1_loss"):
        original = getattr(functional, name)
        setattr(functional, name, (lambda n, o: lambda *a, **k: CAPTURE.functional_loss(n, o, a, k))(name, original))


def main():
    install()
    sys.argv = [SCRIPT] + sys.argv[4:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
    status = 0
    try:
        runpy.run_path(SCRIPT, run_name="__main__")
    except _CaptureDone:
        pass
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        status = 1
    CAPTURE.finish(False)
    sys.stdout.flush()
    os._exit(status)  # skip torch's slow interpreter teardown


main()
