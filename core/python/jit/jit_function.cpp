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

// Note [Tensors inside arguments]
// A tensor reaches a compiled function as a positional argument, inside a tuple or list argument
// (a Cell taking a tuple of gradients, DistributedGradReducer's pattern), or as a keyword
// argument. Each is a graph input: were it traced as a constant, every later call of the cached
// graph would compute with the first call's values. The cache key holds the arguments' structure
// and specs (signatureOf), so a call with another nesting compiles again; `leaves` says where each
// input sits, and compiledInputs fetches them in that order on every call.
namespace {

struct ArgumentBinder {
    Graph& graph;
    Compiler& compiler;
    CompiledFunction& out;
    const std::string& name;

    /// label: the graph input's name ("arg0[1]", a keyword's name); said: how errors name it.
    py::object bind(py::handle value, ArgumentLeaf& leaf, const std::string& label, const std::string& said)
    {
        if (const Tensor* t = asTensor(value)) {
            if (t->isDynamicPlaceholder())
                throw py::value_error("For '" + name + "', " + said
                                      + " is a dynamic-shape placeholder (Tensor(shape=..., dtype=...) with "
                                        "None dimensions): it has no values; call the function with real tensors.");
            const ValueId id = graph.addInput(label, {t->shape(), t->dtype()});
            out.leaves.push_back(leaf);
            lastId = id;
            return py::cast(compiler.tracer().bind(id));
        }
        const bool tuple = PyTuple_Check(value.ptr()) != 0;
        if (!tuple && !PyList_Check(value.ptr()))
            return py::reinterpret_borrow<py::object>(value);
        py::list items;
        std::size_t k = 0;
        for (py::handle item : value) {
            leaf.path.push_back(k);
            const std::string index = "[" + std::to_string(k) + "]";
            items.append(bind(item, leaf, label + index, said + index));
            leaf.path.pop_back();
            ++k;
        }
        return tuple ? py::object(py::tuple(items)) : py::object(items);
    }

    ValueId lastId = kNoId;
};

py::object leafValue(const ArgumentLeaf& leaf, const py::tuple& args, const py::dict& kwargs)
{
    py::object value = leaf.keyword.empty() ? py::object(args[leaf.argument])
                                            : py::object(kwargs[py::str(leaf.keyword)]);
    for (std::size_t k : leaf.path)
        value = py::reinterpret_borrow<py::sequence>(value)[k];
    return value;
}

} // namespace

TensorList compiledInputs(const CompiledFunction& c, const py::tuple& args, const py::dict& kwargs)
{
    TensorList inputs;
    inputs.reserve(c.leaves.size() + c.parameters.size());
    for (const ArgumentLeaf& leaf : c.leaves)
        inputs.push_back(*asTensor(leafValue(leaf, args, kwargs)));
    inputs.insert(inputs.end(), c.parameters.begin(), c.parameters.end());
    return inputs;
}

CompiledFunction compileFunction(const py::object& fn, const py::tuple& args,
                                 const py::dict& kwargs, const std::string& name)
{
    const auto start = std::chrono::steady_clock::now();
    CompiledFunction out;
    Graph graph(name);
    {
        Compiler compiler(graph);
        ArgumentBinder binder{graph, compiler, out, name};
        py::tuple symbolic(args.size());
        for (std::size_t i = 0; i < args.size(); ++i) {
            ArgumentLeaf leaf;
            leaf.argument = i;
            binder.lastId = kNoId;
            symbolic[i] = binder.bind(args[i], leaf, "arg" + std::to_string(i), "argument " + std::to_string(i));
            // Gradient positions name top-level tensor arguments only.
            out.argumentInputs.push_back(asTensor(args[i]) ? binder.lastId : kNoId);
        }
        py::dict symbolicKwargs;
        for (auto item : kwargs) {
            ArgumentLeaf leaf;
            leaf.keyword = py::str(item.first).cast<std::string>();
            symbolicKwargs[item.first] = binder.bind(item.second, leaf, leaf.keyword, "argument '" + leaf.keyword + "'");
        }
        py::object result = compiler.call(fn, symbolic, symbolicKwargs);
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
