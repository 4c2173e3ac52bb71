// Graph mode's front end: functions and statements (jit_compiler.h Note [Compiling Python
// source]). Control flow is in jit_control_flow.cpp and jit_loop.cpp, reading the user's source
// in jit_source.cpp, compiling a whole function in jit_function.cpp. SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "autodiff/context.h"
#include "autodiff/node.h"
#include "nn/cell_hooks_suspension.h"

namespace gradstep::python {

namespace {

thread_local Compiler* t_compiler = nullptr;

constexpr int kMaxInlineDepth = 64;

py::module_ module(const char* name) { return py::module_::import(name); }

std::string nodeType(const py::handle& node)
{
    return py::str(py::type::handle_of(node).attr("__name__"));
}


void storedNames(const py::handle& node, std::vector<std::string>& names)
{
    py::module_ ast = module("ast");
    for (py::handle n : ast.attr("walk")(node))
        if (py::isinstance(n, ast.attr("Name")) && py::isinstance(n.attr("ctx"), ast.attr("Store")))
            names.push_back(py::str(n.attr("id")));
}

bool contains(const py::handle& haystack, const py::handle& needle)
{
    for (py::handle item : haystack)
        if (item.is(needle))
            return true;
    return false;
}

} // namespace

Compiler* currentCompiler() { return t_compiler; }
bool jitCompiling() { return t_compiler != nullptr; }

bool isParameterTensor(const Tensor& t)
{
    return !isSymbolic(t) && t.impl()->gradFn && t.impl()->gradFn->isLeaf();
}

bool isSymbolicObject(const py::handle& object)
{
    const Tensor* t = asTensor(object);
    return t && isSymbolic(*t);
}

Compiler::Compiler(Graph& graph)
    : m_tracer(graph), m_savedWriter(executionContext().stateWriter),
      m_gradients([this](const Function& fn, const std::vector<Value>& args, const Value& sens,
                         const GradRequest& request) {
          return inlineGradient(fn, args, sens, request);
      }),
      m_saved(t_compiler)
{
    m_builders.push_back({&graph, &m_tracer, &m_writes});
    m_tracer.setResolver([this](const Tensor& t) -> std::optional<ValueId> {
        if (!isParameterTensor(t))
            return std::nullopt;
        Graph& main = *m_builders.front().graph;
        m_parameters.push_back(t);
        return main.addInput(t.impl()->gradFn->name, {t.shape(), t.dtype()}, ValueKind::Parameter);
    });
    m_hook = py::cpp_function(
        [this](const py::args& all, const py::kwargs& kwargs) {
            py::tuple rest(all.size() - 1);
            for (std::size_t i = 1; i < all.size(); ++i)
                rest[i - 1] = all[i];
            return call(all[0], rest, kwargs);
        },
        py::name("__jit_call__"));
    ExecutionContext& ctx = executionContext();
    m_savedProvider = std::move(ctx.locationProvider);
    ctx.locationProvider = [this] { return m_location; };
    ctx.stateWriter = this;
    t_compiler = this;
    suspendCellHooks(); // graph mode ignores Cell hooks (cell_hooks_suspension.h)
}

Compiler::~Compiler()
{
    ExecutionContext& ctx = executionContext();
    ctx.locationProvider = std::move(m_savedProvider);
    ctx.stateWriter = m_savedWriter;
    t_compiler = m_saved;
    resumeCellHooks();
}

// Note [print in graph mode]
// MindSpore compiles print(...) in construct into a Print op that prints every time the graph
// runs, each argument on its own line and tensors as Tensor(shape=..., dtype=..., value=...),
// as ops.Print does. Here a print with tensors is a RunEffect (Note [Side effects in compiled
// code] in jit_state.cpp): the tensors it names become extra graph outputs and the print runs
// after each run with their values; its other arguments are the values they had when the
// function compiled, as MindSpore folds them into constants. Inside a tensor-dependent if or
// while the value has no run of its own, and a print with keywords (sep=, end=) is not the
// Print op: both leave the body to Python (the JIT fallback), where print sees real values.
py::object Compiler::compilePrint(const py::tuple& args, const py::dict& kwargs)
{
    if (!kwargs.empty() || m_builders.size() > 1) {
        ++executionContext().untraceableCalls;
        throw py::type_error("print of a tensor's value " + std::string(kwargs.empty() ? "inside an if or while "
                             "on a tensor" : "with keyword arguments") + " cannot be compiled for graph mode");
    }
    TensorList traced;
    std::vector<std::pair<std::ptrdiff_t, py::object>> items; // tensor slot, or -1 and the value
    for (py::handle a : args) {
        if (const Tensor* t = asTensor(a)) {
            items.emplace_back(static_cast<std::ptrdiff_t>(traced.size()), py::none());
            traced.push_back(*t);
        } else {
            items.emplace_back(-1, py::reinterpret_borrow<py::object>(a));
        }
    }
    auto shared = std::make_shared<std::vector<std::pair<std::ptrdiff_t, py::object>>>(std::move(items));
    everyRun([] {},
             [shared](const TensorList& values) {
                 py::gil_scoped_acquire gil;
                 py::object print = module("builtins").attr("print");
                 for (const auto& [slot, value] : *shared)
                     print(slot >= 0 ? py::repr(py::cast(values[static_cast<std::size_t>(slot)])) : py::str(value));
             },
             traced, EffectTime::AfterRun);
    return py::none();
}

void Compiler::checkSideEffects(const py::object& fn)
{
    py::object owner = py::getattr(fn, "__self__", py::none());
    if (!PyList_Check(owner.ptr()) || m_frames.empty())
        return;
    const std::string method = py::str(fn.attr("__name__"));
    static const char* const kMutators[] = {"append", "extend", "insert", "pop",
                                            "remove", "clear", "sort", "reverse"};
    if (std::find(std::begin(kMutators), std::end(kMutators), method) == std::end(kMutators))
        return;
    const Frame& frame = *m_frames.back();
    bool outside = contains(frame.globals.attr("values")(), owner)
                   || contains(frame.arguments, owner);
    for (py::handle a : frame.arguments)
        outside = outside || (py::hasattr(a, "__dict__") && contains(a.attr("__dict__").attr("values")(), owner));
    if (outside)
        throw py::type_error(
            "list." + method + " on a list that lives outside the compiled function cannot be "
            "kept in graph mode: the graph runs without Python, so the list would never change. "
            "Return the values (a tuple) and collect them in the caller, or build a new local "
            "tuple (xs = xs + (value,)).");
}

py::object Compiler::call(const py::object& fn, const py::tuple& args, const py::dict& kwargs)
{
    if (fn.is(module("builtins").attr("print")))
        for (py::handle a : args)
            if (asTensor(a))
                return compilePrint(args, kwargs);
    checkSideEffects(fn);
    // An instance of a jit_class without __call__ called in graph mode: MindSpore's words.
    if (!PyCallable_Check(fn.ptr()) && py::hasattr(fn, "__ms_class__"))
        throw py::value_error("MsClassObject: '" + std::string(py::str(py::type::handle_of(fn).attr("__name__")))
                              + "' has no __call__ function, please check the code.");
    // seq.count(tensor): the tensor's value is known only when the graph runs, so the count is a
    // tensor too (MindSpore's SequenceCount); Python's own count would ask each == for a bool.
    const py::object owner = py::getattr(fn, "__self__", py::none());
    const std::string method = py::str(py::getattr(fn, "__name__", py::str("")));
    if ((PyList_Check(owner.ptr()) || PyTuple_Check(owner.ptr())) && args.size() == 1 && asTensor(args[0])
        && method == "count")
        return module("mindspore.common._jit_sequences").attr("sequence_count")(owner, args[0]);
    // A dict's keys() and values() are tuples and items() a list in graph mode, taken when called
    // (MindSpore's static graph syntax), not views that follow later updates.
    if (PyDict_Check(owner.ptr()) && args.empty() && kwargs.empty()) {
        if (method == "keys" || method == "values")
            return py::tuple(fn());
        if (method == "items")
            return py::list(fn());
    }
    static const py::detail::type_info* cellType = py::detail::get_type_info(typeid(Cell));
    if (PyObject_TypeCheck(fn.ptr(), cellType->type)) {
        if (initializedCell(fn).hasBprop())
            return compileBpropCell(fn, args, kwargs);
        return fn(*args, **kwargs);
    }
    py::object target = py::getattr(fn, "__func__", fn);
    if (!isUserFunction(target))
        return fn(*args, **kwargs);
    return compileSource(fn, args, kwargs);
}

py::object Compiler::compileSource(const py::object& fn, const py::tuple& args,
                                   const py::dict& kwargs)
{
    py::object target = fn;
    py::list callArgs;
    if (py::hasattr(fn, "__func__") && py::hasattr(fn, "__self__")) {
        target = fn.attr("__func__");
        callArgs.append(fn.attr("__self__"));
    }
    for (py::handle a : args)
        callArgs.append(a);
    py::object file;
    py::object definition;
    try {
        definition = parseFunction(target, file);
    } catch (py::error_already_set&) {
        definition = py::none();
    }
    if (definition.is_none()) // no source of its own (a lambda, exec'd code): traced as it runs
        return fn(*args, **kwargs);
    if (++m_depth > kMaxInlineDepth) {
        --m_depth;
        throw py::value_error("graph mode inlines every call: calls nest deeper than "
                              + std::to_string(kMaxInlineDepth) + " (recursion?)");
    }
    Frame frame;
    frame.globals = target.attr("__globals__");
    frame.file = file;
    frame.arguments = callArgs;
    py::object closure = target.attr("__closure__");
    if (!closure.is_none()) {
        py::tuple names = target.attr("__code__").attr("co_freevars");
        for (std::size_t i = 0; i < names.size(); ++i) {
            try {
                frame.env[names[i]] = closure[py::int_(i)].attr("cell_contents");
            } catch (py::error_already_set&) { // an unbound cell: a name defined later
            }
        }
    }
    py::object bound = module("inspect").attr("signature")(target).attr("bind")(
        *py::tuple(callArgs), **kwargs);
    bound.attr("apply_defaults")();
    for (auto item : py::dict(bound.attr("arguments")))
        frame.env[item.first] = item.second;
    m_frames.push_back(&frame);
    struct Pop {
        Compiler& c;
        ~Pop()
        {
            c.m_frames.pop_back();
            --c.m_depth;
        }
    } pop{*this};
    walkBlock(frame, definition.attr("body"));
    return frame.returned;
}

void Compiler::setLocation(const Frame& frame, const py::handle& node)
{
    auto file = std::make_shared<const std::string>(py::str(frame.file).cast<std::string>());
    m_file = frame.file;
    m_location = SourceLocation{file, node.attr("lineno").cast<int>(),
                                node.attr("col_offset").cast<int>() + 1};
    m_endLine = node.attr("end_lineno").cast<int>();
    m_endColumn = node.attr("end_col_offset").cast<int>() + 1;
}

void Compiler::locate(py::error_already_set& error) const
{
    if (m_file)
        annotateLocation(error, m_file, m_location.line, m_location.column, m_endLine,
                         m_endColumn);
}

NodeIdentity Compiler::identityHere() const
{
    NodeIdentity identity;
    const ExecutionContext& ctx = executionContext();
    if (ctx.scope)
        identity.scope = *ctx.scope;
    identity.location = m_location;
    return identity;
}

Flow Compiler::walkBlock(Frame& frame, const py::list& statements, std::size_t from)
{
    for (std::size_t i = from; i < statements.size(); ++i) {
        const py::handle node = statements[i];
        setLocation(frame, node);
        Flow flow = Flow::Normal;
        try {
            flow = statement(frame, node, statements, i);
        } catch (py::error_already_set& error) {
            locate(error);
            throw;
        } catch (py::builtin_exception& error) {
            // The compiler's own diagnostics (py::type_error, ...): located here too.
            error.set_error();
            py::error_already_set pending;
            locate(pending);
            throw pending;
        } catch (const Error& error) {
            // Core errors (a failed join, a bad loop) become the Python errors bind_errors.cpp
            // would make, located here.
            PyObject* type = dynamic_cast<const TypeError*>(&error)   ? PyExc_TypeError
                             : dynamic_cast<const DTypeError*>(&error) ? PyExc_TypeError
                             : dynamic_cast<const ValueError*>(&error) ? PyExc_ValueError
                             : dynamic_cast<const ShapeError*>(&error) ? PyExc_ValueError
                                                                        : PyExc_RuntimeError;
            PyErr_SetString(type, error.what());
            py::error_already_set pending;
            locate(pending);
            throw pending;
        }
        if (flow != Flow::Normal)
            return flow;
    }
    return Flow::Normal;
}

// Note [Cell attributes written in compiled code]
// `self.p = <tensor>` in a compiled construct, where p is not a Parameter: MindSpore 2.2 runs the
// store (and later reads of p) through the Python interpreter (JIT fallback's PyExecute), whose
// result has no gradient; its test_grad_of_pyexecute_with_more_than_three_inputs expects grad 0
// for `self.p = self.p + x; return self.p`. So the stored value is cut from the graph here; the
// expression itself keeps its gradient where it is used directly. Parameter stores (assign
// semantics) take the ordinary path.
bool Compiler::storeToCellAttribute(Frame& frame, const py::handle& node)
{
    const py::list targets = node.attr("targets");
    if (targets.size() != 1 || nodeType(targets[0]) != "Attribute")
        return false;
    const py::handle target = targets[0];
    const py::object owner = evaluate(frame, target.attr("value"));
    static const py::detail::type_info* cellType = py::detail::get_type_info(typeid(Cell));
    if (!PyObject_TypeCheck(owner.ptr(), cellType->type))
        return false;
    const py::str name = target.attr("attr");
    if (py::isinstance<Parameter>(py::getattr(owner, name, py::none())))
        return false;
    py::object value = evaluate(frame, node.attr("value"));
    if (isSymbolicObject(value))
        value = module("mindspore").attr("ops").attr("stop_gradient")(value);
    py::setattr(owner, name, value);
    return true;
}

Flow Compiler::statement(Frame& frame, const py::handle& node, const py::list& statements,
                         std::size_t index)
{
    const std::string type = nodeType(node);
    if (type == "Return") {
        py::object value = node.attr("value");
        frame.returned = value.is_none() ? py::none() : evaluate(frame, value);
        return Flow::Return;
    }
    if (type == "Assign" && storeToCellAttribute(frame, node))
        return Flow::Normal;
    if (type == "If")
        return compileIf(frame, node, statements, index);
    if (type == "For")
        return compileFor(frame, node);
    if (type == "While")
        return compileWhile(frame, node);
    if (type == "Break")
        return Flow::Break;
    if (type == "Continue")
        return Flow::Continue;
    if (type == "Pass")
        return Flow::Normal;
    if (type == "Assert") {
        py::object test = evaluate(frame, node.attr("test"));
        if (isSymbolicObject(test))
            throw py::type_error("assert on a tensor's value cannot run in graph mode (the value "
                                 "is not known while compiling); check it outside the compiled "
                                 "function or run in PyNative mode");
        execute(frame, node);
        return Flow::Normal;
    }
    static const char* const kPlain[] = {"Expr",   "Assign", "AugAssign",  "AnnAssign",
                                         "Delete", "Raise",  "FunctionDef", "Import",
                                         "ImportFrom"};
    if (std::find(std::begin(kPlain), std::end(kPlain), type) == std::end(kPlain))
        throw py::type_error("graph mode does not support the '" + type
                             + "' statement; move it out of the compiled function or run in "
                               "PyNative mode");
    execute(frame, node);
    return Flow::Normal;
}

py::dict Compiler::namespaceOf(const Frame& frame)
{
    py::dict ns = frame.globals.attr("copy")();
    ns.attr("update")(frame.env);
    ns["__jit_call__"] = m_hook;
    ns["__jit_has_key__"] = module("mindspore.common._jit_sequences").attr("has_key_of");
    return ns;
}

void Compiler::execute(Frame& frame, const py::handle& node)
{
    py::module_ ast = module("ast");
    py::list body;
    body.append(node);
    py::object tree = ast.attr("Module")(body, py::list());
    py::object code = module("builtins").attr("compile")(tree, frame.file, "exec");
    py::dict ns = namespaceOf(frame);
    module("builtins").attr("exec")(code, ns);
    std::vector<std::string> names;
    storedNames(node, names);
    for (const std::string& name : names)
        if (ns.contains(name))
            frame.env[py::str(name)] = ns[py::str(name)];
    if (nodeType(node) == "FunctionDef")
        frame.env[node.attr("name")] = ns[node.attr("name")];
}

py::object Compiler::evaluate(Frame& frame, const py::handle& expression)
{
    py::module_ ast = module("ast");
    py::object tree = ast.attr("Expression")(expression);
    py::object code = module("builtins").attr("compile")(tree, frame.file, "eval");
    return module("builtins").attr("eval")(code, namespaceOf(frame));
}

void Compiler::assign(Frame& frame, const py::handle& target, const py::object& value)
{
    py::module_ ast = module("ast");
    py::list targets;
    targets.append(target);
    py::object item = ast.attr("Name")("__jit_item__", ast.attr("Load")());
    py::object node = ast.attr("Assign")(targets, item);
    ast.attr("copy_location")(node, target);
    ast.attr("fix_missing_locations")(node);
    py::list body;
    body.append(node);
    py::object code = module("builtins").attr("compile")(ast.attr("Module")(body, py::list()),
                                                         frame.file, "exec");
    py::dict ns = namespaceOf(frame);
    ns["__jit_item__"] = value;
    module("builtins").attr("exec")(code, ns);
    std::vector<std::string> names;
    storedNames(target, names);
    for (const std::string& name : names)
        frame.env[py::str(name)] = ns[py::str(name)];
}

py::object compileCall(const py::object& fn, const py::tuple& args, const py::dict& kwargs)
{
    return t_compiler->call(fn, args, kwargs);
}

py::object compileInline(const py::object& fn, const py::tuple& args, const py::dict& kwargs)
{
    return t_compiler->compileSource(fn, args, kwargs);
}

} // namespace gradstep::python
