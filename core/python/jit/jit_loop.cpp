// A `while` whose condition depends on a tensor's value becomes a While node (SEMANTICS.md §4.2:
// MindSpore keeps such a loop as a loop). Note [Compiling a tensor while]: the loop variables are
// the names the body assigns that exist before the loop. Those holding tensors (or tuples of
// them) are carried: the condition and the body are compiled as subgraphs over them, and each
// must keep its shape and dtype from one iteration to the next (MindSpore's Type / Shape Join
// Failed, at the line of the `while`). A Python number the body changes (a counter `i += 1`)
// becomes a 0-D tensor and the loop is compiled again; other Python values must stay as they
// are. Values from outside the loop that the body or condition use (weights) are carried
// unchanged. The bound is set_context(max_call_depth), 1000 by default as in MindSpore.
// SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include "graph/autodiff.h"

#include <algorithm>

namespace gradstep::python {

namespace {

struct LoopVariable {
    py::object name;
    OutputTree tree;
    std::vector<Tensor> initial; ///< its tensors before the loop (the carried leaves)
};

struct LoopPlan {
    std::vector<LoopVariable> carried;
    std::vector<py::object> numbers; ///< names of Python numbers the body might change
    std::vector<py::object> fixed;   ///< names of other Python values it must not change
    SpecList specs;                  ///< every carried leaf, in order
    std::vector<std::string> leafNames;
};

bool isNumber(const py::handle& value)
{
    return PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr());
}

std::vector<py::object> assignedNames(const py::list& body)
{
    py::module_ ast = py::module_::import("ast");
    std::vector<py::object> names;
    for (py::handle statement : body)
        for (py::handle n : ast.attr("walk")(statement))
            if (py::isinstance(n, ast.attr("Name"))
                && py::isinstance(n.attr("ctx"), ast.attr("Store"))) {
                py::object id = n.attr("id");
                if (std::none_of(names.begin(), names.end(),
                                 [&](const py::object& s) { return s.equal(id); }))
                    names.push_back(id);
            }
    return names;
}

LoopPlan planLoop(const Frame& frame, const std::vector<py::object>& names)
{
    LoopPlan plan;
    for (const py::object& name : names) {
        if (!frame.env.contains(name))
            continue; // defined in the body: local to one iteration
        const py::object value = frame.env[name];
        LoopVariable v{name, {}, {}};
        v.tree = outputTreeOf(value, v.initial);
        if (!v.initial.empty()) {
            for (std::size_t k = 0; k < v.initial.size(); ++k) {
                plan.specs.push_back({v.initial[k].shape(), v.initial[k].dtype()});
                plan.leafNames.push_back(std::string(py::str(name))
                                         + (v.initial.size() > 1 ? "." + std::to_string(k) : ""));
            }
            plan.carried.push_back(std::move(v));
        } else if (isNumber(value)) {
            plan.numbers.push_back(name);
        } else {
            plan.fixed.push_back(name);
        }
    }
    return plan;
}

std::string kindOf(const py::handle& value)
{
    return py::str(py::type::handle_of(value).attr("__name__"));
}

// Binds the carried leaves to the subgraph's first inputs and the variables to them.
void bindCarried(Subgraph& s, const LoopPlan& plan)
{
    TensorList leaves;
    for (std::size_t k = 0; k < plan.specs.size(); ++k)
        leaves.push_back(s.tracer->bind(s.graph->addInput(plan.leafNames[k], plan.specs[k])));
    std::size_t next = 0;
    for (const LoopVariable& v : plan.carried)
        s.frame.env[v.name] = buildOutput(v.tree, leaves, next);
}

bool sameValue(const py::object& a, const py::object& b)
{
    return a.is(b)
           || (py::type::handle_of(a).is(py::type::handle_of(b)) && !asTensor(a) && a.equal(b));
}

// Python numbers the body changes are carried as 0-D tensors (the loop is then compiled again).
bool promoteChangedNumbers(Frame& frame, const LoopPlan& plan, const Subgraph& loop)
{
    bool promoted = false;
    for (const py::object& name : plan.numbers) {
        const py::object before = frame.env[name];
        if (!loop.frame.env.contains(name) || sameValue(before, loop.frame.env[name]))
            continue;
        frame.env[name] = py::module_::import("mindspore").attr("Tensor")(before);
        promoted = true;
    }
    return promoted;
}

void checkFixed(const Frame& frame, const LoopPlan& plan, const Subgraph& loop)
{
    for (const py::object& name : plan.fixed)
        if (!sameValue(frame.env[name], loop.frame.env[name]))
            throw py::type_error("variable '" + std::string(py::str(name)) + "' holds a Python "
                                 + kindOf(frame.env[name])
                                 + " that the body of a `while` on a tensor condition changes; "
                                   "graph mode carries only tensors (and numbers, as 0-D "
                                   "tensors) from one iteration to the next");
}

// The body's values of the carried variables, which must keep their shapes and dtypes.
std::vector<ValueId> carriedOutputs(const LoopPlan& plan, Subgraph& loop)
{
    std::vector<ValueId> outputs;
    for (const LoopVariable& v : plan.carried) {
        std::vector<Tensor> after;
        outputTreeOf(loop.frame.env[v.name], after);
        const std::string subject = "Cannot join the values of a while loop's iterations, "
                                    "variable '" + std::string(py::str(v.name)) + "'";
        if (after.size() != v.initial.size())
            throw py::type_error(subject + " changes from " + std::to_string(v.initial.size())
                                 + " tensors to " + std::to_string(after.size())
                                 + " in the loop body; it must keep its kind");
        for (std::size_t k = 0; k < after.size(); ++k) {
            checkJoinable({v.initial[k].shape(), v.initial[k].dtype()},
                          {after[k].shape(), after[k].dtype()}, subject);
            outputs.push_back(loop.tracer->valueOf(after[k]));
        }
    }
    return outputs;
}

// Rebuilds a subgraph over (carried leaves, every captured value), as the While node passes them.
Graph loopGraph(const Subgraph& sub, const char* name, const LoopPlan& plan,
                const std::vector<ValueId>& captures, const Graph& outer, bool passCaptures)
{
    Graph g(name);
    std::vector<ValueId> inputs;
    for (std::size_t k = 0; k < plan.specs.size(); ++k)
        inputs.push_back(g.addInput(plan.leafNames[k], plan.specs[k]));
    for (std::size_t c = 0; c < captures.size(); ++c) {
        const std::string& known = outer.value(captures[c]).name;
        inputs.push_back(
            g.addInput(known.empty() ? "in" + std::to_string(c) : known, outer.spec(captures[c])));
    }
    const std::size_t carried = plan.specs.size();
    std::vector<ValueId> arguments(inputs.begin(),
                                   inputs.begin() + static_cast<std::ptrdiff_t>(carried));
    for (ValueId operand : *sub.operands) {
        const auto at = std::find(captures.begin(), captures.end(), operand) - captures.begin();
        arguments.push_back(inputs[carried + static_cast<std::size_t>(at)]);
    }
    std::vector<ValueId> outputs = inlineGraph(g, *sub.graph, arguments);
    if (passCaptures)
        outputs.insert(outputs.end(), inputs.begin() + static_cast<std::ptrdiff_t>(carried),
                       inputs.end());
    g.setOutputs(std::move(outputs));
    return g;
}

// The While node over the initial carried values and every captured value; the variables then
// name its results.
void emitLoop(Compiler& compiler, Frame& frame, const LoopPlan& plan, const Subgraph& cond,
              const Subgraph& body)
{
    Graph& outer = compiler.graph();
    std::vector<ValueId> captures = *cond.operands;
    for (ValueId v : *body.operands)
        if (std::find(captures.begin(), captures.end(), v) == captures.end())
            captures.push_back(v);
    std::vector<ValueId> operands;
    for (const LoopVariable& v : plan.carried)
        for (const Tensor& t : v.initial)
            operands.push_back(compiler.tracer().valueOf(t));
    operands.insert(operands.end(), captures.begin(), captures.end());
    const std::vector<ValueId> outputs =
        outer.addWhile(operands, loopGraph(cond, "cond", plan, captures, outer, false),
                       loopGraph(body, "body", plan, captures, outer, true),
                       contextMaxCallDepth(), compiler.identityHere());
    TensorList results;
    for (std::size_t k = 0; k < plan.specs.size(); ++k)
        results.push_back(compiler.tracer().bind(outputs[k]));
    std::size_t next = 0;
    for (const LoopVariable& v : plan.carried)
        frame.env[v.name] = buildOutput(v.tree, results, next);
}

} // namespace

void Compiler::compileLoop(Frame& frame, const py::handle& statement)
{
    const SourcePosition here = position();
    const py::list body = statement.attr("body");
    const std::vector<py::object> names = assignedNames(body);
    for (;;) {
        const LoopPlan plan = planLoop(frame, names);
        Subgraph cond = buildSubgraph(frame, "cond", [&](Subgraph& s) {
            bindCarried(s, plan);
            py::object test = evaluateCondition(s.frame, statement.attr("test"));
            test = isSymbolicObject(test) ? boolCondition(test)
                                          : py::cast(Tensor::scalar(truthOf(test), DType::Bool));
            s.graph->setOutputs({s.tracer->valueOf(*asTensor(test))});
            return Flow::Normal;
        });
        cond.tracer.reset();
        Subgraph loop = buildSubgraph(frame, "body", [&](Subgraph& s) {
            bindCarried(s, plan);
            return walkBlock(s.frame, body);
        });
        if (loop.flow != Flow::Normal)
            throw py::type_error(
                std::string(loop.flow == Flow::Return ? "return" : "break and continue")
                + " inside a `while` on a tensor condition are not supported in graph mode; "
                  "fold the exit into the loop's condition");
        setPosition(here);
        checkFixed(frame, plan, loop);
        if (promoteChangedNumbers(frame, plan, loop))
            continue; // again, with those numbers as tensors
        loop.graph->setOutputs(carriedOutputs(plan, loop));
        loop.tracer.reset();
        emitLoop(*this, frame, plan, cond, loop);
        return;
    }
}

} // namespace gradstep::python
