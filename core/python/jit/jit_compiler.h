// Graph mode's front end: a Python function (or a Cell's construct) is compiled from its source,
// as MindSpore parses it, into the IR of core/graph. Note [Compiling Python source]: the walker
// reads `ast` objects of the function's source and handles what decides the graph's shape
// itself: variables, constant conditions (evaluated now), `for` over constants (unrolled), `if`
// and `while` on tensor values (If / While nodes with subgraphs), returns and tuples. Each
// expression is evaluated by Python with every call routed through the compiler (calls of
// Python functions and Cells are compiled the same way, inlined in their scope) and with a
// GraphTracer installed, so every op call becomes a node through the op's own code: one source
// of truth with PyNative. Parameters met on the way become graph inputs; other tensors
// constants. Errors carry the user's location (annotateLocation) and print as FILE:LINE:COL.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/context.h"
#include "graph/graph.h"

#include <pybind11/pybind11.h>

#include <functional>
#include <string>
#include <vector>

namespace gradstep::python {

/// How the flat graph outputs nest into the Python result.
struct OutputTree {
    enum class Kind { Tensor, Tuple, List, Constant };
    Kind kind = Kind::Tensor;
    std::vector<OutputTree> items;
    pybind11::object constant; ///< Constant: the Python value (None, numbers, strings)
};

/// How many tensors the tree holds.
inline std::size_t leafCount(const OutputTree& tree)
{
    if (tree.kind == OutputTree::Kind::Tensor)
        return 1;
    std::size_t n = 0;
    for (const OutputTree& item : tree.items)
        n += leafCount(item);
    return n;
}

/// What runs around every run of a compiled graph (StateWriter::everyRun, Note [Side effects
/// in compiled code] in jit_state.cpp): `before`, the run, and `after` with `count` values of
/// the effects' outputs from `firstOutput` on, at `time`.
struct RunEffect {
    std::function<void()> before;
    std::function<void(const TensorList&)> after;
    std::size_t firstOutput = 0;
    std::size_t count = 0;
    EffectTime time = EffectTime::AfterRun;
};

/// Where a tensor graph input comes from in a call's arguments: positional argument `argument`
/// (or the keyword `keyword`), then `path` through the tuples and lists nesting it.
struct ArgumentLeaf {
    std::size_t argument = 0;
    std::string keyword; ///< empty: a positional argument
    std::vector<std::size_t> path;
};

struct CompiledFunction {
    /// inputs: the tensor arguments (also those inside tuple and list arguments, and keyword
    /// ones: `leaves`), then the Parameters. outputs: the result's leaves, then the
    /// last value of each written state tensor, then the values the effects read.
    Graph graph;
    std::vector<Tensor> parameters; ///< one per Parameter input, in input order
    /// For each positional argument: the graph input holding it, or kNoId (not a Tensor).
    std::vector<ValueId> argumentInputs;
    /// Every argument tensor that is a graph input, in input order (Note [Tensors inside
    /// arguments] in jit_function.cpp).
    std::vector<ArgumentLeaf> leaves;
    OutputTree output;
    std::vector<Tensor> written; ///< the state each run writes back, in output order
    std::vector<RunEffect> effects;
    double milliseconds = 0;
};

/// Compiles fn called with args and kwargs: Tensor arguments, also inside tuples and lists and as
/// keywords, become graph inputs; anything else is a compile-time constant. fn: a Python function or method, a Cell, or any
/// callable (whose op calls are then traced as they run).
CompiledFunction compileFunction(const pybind11::object& fn, const pybind11::tuple& args,
                                 const pybind11::dict& kwargs, const std::string& name);
/// The tensors of a call's arguments that a compiled function takes as inputs, in input order,
/// then its Parameters.
TensorList compiledInputs(const CompiledFunction& c, const pybind11::tuple& args, const pybind11::dict& kwargs);

/// True while a graph is being compiled on this thread.
bool jitCompiling();

/// While alive, the next gradient call inlined into the graph being compiled on this thread
/// leaves out the Parameter writes of the function it differentiates: it is the pullback of a
/// forward already traced (ops.vjp's vjp_fn; Note [Gradients inside compiled code]).
class PullbackOnlyGuard {
public:
    PullbackOnlyGuard();
    ~PullbackOnlyGuard();
    PullbackOnlyGuard(const PullbackOnlyGuard&) = delete;
    PullbackOnlyGuard& operator=(const PullbackOnlyGuard&) = delete;

private:
    bool m_saved;
};

/// While compiling: fn's source compiled into the graph being built (a Cell's construct is
/// inlined this way under the scope its caller set); returns its Python result.
pybind11::object compileInline(const pybind11::object& fn, const pybind11::tuple& args,
                               const pybind11::dict& kwargs);

/// While compiling: fn(*args, **kwargs) as a call inside the compiled code (Python functions
/// compiled from source, Cells inlined).
pybind11::object compileCall(const pybind11::object& fn, const pybind11::tuple& args,
                             const pybind11::dict& kwargs);

/// The flat tensors of a Python result, in OutputTree order.
OutputTree outputTreeOf(const pybind11::handle& result, std::vector<Tensor>& leaves);
/// Rebuilds the Python result from the flat outputs.
pybind11::object buildOutput(const OutputTree& tree, const TensorList& values, std::size_t& next);

/// Gives the pending Python exception `error` the location FILE:LINE:COL of a node of the user's
/// source (unless it has one already), which diagnostics print as the error's place.
void annotateLocation(pybind11::error_already_set& error, const pybind11::handle& file, int line,
                      int column, int endLine, int endColumn);

} // namespace gradstep::python
