// Graph mode at run time (jit_runtime.h Note [Graph mode runtime]). SPDX-License-Identifier: MIT
#include "python/jit/jit_runtime.h"

#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/jit/jit_compiler.h"
#include "python/host/run_context.h"
#include "python/bind/nn_support.h"
#include "python/bind/value_convert.h"

#include "api/batch_tracer.h"
#include "api/grad.h"
#include "api/inputs_by_identity.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "graph/autodiff.h"
#include "graph/executor.h"
#include "nn/cell_hooks_suspension.h"
#include "optim/optimizer.h"
#include "passes/pipeline.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace py = pybind11;

namespace gradstep::python {

namespace {

struct Entry {
    py::object holder; ///< keeps the function (and so its identity) alive
    CompiledFunction compiled;
    std::unique_ptr<GraphExecutor> executor;
    std::size_t forwardOutputs = 0;
    std::vector<int> positionSlots; ///< per requested position: its gradient output, or -1
    std::size_t weightSlot = 0;     ///< the first weight gradient's output
    SpecList roots;                 ///< the differentiated outputs (sens checks)
    /// Per written state tensor: whether its value's buffer can be moved into the state instead
    /// of copied (a node's output with no planned buffer, used by no other graph output).
    std::vector<bool> movable;
};

std::vector<bool> movableWrites(const Graph& graph, std::size_t first, std::size_t count)
{
    std::vector<bool> movable;
    const std::vector<ValueId>& outputs = graph.outputs();
    for (std::size_t k = 0; k < count; ++k) {
        const GraphValue& v = graph.value(outputs[first + k]);
        const auto uses = std::count(outputs.begin(), outputs.end(), v.id);
        movable.push_back(v.kind == ValueKind::NodeOutput && v.buffer < 0 && uses == 1);
    }
    return movable;
}

struct State {
    std::map<std::string, std::unique_ptr<Entry>> cache;
    std::map<std::string, std::size_t> compilesPerFunction;
    std::size_t compiles = 0;
    std::size_t hits = 0;
    double lastMilliseconds = 0;
    py::dict* originals = nullptr; ///< @jit wrappers' inner callables -> the decorated functions
    std::set<std::string> inPython; ///< functions and Cells whose bodies call a gradient function
};

// Never destroyed: it holds Python objects and Python is finalised before static destructors.
State& state()
{
    static State* s = new State();
    return *s;
}

std::string identityOf(const py::handle& fn)
{
    if (py::hasattr(fn, "__func__") && py::hasattr(fn, "__self__"))
        return "m" + std::to_string(reinterpret_cast<std::uintptr_t>(fn.attr("__func__").ptr()))
               + ":" + std::to_string(reinterpret_cast<std::uintptr_t>(fn.attr("__self__").ptr()));
    return "f" + std::to_string(reinterpret_cast<std::uintptr_t>(fn.ptr()));
}

void describe(std::string& out, const py::handle& value)
{
    if (const Tensor* t = asTensor(value)) {
        out += specToString({t->shape(), t->dtype()});
    } else if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
        out += "(";
        for (py::handle item : value) {
            describe(out, item);
            out += ", ";
        }
        out += ")";
    } else if (value.is_none() || PyBool_Check(value.ptr()) || PyLong_Check(value.ptr())
               || PyFloat_Check(value.ptr()) || PyUnicode_Check(value.ptr())) {
        out += py::repr(value).cast<std::string>();
    } else {
        out += py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>() + "@"
               + std::to_string(reinterpret_cast<std::uintptr_t>(value.ptr()));
    }
}

std::string signatureOf(const py::tuple& args, const py::dict& kwargs)
{
    std::string out;
    for (py::handle a : args) {
        if (!out.empty())
            out += ", ";
        describe(out, a);
    }
    for (auto item : kwargs) {
        out += ", " + py::str(item.first).cast<std::string>() + "=";
        describe(out, item.second);
    }
    return out;
}

std::string functionName(const py::object& fn)
{
    static const py::detail::type_info* cellType = py::detail::get_type_info(typeid(Cell));
    if (PyObject_TypeCheck(fn.ptr(), cellType->type))
        return initializedCell(fn).className() + ".construct";
    return py::str(py::getattr(fn, "__qualname__", py::str("function")));
}

/// Weight gradients need a graph input even for a Parameter the function never reads.
ValueId parameterInput(CompiledFunction& c, const Parameter& w)
{
    const std::size_t arguments = c.graph.inputs().size() - c.parameters.size();
    for (std::size_t k = 0; k < c.parameters.size(); ++k)
        if (c.parameters[k].impl() == w.impl())
            return c.graph.inputs()[arguments + k];
    c.parameters.push_back(w);
    return c.graph.addInput(w.name(), {w.shape(), w.dtype()}, ValueKind::Parameter);
}

Graph gradientOf(Entry& e, const GradRequest& request)
{
    CompiledFunction& c = e.compiled;
    GradientSpec spec;
    for (std::int64_t p : request.positions) {
        const ValueId id = c.argumentInputs[static_cast<std::size_t>(p)];
        if (id == kNoId)
            throw TypeError("grad_position " + std::to_string(p) + " refers to an argument that "
                            "is not a Tensor, but only a Tensor argument can be differentiated");
        const bool floating = carriesGradient(c.graph.spec(id).dtype);
        e.positionSlots.push_back(floating ? static_cast<int>(spec.wrt.size()) : -1);
        if (floating)
            spec.wrt.push_back(id);
    }
    e.weightSlot = spec.wrt.size();
    for (const Parameter& w : request.weights)
        spec.wrt.push_back(parameterInput(c, w));
    std::size_t roots = leafCount(c.output); // the state and effect outputs pass through
    if (request.hasAux) {
        const OutputTree& out = c.output;
        if (out.kind == OutputTree::Kind::Tensor || out.kind == OutputTree::Kind::Constant
            || out.items.size() < 2)
            throw ValueError("When has_aux is True, origin fn requires more than one outputs.");
        roots = leafCount(out.items[0]);
        spec.differentiatedOutputs = roots;
    }
    spec.differentiatedOutputs = roots;
    for (std::size_t i = 0; i < roots; ++i)
        e.roots.push_back(c.graph.spec(c.graph.outputs()[i]));
    spec.sensInputs = request.sensParam;
    return gradientGraph(c.graph, spec);
}

// Parameters are part of the cache key by their specs, checked on a hit: they are found while
// compiling, so they cannot be in the key looked up before.
bool parametersUnchanged(const CompiledFunction& c)
{
    const std::size_t arguments = c.graph.inputs().size() - c.parameters.size();
    for (std::size_t k = 0; k < c.parameters.size(); ++k) {
        const TensorSpec& spec = c.graph.spec(c.graph.inputs()[arguments + k]);
        if (!(c.parameters[k].shape() == spec.shape) || c.parameters[k].dtype() != spec.dtype)
            return false;
    }
    return true;
}

void report(const std::string& name, const std::string& signature, const Graph& graph,
            std::size_t compiles, bool gradient, double milliseconds)
{
    ExecutionObserver* observer = executionContext().observer;
    if (!observer)
        return;
    GraphCompileEvent event;
    event.function = &name;
    event.signature = &signature;
    event.graph = &graph;
    event.compiles = compiles;
    event.gradient = gradient;
    event.milliseconds = milliseconds;
    observer->graphCompiled(event);
}

Entry& entryFor(const py::object& fn, const py::tuple& args, const py::dict& kwargs,
                const std::string& extraKey, const GradRequest* request)
{
    State& s = state();
    const std::string signature = signatureOf(args, kwargs);
    const std::string identity = identityOf(fn);
    const std::string key = identity + "|" + signature + "|" + extraKey + "|depth "
                            + std::to_string(contextMaxCallDepth());
    auto found = s.cache.find(key);
    if (found != s.cache.end()) {
        if (parametersUnchanged(found->second->compiled)) {
            ++s.hits;
            return *found->second;
        }
        s.cache.erase(found); // Parameter.set_data gave a new shape or dtype: compile again
    }
    const auto start = std::chrono::steady_clock::now();
    const std::string name = functionName(fn);
    auto entry = std::make_unique<Entry>();
    entry->holder = fn;
    entry->compiled = compileFunction(fn, args, kwargs, name);
    entry->forwardOutputs = entry->compiled.graph.outputs().size();
    Graph graph = request ? gradientOf(*entry, *request) : entry->compiled.graph;
    const std::vector<std::string_view> passes = defaultPipeline();
    entry->executor = std::make_unique<GraphExecutor>(runPipeline(graph, passes).graph);
    entry->movable = movableWrites(entry->executor->graph(), leafCount(entry->compiled.output),
                                   entry->compiled.written.size());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    ++s.compiles;
    s.lastMilliseconds = ms;
    const std::size_t compiles = ++s.compilesPerFunction[identity + "|" + extraKey];
    report(name, signature, entry->executor->graph(), compiles, request != nullptr, ms);
    return *s.cache.emplace(key, std::move(entry)).first->second;
}

// One run with its side effects (Note [Side effects in compiled code] in jit_state.cpp): the
// effects' `before`, the graph (an effect wanting its values when computed gets them in the
// run), the written state copied back, the other effects' `after`.
TensorList runEntry(Entry& e, const TensorList& inputs)
{
    const CompiledFunction& c = e.compiled;
    for (const RunEffect& effect : c.effects)
        if (effect.before)
            effect.before();
    const std::size_t written = leafCount(c.output);
    std::vector<OutputsReady> ready;
    for (const RunEffect& effect : c.effects) {
        if (!effect.after || effect.time != EffectTime::WhenComputed)
            continue;
        OutputsReady r{{}, effect.after};
        for (std::size_t i = 0; i < effect.count; ++i)
            r.outputs.push_back(written + c.written.size() + effect.firstOutput + i);
        ready.push_back(std::move(r));
    }
    TensorList outputs = e.executor->run(inputs, ready);
    // An output that is a written tensor's input (a read before the write that passes simplify
    // as the input itself) keeps the value it had, as the read before the write saw it.
    for (std::size_t i = 0; i < written; ++i)
        for (const Tensor& target : c.written)
            if (outputs[i].impl()->storage == target.impl()->storage)
                outputs[i] = outputs[i].clone();
    for (std::size_t k = 0; k < c.written.size(); ++k) {
        const Tensor& value = outputs[written + k];
        // A fresh buffer only this output holds (not a view of a planned buffer or an input)
        // becomes the state's.
        if (e.movable[k] && value.impl()->storage.use_count() == 1)
            Tensor(c.written[k]).impl()->storage = value.impl()->storage;
        else
            Tensor(c.written[k]).copyFrom(value);
    }
    const auto effectValues =
        outputs.begin() + static_cast<std::ptrdiff_t>(written + c.written.size());
    for (const RunEffect& effect : c.effects) {
        if (!effect.after || effect.time == EffectTime::WhenComputed)
            continue;
        const auto first = effectValues + static_cast<std::ptrdiff_t>(effect.firstOutput);
        effect.after(TensorList(first, first + static_cast<std::ptrdiff_t>(effect.count)));
    }
    return outputs;
}


// The JIT fallback. A gradient call in the body compiles with it (Note [Gradients inside compiled
// code] in jit_gradient.cpp); what still cannot compile (listed there) counts an untraceable call
// while tracing, and the body then runs in Python, statement by statement as MindSpore's JIT
// fallback runs what it cannot compile; everything it calls still takes the graph-mode path (a
// gradient call compiles the function it differentiates into a forward + backward graph,
// graphGradient; Cells it calls are compiled). Decided once per function and kind of call: a null
// result tells the caller to run the body in Python; _jit_stats()["fallbacks"] counts them.
// An op whose output shape depends on its input's values (Unique, MaskedSelect, NonZero) takes the
// same way: MindSpore runs it as a dynamic-shape kernel inside the graph, our graphs have static
// shapes, so the body holding it runs in Python where the op sees real values. Its results are
// PyNative's, which are MindSpore's graph-mode results for these ops.
py::object runCompiled(const py::object& fn, const py::tuple& args, const py::dict& kwargs,
                       const std::string& extraKey)
{
    State& s = state();
    const std::string fallbackKey = identityOf(fn) + "|" + extraKey;
    if (s.inPython.count(fallbackKey))
        return py::object();
    const std::uint64_t tracedBefore = executionContext().untraceableCalls;
    try {
        Entry& e = entryFor(fn, args, kwargs, extraKey, nullptr);
        const TensorList outputs = runEntry(e, compiledInputs(e.compiled, args, kwargs));
        std::size_t next = 0;
        return buildOutput(e.compiled.output, outputs, next);
    } catch (...) {
        if (executionContext().untraceableCalls == tracedBefore)
            throw;
    }
    s.inPython.insert(fallbackKey);
    return py::object();
}

std::string requestKey(const GradRequest& r)
{
    std::string key = "grad";
    for (std::int64_t p : r.positions)
        key += " p" + std::to_string(p);
    for (const Parameter& w : r.weights)
        key += " w" + std::to_string(reinterpret_cast<std::uintptr_t>(w.impl()));
    return key + (r.hasAux ? " aux" : "") + (r.sensParam ? " sens" : "");
}

GradResult differentiateCompiled(const py::object& fn, const py::tuple& args,
                                 const py::dict& kwargs, const Value& sens,
                                 const GradRequest& request, const std::string& api)
{
    Entry& e = entryFor(fn, args, kwargs, requestKey(request), &request);
    TensorList inputs = compiledInputs(e.compiled, args, kwargs);
    if (request.sensParam) {
        const TensorList seeds = checkedSens(sens, e.roots);
        inputs.insert(inputs.end(), seeds.begin(), seeds.end());
    }
    const TensorList outputs = runEntry(e, inputs);
    std::size_t next = 0;
    const TensorList forward(outputs.begin(),
                             outputs.begin() + static_cast<std::ptrdiff_t>(e.forwardOutputs));
    GradResult result;
    result.output = toValue(buildOutput(e.compiled.output, forward, next),
                            "the function given to " + api);
    if (request.hasAux) {
        std::vector<Value> aux;
        for (std::size_t i = 1; i < result.output.size(); ++i)
            aux.push_back(result.output[i]);
        result.aux = Value::tuple(std::move(aux));
    }
    const auto grads = outputs.begin() + static_cast<std::ptrdiff_t>(e.forwardOutputs);
    for (std::size_t i = 0; i < request.positions.size(); ++i) {
        const int slot = e.positionSlots[i];
        const Tensor& arg = *asTensor(args[static_cast<std::size_t>(request.positions[i])]);
        result.inputGrads.push_back(slot >= 0 ? grads[slot] : Tensor::zeros(arg.shape(), arg.dtype()));
    }
    for (std::size_t k = 0; k < request.weights.size(); ++k)
        result.weightGrads.push_back(grads[static_cast<std::ptrdiff_t>(e.weightSlot + k)]);
    return result;
}

py::object originalOf(const py::object& fn)
{
    State& s = state();
    if (!s.originals || !PyInstanceMethod_Check(fn.ptr()))
        return py::object();
    py::object inner = py::reinterpret_borrow<py::object>(PyInstanceMethod_GET_FUNCTION(fn.ptr()));
    return s.originals->contains(inner) ? py::object((*s.originals)[inner]) : py::object();
}

bool compilable(const py::object& fn)
{
    static const py::detail::type_info* cellType = py::detail::get_type_info(typeid(Cell));
    if (PyObject_TypeCheck(fn.ptr(), cellType->type))
        return true;
    py::object target = py::getattr(fn, "__func__", fn);
    return PyFunction_Check(target.ptr());
}

} // namespace

void resetJitForRun()
{
    State& s = state();
    s.cache.clear();
    s.inPython.clear();
    s.compilesPerFunction.clear();
    s.compiles = s.hits = 0;
    s.lastMilliseconds = 0;
}

// Note [Compiled code inside vmap]: while vmap traces its function over logical tensors
// (api/batch_tracer.h), a graph-mode Cell, an @jit function or a graph-mode gradient inside it
// runs as in PyNative, so its ops reach vmap's batching rules; a compiled graph would take the
// logical tensors (which hold no values) as its inputs.
bool graphModeActive()
{
    if (insideVmap())
        return false;
    const ModeOverride mode = currentRun().overrides.mode;
    if (mode != ModeOverride::AsWritten)
        return mode == ModeOverride::Graph;
    return contextMode() == 0;
}

bool jitAllowed() { return currentRun().overrides.mode != ModeOverride::PyNative && !insideVmap(); }

std::size_t jitCompileCount() { return state().compiles; }

bool compilesCell(const py::object& cell)
{
    if (jitCompiling() || !graphModeActive() || executionContext().recording())
        return false;
    // TrainOneStepCell compiles whole (forward, backward, update: Note [Gradients inside compiled
    // code] in jit_gradient.cpp) with the core optimizers (SGD, Momentum, Adam); with an optimizer
    // written in Python (learning-rate schedules read the step as a Python value) it runs as in
    // PyNative. The loss-scale cells (TrainOneStepWithLossScaleCell, the update cells) branch on
    // overflow in Python and run as in PyNative too. So does DistributedGradReducer (made eager
    // when a Cell's tuple argument was traced as a constant; Note [Tensors inside arguments] fixed
    // that, and whether it now compiles across ranks is untested).
    const std::string& name = initializedCell(cell).className();
    if (name.find("LossScale") != std::string::npos || name == "DistributedGradReducer")
        return false;
    if (name.rfind("TrainOneStep", 0) == 0)
        return py::isinstance<Optimizer>(py::getattr(cell, "optimizer", py::none()));
    return true;
}

namespace {

// MindSpore parses construct before compiling it: written without self (construct(*inputs)),
// Python would pass the Cell as the first input, so graph mode refuses it as MindSpore does.
void checkConstructTakesSelf(const py::object& cell, const py::args& args)
{
    const py::object construct = py::getattr(py::type::handle_of(cell), "construct", py::none());
    const py::object code = py::getattr(construct, "__code__", py::none());
    if (!code.is_none() && code.attr("co_argcount").cast<int>() == 0
        && (code.attr("co_flags").cast<int>() & 0x04) != 0) // CO_VARARGS
        throw py::type_error("The function construct needs 0 positional argument and 0 default argument, "
                             "but provided " + std::to_string(args.size()) + ": construct must take self "
                             "first (def construct(self, *inputs)).");
}

// Cell.compile(*inputs): the Cell compiled for these inputs now, as MindSpore's compiles it,
// without running it; the next call with inputs like these finds the graph in the cache. A Cell
// that runs as in PyNative (PyNative mode, the loss-scale cells) has nothing to compile, and one
// whose body cannot compile is marked for the JIT fallback as its first call would mark it.
void compileCellAhead(const py::object& cell, const py::args& args, const py::kwargs& kwargs)
{
    if (!compilesCell(cell))
        return;
    checkConstructTakesSelf(cell, args);
    const std::string mode = initializedCell(cell).training() ? "train" : "eval";
    State& s = state();
    const std::string fallbackKey = identityOf(cell) + "|" + mode;
    if (s.inPython.count(fallbackKey))
        return;
    const std::uint64_t tracedBefore = executionContext().untraceableCalls;
    try {
        entryFor(cell, args, kwargs, mode, nullptr);
    } catch (...) {
        if (executionContext().untraceableCalls == tracedBefore)
            throw;
        s.inPython.insert(fallbackKey);
    }
}

} // namespace

py::object callCellCompiled(const py::object& cell, const py::args& args,
                            const py::kwargs& kwargs)
{
    checkConstructTakesSelf(cell, args);
    const std::string mode = initializedCell(cell).training() ? "train" : "eval";
    return runCompiled(cell, args, kwargs, mode);
}

bool isJitFunction(const py::object& fn) { return static_cast<bool>(originalOf(fn)); }

py::object jitWrapper(const py::object& fn)
{
    py::cpp_function inner(
        [fn](const py::args& args, const py::kwargs& kwargs) -> py::object {
            if (jitCompiling())
                return compileInline(fn, args, kwargs);
            if (!jitAllowed())
                return fn(*args, **kwargs);
            // Run as Python (while a gradient records, or what cannot compile), the body still
            // ignores Cell hooks, as MindSpore's compiled @jit function does.
            CellHooksSuspension noHooks;
            if (executionContext().recording())
                return fn(*args, **kwargs);
            py::object result = runCompiled(fn, args, kwargs, "jit");
            return result ? result : fn(*args, **kwargs);
        },
        py::name(py::str(py::getattr(fn, "__name__", py::str("jit_function"))).cast<std::string>().c_str()));
    State& s = state();
    if (!s.originals)
        s.originals = new py::dict();
    (*s.originals)[inner] = fn;
    return py::reinterpret_steal<py::object>(PyInstanceMethod_New(inner.ptr()));
}

std::unique_ptr<GraphDifferentiatorGuard> graphGradient(const py::object& fn, const py::args& args,
                                                        const py::kwargs& kwargs, bool sensParam,
                                                        const std::string& api)
{
    py::object target = fn;
    const py::object original = originalOf(fn);
    const bool jit = static_cast<bool>(original);
    if (jit)
        target = original;
    if (!(graphModeActive() || (jit && jitAllowed())) || jitCompiling()
        || executionContext().recording() || !compilable(target))
        return nullptr;
    py::list positional(args);
    py::dict keywords(kwargs);
    if (sensParam && keywords.contains("sens"))
        positional.append(keywords.attr("pop")("sens"));
    if (sensParam && !positional.empty())
        positional.attr("pop")();
    const py::tuple callArgs(positional);
    // A @jit function differentiated in PyNative is one op of PyNative's tape, whose inputs are
    // known by their Tensor objects (Note [Inputs by identity]); GRAPH_MODE's are by position.
    const bool byIdentity = !graphModeActive();
    return std::make_unique<GraphDifferentiatorGuard>(
        [target, callArgs, keywords, api, byIdentity](const std::vector<Value>& args, const Value& sens,
                                                      const GradRequest& request) {
            const auto engine = [&](const GradRequest& r) {
                return differentiateCompiled(target, callArgs, keywords, sens, r, api);
            };
            return byIdentity ? differentiateByIdentity(args, request, engine) : engine(request);
        });
}

void bindValueDependentShape(py::module_& m)
{
    m.def(
        "_value_dependent_shape",
        [](const std::string& op, const Tensor& input) {
            ExecutionContext& ctx = executionContext();
            if (!ctx.tracer || !isSymbolic(input))
                return;
            ++ctx.untraceableCalls;
            throw py::type_error("For '" + op + "', the output shape depends on the input's values, "
                                 "which are not known while the function is compiled for graph mode");
        },
        py::arg("op"), py::arg("input"),
        "gradstep: an op whose output shape depends on input's values; while tracing, the body runs "
        "in Python.");
}

// The package's random functions draw with NumPy, which a trace would freeze into a constant: the
// compiled function would return the same numbers on every call, unlike MindSpore's kernels. A
// body drawing them runs in Python instead (core ops such as Dropout stay compiled, Note [Random
// ops in compiled graphs]).
void bindRandomDraw(py::module_& m)
{
    m.def(
        "_random_draw",
        [](const std::string& op) {
            ExecutionContext& ctx = executionContext();
            if (!ctx.tracer)
                return;
            ++ctx.untraceableCalls;
            throw py::type_error("For '" + op + "', random numbers are drawn on every call, which a "
                                 "function compiled for graph mode cannot do here");
        },
        py::arg("op"), "gradstep: a random draw of the package; while tracing, the body runs in Python.");
}

void bindJitStats(py::module_& m)
{
    m.def("_jit_compile_cell", &compileCellAhead, py::arg("cell"),
          "gradstep: Cell.compile(*inputs), the graph compiled now for these inputs.");
    m.def(
        "_jit_stats",
        [] {
            const State& s = state();
            py::dict out;
            out["compiles"] = s.compiles;
            out["cache_hits"] = s.hits;
            out["last_compile_ms"] = s.lastMilliseconds;
            out["fallbacks"] = s.inPython.size();
            return out;
        },
        "gradstep: graph-mode compiles and cache hits since the run started.");
}

} // namespace gradstep::python
