// Compiling a whole function (jit_compiler.h): symbolic arguments in, the graph's outputs and the
// Python structure around them out, and errors located in the user's source.
// SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

#include "python/bind/convert.h"

#include <chrono>

namespace gradstep::python {

OutputTree outputTreeOf(const py::handle& result, std::vector<Tensor>& leaves)
{
    OutputTree tree;
    if (const Tensor* t = asTensor(result)) {
        leaves.push_back(*t);
        return tree;
    }
    const bool tuple = PyTuple_Check(result.ptr()), list = PyList_Check(result.ptr());
    if (tuple || list) {
        tree.kind = tuple ? OutputTree::Kind::Tuple : OutputTree::Kind::List;
        for (py::handle item : result)
            tree.items.push_back(outputTreeOf(item, leaves));
        return tree;
    }
    tree.kind = OutputTree::Kind::Constant;
    tree.constant = py::reinterpret_borrow<py::object>(result);
    return tree;
}

py::object buildOutput(const OutputTree& tree, const TensorList& values, std::size_t& next)
{
    switch (tree.kind) {
    case OutputTree::Kind::Tensor:
        return py::cast(values[next++]);
    case OutputTree::Kind::Constant:
        return tree.constant;
    default: {
        py::list items;
        for (const OutputTree& item : tree.items)
            items.append(buildOutput(item, values, next));
        return tree.kind == OutputTree::Kind::Tuple ? py::object(py::tuple(items)) : items;
    }
    }
}

void annotateLocation(py::error_already_set& error, const py::handle& file, int line, int column,
                      int endLine, int endColumn)
{
    py::object value = error.value();
    if (!value || py::hasattr(value, "_gradstep_location"))
        return;
    try {
        value.attr("_gradstep_location") = py::make_tuple(file, line, column, endLine, endColumn);
    } catch (py::error_already_set&) { // an exception type without a __dict__
    }
}

CompiledFunction compileFunction(const py::object& fn, const py::tuple& args,
                                 const py::dict& kwargs, const std::string& name)
{
    const auto start = std::chrono::steady_clock::now();
    CompiledFunction out;
    Graph graph(name);
    {
        Compiler compiler(graph);
        py::tuple symbolic(args.size());
        for (std::size_t i = 0; i < args.size(); ++i) {
            const Tensor* t = asTensor(args[i]);
            if (!t) {
                symbolic[i] = args[i];
                out.argumentInputs.push_back(kNoId);
                continue;
            }
            if (t->isDynamicPlaceholder())
                throw py::value_error("For '" + name + "', argument " + std::to_string(i)
                                      + " is a dynamic-shape placeholder (Tensor(shape=..., dtype=...) with "
                                        "None dimensions): it has no values; call the function with real tensors.");
            const ValueId id = graph.addInput("arg" + std::to_string(i), {t->shape(), t->dtype()});
            out.argumentInputs.push_back(id);
            symbolic[i] = py::cast(compiler.tracer().bind(id));
        }
        py::object result = compiler.call(fn, symbolic, kwargs);
        std::vector<Tensor> leaves;
        out.output = outputTreeOf(result, leaves);
        std::vector<ValueId> outputs;
        for (const Tensor& leaf : leaves)
            outputs.push_back(compiler.tracer().valueOf(leaf));
        compiler.appendStateOutputs(outputs, out.written, out.effects);
        graph.setOutputs(std::move(outputs));
        out.parameters = compiler.parameters();
    }
    out.graph = std::move(graph);
    out.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    return out;
}

} // namespace gradstep::python
