// mindspore._op_timing_start / _op_timing_stop / _op_timings: the core's op timing
// (profile/op_timer.h) for mindspore.Profiler (package: mindspore/profiler/profiling.py), which
// writes MindSpore's CPU profiler files from what _op_timings returns. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"

#include "profile/op_timer.h"

namespace py = pybind11;

namespace gradstep::python {

void bindProfiler(py::module_& m)
{
    m.def("_op_timing_start", &profile::startOpTiming, "drops what was recorded and starts timing");
    m.def("_op_timing_stop", &profile::stopOpTiming, "stops timing ops; what was recorded stays");
    m.def("_op_timing_clear", &profile::clearOpTimings, "drops what was recorded");
    m.def(
        "_op_timings",
        [] {
            // [(full name, op type, [(start ns, duration ns, thread), ...]), ...], first run first.
            py::list result;
            for (const profile::TimedOp& op : profile::opTimings()) {
                py::list runs;
                for (const profile::OpRun& run : op.runs)
                    runs.append(py::make_tuple(run.startNs, run.durationNs, run.thread));
                result.append(py::make_tuple(op.fullName, op.type, runs));
            }
            return result;
        },
        "the ops timed since the last start");
}

} // namespace gradstep::python
