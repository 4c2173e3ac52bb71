"""mindspore.Profiler as MindSpore 2.2 runs it on CPU: every op the core runs between start() and
stop() (PyNative and compiled graphs) has its wall time recorded under its full scope name
(bind_profiler.cpp, core/profile/op_timer.h), and analyse() writes MindSpore's CPU profiler files
under output_path/profiler/:

- cpu_op_detail_info_{rank}.csv: one row per op (op_side, op_type, op_name, full_op_name,
  op_occurrences, op_total_time(ms), op_avg_time(ms), total_proportion, subgraph, pid);
- cpu_op_type_info_{rank}.csv: one row per op type (op_type, type_occurrences,
  execution_frequency(per-step), total_compute_time, avg_time(ms), percent), times in ms;
- cpu_op_execute_timestamp_{rank}.txt: "full_op_name;HostCpuOps;start_ns,duration_ms,thread ..."
  per op, each run's start on the steady clock in ns;
- cpu_timeline_display_{rank}.json: the runs as Chrome trace events (ts and dur in us).

Numbers are written as MindSpore's C++ writer prints floats (6 significant digits).
One difference: MindSpore refuses to analyse PyNative runs on CPU ("does not support Pynative
mode"); here PyNative ops are timed like compiled ones, so analyse() writes them.
"""
import json
import os
import stat

import mindspore as _ms
from mindspore import log as logger

# The keyword arguments MindSpore 2.2's Profiler uses on CPU; others get its warning and are ignored.
_CPU_PARAMS = ("start", "start_profile", "output_path", "timeline_limit")


def _num(value):
    """A float as MindSpore's C++ writer prints it (std::ostream, 6 significant digits)."""
    return "%g" % value


def _rank_id():
    rank = os.getenv("RANK_ID", "")
    return rank if rank.isdigit() else "0"


class Profiler:
    """Collects the wall time of every op run between start() and stop(); analyse() writes
    MindSpore's CPU profiler files under output_path/profiler (see the module docstring)."""

    _has_initialized = False

    def __init__(self, **kwargs):
        self._has_started = False
        self._has_started_twice = False
        self._op_time = True
        if Profiler._has_initialized:
            raise RuntimeError("Do not init twice in the profiler.")
        Profiler._has_initialized = True
        self._rank_id = _rank_id()
        self._parse_kwargs(kwargs)
        self._output_path = self._make_output_path(kwargs)
        self.start_profile = kwargs.pop("start_profile", True)
        if not isinstance(self.start_profile, bool):
            raise TypeError(f"For '{self.__class__.__name__}', the parameter start_profile must be bool, "
                            f"but got type {type(self.start_profile)}")
        if self.start_profile:
            self.start()

    def _parse_kwargs(self, kwargs):
        self._op_time = kwargs.get("op_time", True)
        for param in list(kwargs):
            if param not in _CPU_PARAMS:
                logger.warning("%s is an invalid param which doesn't work.", param)
                kwargs.pop(param)
        timeline_limit = kwargs.pop("timeline_limit", 500)
        if isinstance(timeline_limit, bool) or not isinstance(timeline_limit, int):
            logger.warning(f"For '{self.__class__.__name__}', the parameter timeline_limit must be int, "
                           f"but got type {type(timeline_limit)}, it will be set to 500.")
            timeline_limit = 500
        if timeline_limit <= 0:
            logger.warning("[Profiler]The 'timeline_limit' parameter must be greater than 0, it will be set to 500.")
            timeline_limit = 500
        self._timeline_size_limit_byte = timeline_limit * 1024 * 1024

    @staticmethod
    def _make_output_path(kwargs):
        output_path = kwargs.pop("output_path", None)
        if output_path is None:
            output_path = os.getenv("MS_DIAGNOSTIC_DATA_PATH") or "data"
        if not isinstance(output_path, str):
            raise TypeError(f"For 'Profiler', the parameter output_path must be str, "
                            f"but got type {type(output_path)}")
        path = os.path.join(os.path.realpath(os.path.expanduser(output_path)), "profiler")
        if os.path.exists(path):
            logger.warning("The target dir already exists. "
                           "There may be some old profiling data, and they will be rewritten in the end.")
        os.makedirs(path, exist_ok=True)
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR | stat.S_IXUSR)
        return path

    def start(self):
        """Starts timing ops (needed only after Profiler(start_profile=False))."""
        if self._has_started:
            raise RuntimeError("The profiler has already started. Use profiler.start() only when start_profile value "
                               "is set to False.")
        if self._has_started_twice:
            raise RuntimeError("MindSpore Profiling has finished, repeated start and stop actions are not supported.")
        self._has_started = True
        self._has_started_twice = True
        _ms._op_timing_start()

    def stop(self):
        """Stops timing ops; what was recorded stays for analyse()."""
        if not self._has_started:
            raise RuntimeError("The profiler has not started, so can not stop. Please call the start() method "
                               "before calling the stop() method.")
        self._has_started = False
        _ms._op_timing_stop()

    def analyse(self):
        """Stops timing and writes the CPU profiler files under output_path/profiler."""
        _ms._op_timing_stop()
        Profiler._has_initialized = False
        ops = [(name, op_type, runs) for name, op_type, runs in _ms._op_timings() if runs]
        os.makedirs(self._output_path, exist_ok=True)
        if ops:
            self._write_op_files(ops)
        self._write_timeline(ops)

    def _file(self, pattern):
        return os.path.join(self._output_path, pattern.format(self._rank_id))

    def _write_op_files(self, ops):
        totals_ms = [sum(run[1] for run in runs) / 1e6 for _, _, runs in ops]
        grand_total = sum(totals_ms)
        types = {}
        pid = os.getpid()
        with open(self._file("cpu_op_detail_info_{}.csv"), "w") as f:
            f.write("op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),"
                    "op_avg_time(ms),total_proportion,subgraph,pid\n")
            for (name, op_type, runs), total in zip(ops, totals_ms):
                proportion = total / grand_total if grand_total else 0.0
                f.write(",".join(["Host", op_type, name.rsplit("/", 1)[-1], name, str(len(runs)), _num(total),
                                  _num(total / len(runs)), _num(proportion), "Default", str(pid)]) + "\n")
                entry = types.setdefault(op_type, [0, 0, 0.0, 0.0])
                entry[0] += len(runs)
                entry[1] = max(entry[1], len(runs))
                entry[2] += total
                entry[3] += proportion
        with open(self._file("cpu_op_type_info_{}.csv"), "w") as f:
            f.write("op_type,type_occurrences,execution_frequency(per-step),total_compute_time,avg_time(ms),percent\n")
            for op_type, (count, per_op, total, proportion) in types.items():
                # The runs of one op are the steps: count / that is how often the type runs per step.
                f.write(",".join([op_type, str(count), str(count // per_op), _num(total), _num(total / count),
                                  _num(proportion)]) + "\n")
        with open(self._file("cpu_op_execute_timestamp_{}.txt"), "w") as f:
            for name, _, runs in ops:
                f.write(name + ";HostCpuOps;"
                        + "".join("%d,%s,%d " % (start, _num(duration / 1e6), thread)
                                  for start, duration, thread in runs) + "\n")
        for pattern in ("cpu_op_detail_info_{}.csv", "cpu_op_type_info_{}.csv", "cpu_op_execute_timestamp_{}.txt"):
            os.chmod(self._file(pattern), stat.S_IRUSR | stat.S_IWUSR)

    def _write_timeline(self, ops):
        pid = int(self._rank_id)
        events = []
        threads = set()
        for name, _, runs in ops:
            # Each event is formatted once, by hand: json.dumps per run made analyse() take seconds.
            head = '{"name": %s, "ph": "X", "pid": %d, "args": {"full_op_name": %s}, ' % (
                json.dumps(name.rsplit("/", 1)[-1]), pid, json.dumps(name))
            for start, duration, thread in runs:
                threads.add(thread)
                events.append((start, head + '"tid": %d, "ts": %.3f, "dur": %.3f}' % (thread, start / 1e3,
                                                                                       duration / 1e3)))
        events.sort(key=lambda e: e[0])
        kept = [json.dumps({"name": "thread_name", "ph": "M", "pid": pid, "tid": t,
                            "args": {"name": "HostCpuOps%d" % t}}) for t in sorted(threads)]
        size = 0
        for _, event in events:
            size += len(event) + 2
            if size > self._timeline_size_limit_byte:
                logger.warning("Profiler: the timeline is larger than timeline_limit, later ops are left out.")
                break
            kept.append(event)
        path = self._file("cpu_timeline_display_{}.json")
        with open(path, "w") as f:
            f.write("[" + ",\n".join(kept) + "]")
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def _gradstep_reset():
    """Before each run: no profiler of an earlier script is timing or initialized."""
    Profiler._has_initialized = False
    _ms._op_timing_stop()
    _ms._op_timing_clear()
