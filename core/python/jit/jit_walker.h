// The compiler's state (jit_compiler.h Note [Compiling Python source]), shared by the statement
// walker (jit_compiler.cpp), the control flow (jit_control_flow.cpp, jit_loop.cpp), the source
// reader (jit_source.cpp) and the whole-function driver (jit_function.cpp). Internal to them.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/jit/jit_compiler.h"

#include "api/grad.h"
#include "graph/tracer.h"
#include "python/host/line_trace.h"

#include <functional>
#include <memory>

namespace gradstep::python {

namespace py = pybind11;

/// One function being compiled: its variables and where its source is.
struct Frame {
    py::dict env;       ///< local variables (closure cells first, then the arguments)
    py::dict globals;   ///< the function's module globals
    py::object file;    ///< the source file (str)
    py::list arguments; ///< the values the function was called with (self first for methods)
    py::object returned = py::none();
};

enum class Flow { Normal, Return, Break, Continue };

/// Whether fn is the user's code, compiled from source: library code (NumPy, the standard
/// library, installed packages) runs as it is.
bool isUserFunction(const py::handle& fn);
/// fn's definition as an `ast.FunctionDef` with the lines and columns of its file (stored in
/// `file`), every call f(a) rewritten as __jit_call__(f, a); None for a lambda.
py::object parseFunction(const py::object& fn, py::object& file);

/// The state a graph under construction writes (Note [Side effects in compiled code] in
/// jit_state.cpp): each target (a Parameter's tensor) and the value it holds now.
struct StateWrites {
    std::vector<Tensor> targets;
    std::vector<ValueId> values;
    void set(const Tensor& target, ValueId value);
};

/// A graph under construction: the function's own graph or a branch / loop subgraph.
struct Builder {
    Graph* graph = nullptr;
    GraphTracer* tracer = nullptr;
    StateWrites* writes = nullptr; ///< null where a write cannot be kept (an if / while body)
};

/// A subgraph built from statements: its inputs stand for `operands` of the enclosing graph.
struct Subgraph {
    std::unique_ptr<Graph> graph;
    std::unique_ptr<GraphTracer> tracer;
    std::shared_ptr<std::vector<ValueId>> operands;
    Frame frame;
    Flow flow = Flow::Normal;
};

/// Where the compiler is in the user's source: saved around subgraphs, whose statements move it.
struct SourcePosition {
    py::object file;
    SourceLocation location;
    int endLine = 0, endColumn = 0;
};

class Compiler final : public StateWriter {
public:
    explicit Compiler(Graph& graph);
    ~Compiler() override;
    Compiler(const Compiler&) = delete;
    Compiler& operator=(const Compiler&) = delete;

    // State (jit_state.cpp).
    void write(const Tensor& target, const Tensor& value) override;
    void everyRun(std::function<void()> before, std::function<void(const TensorList&)> after,
                  const TensorList& traced, EffectTime time) override;
    /// The main graph's outputs after the function's own: its state writes' values, then the
    /// values the run effects read (the effects' firstOutput counts from there).
    void appendStateOutputs(std::vector<ValueId>& outputs, std::vector<Tensor>& targets,
                            std::vector<RunEffect>& effects);

    /// A gradient call met while compiling (jit_gradient.cpp): fn traced into a subgraph, its
    /// gradient graph inlined into the graph being built; the results are its symbolic tensors.
    GradResult inlineGradient(const Function& fn, const std::vector<Value>& args,
                              const Value& sens, const GradRequest& request);

    /// fn(*args, **kwargs) inside the graph: Python functions compiled from source, Cells
    /// called (their construct comes back here), print compiled, list mutation checked.
    py::object call(const py::object& fn, const py::tuple& args, const py::dict& kwargs);
    py::object compileSource(const py::object& fn, const py::tuple& args, const py::dict& kwargs);
    /// A Cell with a bprop: one CustomBprop node (jit_bprop.cpp).
    py::object compileBpropCell(const py::object& cell, const py::tuple& args,
                                const py::dict& kwargs);

    GraphTracer& tracer() { return *m_builders.back().tracer; }
    Graph& graph() { return *m_builders.back().graph; }
    std::vector<Tensor>& parameters() { return m_parameters; }

    // Statements (jit_compiler.cpp).
    Flow walkBlock(Frame& frame, const py::list& statements, std::size_t from = 0);
    py::object evaluate(Frame& frame, const py::handle& expression);
    void assign(Frame& frame, const py::handle& target, const py::object& value);
    NodeIdentity identityHere() const;
    SourcePosition position() const { return {m_file, m_location, m_endLine, m_endColumn}; }
    void setPosition(const SourcePosition& at);
    /// Gives the error the location of the statement being compiled (unless it has one).
    void locate(py::error_already_set& error) const;

    // Control flow (jit_control_flow.cpp).
    Flow compileIf(Frame& frame, const py::handle& statement, const py::list& statements,
                   std::size_t index);
    Flow compileFor(Frame& frame, const py::handle& statement);
    Flow compileWhile(Frame& frame, const py::handle& statement);
    /// An if / while test: `and`, `or` and `not` over tensor values become logical ops (Python
    /// would ask a tensor for its truth); constants keep Python's short-circuit. The result is a
    /// Python value or a tensor.
    py::object evaluateCondition(Frame& frame, const py::handle& test);
    /// A `while` whose condition depends on a tensor: a While node (jit_loop.cpp).
    void compileLoop(Frame& frame, const py::handle& statement);

private:
    Flow statement(Frame& frame, const py::handle& node, const py::list& statements,
                   std::size_t index);
    /// `cell.attr = value` for a Cell attribute that is not a Parameter: stored without gradient
    /// (Note [Cell attributes written in compiled code]); false for any other Assign.
    bool storeToCellAttribute(Frame& frame, const py::handle& node);
    void execute(Frame& frame, const py::handle& node);
    py::dict namespaceOf(const Frame& frame);
    void setLocation(const Frame& frame, const py::handle& node);
    void checkSideEffects(const py::object& fn);
    /// print(...) with tensors: a run effect printing the run's values (Note [print in graph mode]).
    py::object compilePrint(const py::tuple& args, const py::dict& kwargs);
    Subgraph buildSubgraph(const Frame& frame, const py::list& statements, const char* name);
    /// A subgraph over the enclosing graph's values that `fill` builds (with the subgraph's
    /// builder and frame current); values it meets from enclosing graphs become its inputs.
    Subgraph buildSubgraph(const Frame& frame, const char* name,
                           const std::function<Flow(Subgraph&)>& fill,
                           StateWrites* writes = nullptr);
    void joinBranches(Frame& frame, Subgraph& yes, Subgraph& no, const py::handle& test,
                      const py::object& condition);
    std::vector<ValueId> unify(Subgraph& yes, Subgraph& no, std::vector<Graph>& graphs);

    std::vector<Builder> m_builders;
    GraphTracer m_tracer;
    StateWrites m_writes;
    std::vector<RunEffect> m_effects;
    std::vector<ValueId> m_effectValues; ///< what the effects read, in m_effects order
    StateWriter* m_savedWriter;
    TraceDifferentiatorGuard m_gradients;
    std::vector<Tensor> m_parameters;
    std::vector<Frame*> m_frames;
    py::object m_hook;
    SourceLocation m_location;
    int m_endLine = 0, m_endColumn = 0;
    py::object m_file;
    std::function<SourceLocation()> m_savedProvider;
    QuietLines m_quietLines;
    Compiler* m_saved;
    int m_depth = 0;
};

Compiler* currentCompiler();
bool isSymbolicObject(const py::handle& object);
/// A Parameter's tensor (a concrete autodiff leaf): a graph input wherever it is used.
bool isParameterTensor(const Tensor& t);
/// Python's truth of a compile-time value.
bool truthOf(const py::object& value);
/// A tensor condition as the one-element Bool tensor If and While nodes take (MindSpore casts a
/// number: x != 0).
py::object boolCondition(const py::object& condition);

} // namespace gradstep::python
