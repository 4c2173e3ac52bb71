// mindspore.set_context / get_context (also on mindspore.context), the execution modes,
// set_seed / get_seed and __version__. Settings other than the mode, max_call_depth (graph
// mode's bound on while loops), inter_op_parallel_num (the threads a compiled graph runs
// independent nodes on) and check_bprop (bprop_check.h) are stored and returned as given:
// gradstep computes on the CPU whatever device_target says. SPDX-License-Identifier: MIT
#include "python/host/run_amp.h"
#include "python/bind/bindings.h"

#include "data/dataset.h"
#include "graph/graph.h"
#include "graph/inter_op_pool.h"
#include "random/generator.h"

#include <limits>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

constexpr int kGraphMode = 0;
constexpr int kPynativeMode = 1;
constexpr const char* kVersion = "2.2.14";
constexpr std::int64_t kDefaultMaxCallDepth = kDefaultMaxIterations;

/// The run's settings and seed: created with the module, released just before Python finalises
/// (a static py::object would be destroyed after that).
py::dict*& settingsSlot()
{
    static py::dict* dict = nullptr;
    return dict;
}

py::object*& seedSlot()
{
    static py::object* value = nullptr;
    return value;
}

py::dict& settings()
{
    if (!settingsSlot())
        settingsSlot() = new py::dict();
    return *settingsSlot();
}

py::object& seed()
{
    if (!seedSlot())
        seedSlot() = new py::object(py::none());
    return *seedSlot();
}

// An int (not a bool) in [low, high]; ints too large for a long long are outside any range.
bool intIn(py::handle value, long long low, long long high)
{
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
        return false;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    return overflow == 0 && v >= low && v <= high;
}

void setContext(const py::kwargs& kwargs)
{
    for (auto item : kwargs) {
        const std::string key = py::str(item.first);
        if (key == "mode") {
            const py::handle mode = item.second;
            if (!PyLong_Check(mode.ptr()) || PyBool_Check(mode.ptr())
                || (mode.cast<long>() != kGraphMode && mode.cast<long>() != kPynativeMode))
                throw py::value_error("For 'set_context', the argument 'mode' should be context.GRAPH_MODE (0) "
                                      "or context.PYNATIVE_MODE (1), but got " + std::string(py::repr(mode)) + ".");
        }
        if (key == "max_call_depth") {
            const py::handle depth = item.second;
            if (!intIn(depth, 1, std::numeric_limits<long long>::max()))
                throw py::value_error("For 'set_context', the argument 'max_call_depth' must be a "
                                      "positive int, but got " + std::string(py::repr(depth))
                                      + ".");
        }
        if (key == "inter_op_parallel_num") {
            const py::handle threads = item.second;
            if (!intIn(threads, 0, 256))
                throw py::value_error("For 'set_context', the argument 'inter_op_parallel_num' must "
                                      "be an int in [0, 256] (0: the default), but got "
                                      + std::string(py::repr(threads)) + ".");
            InterOpPool::instance().setThreads(threads.cast<int>());
        }
        settings()[item.first] = item.second;
    }
}

py::object getContext(const std::string& key)
{
    if (settings().contains(key))
        return settings()[key.c_str()];
    if (key == "mode")
        return py::int_(kPynativeMode);
    if (key == "device_target")
        return py::str("CPU");
    if (key == "device_id")
        return py::int_(0);
    if (key == "max_call_depth")
        return py::int_(kDefaultMaxCallDepth);
    if (key == "inter_op_parallel_num")
        return py::int_(0);
    if (key == "check_bprop")
        return py::bool_(false);
    throw py::value_error("For 'get_context', the argument '" + key + "' has not been set and has no default.");
}

void setSeed(const py::handle& value)
{
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
        throw py::type_error("The argument 'seed' must be type of int, but got "
                             + std::string(py::str(py::type::handle_of(value).attr("__name__"))) + ".");
    const auto s = value.cast<long long>();
    if (s < 0)
        throw py::value_error("The argument 'seed' must be non-negative, but got " + std::to_string(s) + ".");
    // As MindSpore's set_seed, NumPy's global generator first: the initializers take their seeds
    // from it (random/init_seeds.h), and a seed past 2**32 - 1 is NumPy's ValueError before any
    // other state changes.
    py::module_::import("numpy").attr("random").attr("seed")(value);
    gradstep::setSeed(static_cast<std::uint64_t>(s));
    data::setSeed(static_cast<std::uint64_t>(s)); // as MindSpore, it seeds the data pipelines' shuffles too
    seed() = py::reinterpret_borrow<py::object>(value);
}

} // namespace

int contextMode()
{
    if (!settings().contains("mode"))
        return kPynativeMode;
    return settings()["mode"].cast<int>();
}

std::int64_t contextMaxCallDepth()
{
    if (!settings().contains("max_call_depth"))
        return kDefaultMaxCallDepth;
    return settings()["max_call_depth"].cast<std::int64_t>();
}

bool contextCheckBprop()
{
    return settings().contains("check_bprop") && py::bool_(settings()["check_bprop"]);
}

void resetContext()
{
    settings().clear();
    InterOpPool::instance().setThreads(0);
    seed() = py::none();
    data::clearSeed();
}

void releaseContext()
{
    delete settingsSlot();
    settingsSlot() = nullptr;
    delete seedSlot();
    seedSlot() = nullptr;
}

void bindContext(py::module_& m, py::module_& context)
{
    for (py::module_* target : {&m, &context}) {
        target->attr("GRAPH_MODE") = kGraphMode;
        target->attr("PYNATIVE_MODE") = kPynativeMode;
        target->def("set_context", &setContext, "Sets execution settings: mode=GRAPH_MODE or PYNATIVE_MODE, ...");
        target->def("get_context", &getContext, py::arg("attr_key"));
    }
    bindAmpOverride(m);
    m.def("set_seed", &setSeed, py::arg("seed"), "Seeds NumPy's global generator (and with it the initializers), dropout and the datasets.");
    m.def("get_seed", [] { return seed(); });
    m.attr("__version__") = kVersion;
}

} // namespace gradstep::python
