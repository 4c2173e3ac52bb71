// Reading the user's source for graph mode (jit_walker.h): which functions are compiled, and
// their definitions as Python ASTs with the file's lines and columns.
// SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

namespace gradstep::python {

namespace {
py::module_ module(const char* name) { return py::module_::import(name); }
} // namespace

bool isUserFunction(const py::handle& fn)
{
    py::object code = py::getattr(fn, "__code__", py::none());
    if (code.is_none())
        return false;
    const std::string file = py::str(code.attr("co_filename"));
    if (file.empty() || file.front() == '<')
        return false;
    py::module_ sys = module("sys");
    for (const char* prefix : {"prefix", "base_prefix", "exec_prefix"}) {
        const std::string root = py::str(sys.attr(prefix));
        if (!root.empty() && file.rfind(root, 0) == 0)
            return false;
    }
    return file.find("-packages/") == std::string::npos;
}

namespace {
// Every call f(a) becomes __jit_call__(f, a), so the compiler sees each call of the function's
// own code (zero-argument super() keeps its form: it needs the caller's frame); d.has_key(k)
// becomes __jit_call__(__jit_has_key__(d), k) (mindspore/common/_jit_sequences.py).
void routeCalls(const py::object& tree)
{
    py::module_ ast = module("ast");
    py::list calls;
    for (py::handle node : ast.attr("walk")(tree))
        if (py::isinstance(node, ast.attr("Call")))
            calls.append(node);
    for (py::handle call : calls) {
        py::object fn = call.attr("func");
        if (py::isinstance(fn, ast.attr("Name")) && std::string(py::str(fn.attr("id"))) == "super")
            continue;
        // d.has_key(k): a dict method of MindSpore's graph syntax, which Python's dict lacks.
        if (py::isinstance(fn, ast.attr("Attribute")) && std::string(py::str(fn.attr("attr"))) == "has_key") {
            py::list target;
            target.append(fn.attr("value"));
            fn = ast.attr("copy_location")(
                ast.attr("Call")(ast.attr("Name")("__jit_has_key__", ast.attr("Load")()), target, py::list()), fn);
        }
        py::list args;
        args.append(fn);
        for (py::handle a : call.attr("args"))
            args.append(a);
        call.attr("args") = args;
        py::object hook = ast.attr("Name")("__jit_call__", ast.attr("Load")());
        call.attr("func") = ast.attr("copy_location")(hook, fn);
    }
}
} // namespace

// The function's definition as an `ast.FunctionDef` with the lines and columns of the file.
py::object parseFunction(const py::object& fn, py::object& file)
{
    py::module_ inspect = module("inspect");
    py::tuple lines = inspect.attr("getsourcelines")(fn);
    const py::list text = lines[0];
    std::string source;
    for (py::handle line : text)
        source += py::str(line).cast<std::string>();
    const std::string first = py::str(text[0]);
    const auto indent = static_cast<int>(first.find_first_not_of(" \t"));
    py::module_ ast = module("ast");
    py::object tree = ast.attr("parse")(module("textwrap").attr("dedent")(source));
    ast.attr("increment_lineno")(tree, lines[1].cast<int>() - 1);
    for (py::handle node : ast.attr("walk")(tree)) {
        for (const char* attr : {"col_offset", "end_col_offset"}) {
            py::object col = py::getattr(node, attr, py::none());
            if (PyLong_Check(col.ptr()))
                node.attr(attr) = col.cast<int>() + indent;
        }
    }
    py::object definition = tree.attr("body")[py::int_(0)];
    if (!py::isinstance(definition, ast.attr("FunctionDef")))
        return py::none(); // a lambda: its source is the whole statement around it
    routeCalls(definition);
    ast.attr("fix_missing_locations")(definition);
    file = fn.attr("__code__").attr("co_filename");
    return definition;
}

} // namespace gradstep::python
