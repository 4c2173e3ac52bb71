"""mindspore.Profiler on CPU: a profiled training loop (PyNative, then a @jit step) gives
MindSpore's cpu_op_detail_info / cpu_op_type_info / cpu_op_execute_timestamp files under
output_path/profiler with every op that ran between start() and stop() (each as often as the
steps profiled, with times > 0 and the same totals in every file), nothing from outside that
window, and MindSpore's errors for start twice, stop before start and a second Profiler."""
import csv
import json
import logging
import os
import shutil
import tempfile
import time

import numpy as np

import mindspore as ms
import mindspore.profiler
from mindspore import Tensor, nn

from _check import raises

DETAIL_HEADER = ["op_side", "op_type", "op_name", "full_op_name", "op_occurrences", "op_total_time(ms)",
                 "op_avg_time(ms)", "total_proportion", "subgraph", "pid"]
TYPE_HEADER = ["op_type", "type_occurrences", "execution_frequency(per-step)", "total_compute_time",
               "avg_time(ms)", "percent"]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def trainer(jit):
    net = Net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return ms.jit(step) if jit else step


def read(path):
    with open(path) as f:
        return list(csv.reader(f))


def check_files(directory, steps, window):
    base = os.path.join(directory, "profiler")
    detail = read(os.path.join(base, "cpu_op_detail_info_0.csv"))
    types = read(os.path.join(base, "cpu_op_type_info_0.csv"))
    assert detail[0] == DETAIL_HEADER and types[0] == TYPE_HEADER, (detail[0], types[0])
    rows = detail[1:]
    names = {r[3] for r in rows}
    assert len(names) == len(rows), "one row per op"
    for side, op_type, op_name, full, count, total, avg, _, subgraph, _ in rows:
        assert side == "Host" and subgraph == "Default"
        assert full.endswith("/" + op_name) and op_name.startswith(op_type + "-op"), full
        # Every op ran once per profiled step: the step before start() and after stop() are not in.
        assert int(count) == steps, (full, count)
        assert float(total) > 0 and abs(float(avg) * steps - float(total)) <= 1e-4 * float(total) + 1e-6, full
    assert abs(sum(float(r[7]) for r in rows) - 1.0) < 1e-3
    by_type = {}
    for r in rows:
        by_type.setdefault(r[1], []).append(r)
    for needed in ("MatMul", "ReLU", "BiasAdd"):
        assert needed in by_type, sorted(by_type)
    # Each Dense's MatMul, and its gradient MatMuls under the forward op's scope: fc2's two
    # (weight and input), fc1's weight one (the input x needs no gradient).
    matmuls = sorted(r[3].rsplit("-op", 1)[0] for r in by_type["MatMul"])
    assert [n for n in matmuls if n.startswith("Default/")] == ["Default/Net/fc1/MatMul", "Default/Net/fc2/MatMul"]
    assert matmuls.count("Gradients/Default/Net/fc2/gradMatMul/MatMul") == 2, matmuls
    assert matmuls.count("Gradients/Default/Net/fc1/gradMatMul/MatMul") >= 1, matmuls
    assert len(types) - 1 == len(by_type)
    for op_type, count, per_step, total, avg, percent in types[1:]:
        ops = by_type[op_type]
        assert int(count) == steps * len(ops) and int(per_step) == len(ops), (op_type, count, per_step)
        detail_total = sum(float(r[5]) for r in ops)
        assert abs(float(total) - detail_total) <= 1e-4 * detail_total + 1e-5, (op_type, total, detail_total)
        assert abs(float(avg) - float(total) / int(count)) <= 1e-4 * float(avg) + 1e-7
        assert abs(float(percent) - sum(float(r[7]) for r in ops)) < 1e-4
    with open(os.path.join(base, "cpu_op_execute_timestamp_0.txt")) as f:
        lines = [line.split(";") for line in f.read().splitlines()]
    assert {line[0] for line in lines} == names and all(line[1] == "HostCpuOps" for line in lines)
    totals = {r[3]: float(r[5]) for r in rows}
    for name, _, runs in lines:
        runs = [tuple(run.split(",")) for run in runs.split()]
        assert len(runs) == steps
        for start, _, _ in runs:
            assert window[0] <= int(start) <= window[1], "a run outside start()..stop()"
        ms_sum = sum(float(run[1]) for run in runs)
        assert abs(ms_sum - totals[name]) <= 1e-3 * totals[name] + 1e-5, (name, ms_sum, totals[name])
    with open(os.path.join(base, "cpu_timeline_display_0.json")) as f:
        events = [e for e in json.load(f) if e["ph"] == "X"]
    assert len(events) == steps * len(rows) and all(e["dur"] > 0 for e in events)
    return by_type


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


root = tempfile.mkdtemp(prefix="profiler_test_")
try:
    assert ms.Profiler is mindspore.profiler.Profiler
    x = Tensor(np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32))
    y = Tensor(np.array([0, 1, 2, 1, 0], np.int32))

    # PyNative: one step before start(), three profiled, one after stop().
    capture = Capture()
    logging.getLogger("mindspore").addHandler(capture)
    step = trainer(jit=False)
    profiler = ms.Profiler(output_path=root + "/pynative", start_profile=False, profile_memory=True)
    logging.getLogger("mindspore").removeHandler(capture)
    assert "profile_memory is an invalid param which doesn't work." in capture.messages, capture.messages
    assert os.path.isdir(root + "/pynative/profiler")
    raises(RuntimeError, profiler.stop, match="The profiler has not started, so can not stop.")
    step(x, y)
    begin = time.monotonic_ns()
    profiler.start()
    raises(RuntimeError, profiler.start, match="The profiler has already started.")
    raises(RuntimeError, ms.Profiler, match="Do not init twice in the profiler.")
    for _ in range(3):
        step(x, y)
    profiler.stop()
    end = time.monotonic_ns()
    raises(RuntimeError, profiler.stop, match="The profiler has not started")
    raises(RuntimeError, profiler.start,
           match="MindSpore Profiling has finished, repeated start and stop actions are not supported.")
    step(x, y)
    profiler.analyse()
    check_files(root + "/pynative", 3, (begin, end))

    # A @jit step: its compiled graph's ops are timed the same way.
    jit_step = trainer(jit=True)
    jit_step(x, y)
    begin = time.monotonic_ns()
    profiler = ms.Profiler(output_path=root + "/jit")
    for _ in range(2):
        jit_step(x, y)
    profiler.analyse()
    end = time.monotonic_ns()
    check_files(root + "/jit", 2, (begin, end))

    # As in MindSpore, the failed Profiler counts as initialized (analyse() ends a profiler).
    raises(TypeError, ms.Profiler, output_path=root + "/bad", start_profile=1,
           match="For 'Profiler', the parameter start_profile must be bool, but got type <class 'int'>")
    raises(RuntimeError, ms.Profiler, match="Do not init twice in the profiler.")
finally:
    shutil.rmtree(root, ignore_errors=True)
print("ok")
