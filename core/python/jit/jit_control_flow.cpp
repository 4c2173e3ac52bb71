// Graph mode's control flow (SEMANTICS.md §4.2): a condition without a tensor value is decided
// while compiling and only the branch taken is compiled; `for` over anything but a symbolic
// tensor's values is unrolled; an `if` on a tensor becomes an If node whose branches are
// subgraphs over the values they use, joined variable by variable (MindSpore's Type / Shape Join
// Failed when they differ); a `while` on a tensor becomes a While node with an iteration bound
// (jit_loop.cpp).
// SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

#include "python/bind/convert.h"

#include "graph/autodiff.h"

namespace gradstep::python {

namespace {

constexpr std::size_t kMaxUnroll = 10000;

bool endsWithReturn(const py::list& statements)
{
    if (statements.empty())
        return false;
    const py::handle last = statements[statements.size() - 1];
    return std::string(py::str(py::type::handle_of(last).attr("__name__"))) == "Return";
}

bool sameStructure(const OutputTree& a, const OutputTree& b)
{
    if (a.kind != b.kind || a.items.size() != b.items.size())
        return false;
    if (a.kind == OutputTree::Kind::Constant)
        return a.constant.is(b.constant) || a.constant.equal(b.constant);
    for (std::size_t i = 0; i < a.items.size(); ++i)
        if (!sameStructure(a.items[i], b.items[i]))
            return false;
    return true;
}

} // namespace

bool truthOf(const py::object& value)
{
    const int truth = PyObject_IsTrue(value.ptr());
    if (truth < 0)
        throw py::error_already_set();
    return truth != 0;
}

py::object boolCondition(const py::object& condition)
{
    if (asTensor(condition)->dtype() == DType::Bool)
        return condition;
    return condition.attr("__ne__")(0);
}

void Compiler::setPosition(const SourcePosition& at)
{
    m_file = at.file;
    m_location = at.location;
    m_endLine = at.endLine;
    m_endColumn = at.endColumn;
}

py::object Compiler::evaluateCondition(Frame& frame, const py::handle& test)
{
    py::module_ ast = py::module_::import("ast");
    py::object ops = py::module_::import("mindspore").attr("ops");
    if (py::isinstance(test, ast.attr("UnaryOp"))
        && py::isinstance(test.attr("op"), ast.attr("Not"))) {
        py::object operand = evaluateCondition(frame, test.attr("operand"));
        if (!isSymbolicObject(operand))
            return py::bool_(!truthOf(operand));
        return ops.attr("logical_not")(boolCondition(operand));
    }
    if (!py::isinstance(test, ast.attr("BoolOp")))
        return evaluate(frame, test);
    const bool conjunction = py::isinstance(test.attr("op"), ast.attr("And"));
    py::object combined; // the tensor operands so far, combined
    for (py::handle value : test.attr("values")) {
        py::object operand = evaluateCondition(frame, value);
        if (!isSymbolicObject(operand)) {
            // A false operand decides an `and`, a true one an `or`: the rest is not evaluated.
            if (truthOf(operand) != conjunction)
                return py::bool_(!conjunction);
            continue;
        }
        operand = boolCondition(operand);
        const char* op = conjunction ? "logical_and" : "logical_or";
        combined = !combined ? operand : ops.attr(op)(combined, operand);
    }
    return combined ? combined : py::bool_(conjunction);
}

Flow Compiler::compileIf(Frame& frame, const py::handle& statement, const py::list& statements,
                         std::size_t index)
{
    py::object condition = evaluateCondition(frame, statement.attr("test"));
    py::list yesBody = py::list(statement.attr("body"));
    py::list noBody = py::list(statement.attr("orelse"));
    if (!isSymbolicObject(condition))
        return walkBlock(frame, truthOf(condition) ? yesBody : noBody);

    condition = boolCondition(condition);
    // `if c: return a` followed by more statements: those are the other branch.
    const bool yesReturns = endsWithReturn(yesBody), noReturns = endsWithReturn(noBody);
    if (yesReturns != noReturns)
        for (std::size_t i = index + 1; i < statements.size(); ++i)
            (yesReturns ? noBody : yesBody).append(statements[i]);
    const SourcePosition here = position();
    Subgraph yes = buildSubgraph(frame, yesBody, "then");
    Subgraph no = buildSubgraph(frame, noBody, "else");
    setPosition(here);
    joinBranches(frame, yes, no, statement, condition);
    return yes.flow;
}

Subgraph Compiler::buildSubgraph(const Frame& frame, const py::list& statements, const char* name)
{
    return buildSubgraph(frame, name, [&](Subgraph& s) { return walkBlock(s.frame, statements); });
}

Subgraph Compiler::buildSubgraph(const Frame& frame, const char* name,
                                 const std::function<Flow(Subgraph&)>& fill, StateWrites* writes)
{
    Subgraph s;
    s.graph = std::make_unique<Graph>(name);
    s.tracer = std::make_unique<GraphTracer>(*s.graph);
    const Builder outer = m_builders.back();
    Graph* inner = s.graph.get();
    auto operands = std::make_shared<std::vector<ValueId>>();
    s.tracer->setResolver([outer, inner, operands](const Tensor& t) -> std::optional<ValueId> {
        // A tensor created while compiling (a literal) is a constant of the subgraph itself;
        // values of the enclosing graphs and Parameters are passed in.
        if (!isSymbolic(t) && !isParameterTensor(t))
            return std::nullopt;
        const ValueId value = outer.tracer->valueOf(t);
        operands->push_back(value);
        return inner->addInput("in" + std::to_string(operands->size() - 1),
                               outer.graph->spec(value));
    });
    s.frame.env = frame.env.attr("copy")();
    s.frame.globals = frame.globals;
    s.frame.file = frame.file;
    s.frame.arguments = frame.arguments;
    m_builders.push_back({inner, s.tracer.get(), writes});
    m_frames.push_back(&s.frame);
    struct Pop {
        Compiler& c;
        ~Pop()
        {
            c.m_builders.pop_back();
            c.m_frames.pop_back();
        }
    } pop{*this};
    s.operands = operands;
    s.flow = fill(s);
    return s;
}

std::vector<ValueId> Compiler::unify(Subgraph& yes, Subgraph& no, std::vector<Graph>& graphs)
{
    const Graph& outer = graph();
    std::vector<ValueId> all = *yes.operands;
    for (ValueId v : *no.operands)
        if (std::find(all.begin(), all.end(), v) == all.end())
            all.push_back(v);
    for (Subgraph* sub : {&yes, &no}) {
        Graph unified(sub->graph->name());
        std::vector<ValueId> inputs;
        for (std::size_t i = 0; i < all.size(); ++i)
            inputs.push_back(unified.addInput("in" + std::to_string(i), outer.spec(all[i])));
        std::vector<ValueId> arguments;
        for (ValueId operand : *sub->operands) {
            const auto at = std::find(all.begin(), all.end(), operand) - all.begin();
            arguments.push_back(inputs[static_cast<std::size_t>(at)]);
        }
        unified.setOutputs(inlineGraph(unified, *sub->graph, arguments));
        graphs.push_back(std::move(unified));
    }
    return all;
}

void Compiler::joinBranches(Frame& frame, Subgraph& yes, Subgraph& no, const py::handle& test,
                            const py::object& condition)
{
    (void)test;
    if (yes.flow == Flow::Break || yes.flow == Flow::Continue || no.flow == Flow::Break
        || no.flow == Flow::Continue)
        throw py::type_error("break and continue inside an `if` on a tensor value are not "
                             "supported in graph mode; use a loop with a constant bound");
    if (yes.flow != no.flow)
        throw py::type_error("an `if` on a tensor value must return in both branches or in "
                             "neither in graph mode");
    std::vector<Tensor> yesLeaves, noLeaves;
    std::vector<std::pair<py::object, OutputTree>> joined; // (name or None for a return, tree)
    // Whether the values need the If node (else they are the same Python value).
    auto join = [&](py::object name, const py::handle& a, const py::handle& b) {
        std::vector<Tensor> ya, nb;
        OutputTree ta = outputTreeOf(a, ya), tb = outputTreeOf(b, nb);
        const bool tensors = !ya.empty() || !nb.empty();
        if (!tensors && sameStructure(ta, tb))
            return false;
        if (ya.size() != nb.size() || (!tensors && !sameStructure(ta, tb)))
            throw py::type_error(
                "Cannot join the return values of different branches: "
                + (name.is_none() ? std::string("the returned values")
                                  : "variable '" + std::string(py::str(name)) + "'")
                + " differ in kind between the branches of the `if` (a tensor and a Python "
                  "value, or tuples of different lengths).");
        yesLeaves.insert(yesLeaves.end(), ya.begin(), ya.end());
        noLeaves.insert(noLeaves.end(), nb.begin(), nb.end());
        joined.emplace_back(std::move(name), std::move(ta));
        return true;
    };
    if (yes.flow == Flow::Return) {
        if (!join(py::none(), yes.frame.returned, no.frame.returned))
            frame.returned = yes.frame.returned;
    } else {
        for (auto item : yes.frame.env) {
            py::object key = py::reinterpret_borrow<py::object>(item.first);
            if (!no.frame.env.contains(key))
                continue;
            py::object before = frame.env.contains(key) ? py::object(frame.env[key]) : py::none();
            py::object a = yes.frame.env[key], b = no.frame.env[key];
            if (a.is(before) && b.is(before))
                continue;
            if (!join(key, a, b))
                frame.env[key] = a;
        }
    }
    std::vector<ValueId> yesOut, noOut;
    for (const Tensor& t : yesLeaves)
        yesOut.push_back(yes.tracer->valueOf(t));
    for (const Tensor& t : noLeaves)
        noOut.push_back(no.tracer->valueOf(t));
    yes.graph->setOutputs(yesOut);
    no.graph->setOutputs(noOut);
    // Branch tracers go in the reverse order of their installation.
    no.tracer.reset();
    yes.tracer.reset();

    const ValueId conditionValue = tracer().valueOf(*asTensor(condition));
    std::vector<Graph> graphs;
    const std::vector<ValueId> operands = unify(yes, no, graphs);
    const std::vector<ValueId> outs = graph().addIf(conditionValue, operands, std::move(graphs[0]),
                                                    std::move(graphs[1]), identityHere());
    TensorList values;
    for (ValueId v : outs)
        values.push_back(tracer().bind(v));
    std::size_t next = 0;
    for (const auto& [name, tree] : joined) {
        py::object value = buildOutput(tree, values, next);
        if (name.is_none())
            frame.returned = value;
        else
            frame.env[name] = value;
    }
}

Flow Compiler::compileFor(Frame& frame, const py::handle& statement)
{
    py::object iterable = evaluate(frame, statement.attr("iter"));
    py::list items;
    if (isSymbolicObject(iterable)) {
        const Tensor& t = *asTensor(iterable);
        if (t.rank() == 0)
            throw py::type_error("iteration over a 0-D tensor");
        for (std::int64_t i = 0; i < t.shape()[0]; ++i)
            items.append(iterable[py::int_(i)]);
    } else {
        items = py::list(iterable);
    }
    if (items.size() > kMaxUnroll)
        throw py::value_error("graph mode unrolls `for` loops: " + std::to_string(items.size())
                              + " iterations is more than " + std::to_string(kMaxUnroll)
                              + "; use a while loop on a tensor condition");
    const py::list body = statement.attr("body");
    for (py::handle item : items) {
        assign(frame, statement.attr("target"), py::reinterpret_borrow<py::object>(item));
        const Flow flow = walkBlock(frame, body);
        if (flow == Flow::Return)
            return flow;
        if (flow == Flow::Break)
            return Flow::Normal;
    }
    return walkBlock(frame, statement.attr("orelse"));
}

Flow Compiler::compileWhile(Frame& frame, const py::handle& statement)
{
    const py::list body = statement.attr("body");
    for (std::size_t n = 0;; ++n) {
        const py::object condition = evaluateCondition(frame, statement.attr("test"));
        if (isSymbolicObject(condition)) {
            compileLoop(frame, statement); // the iterations left run in a While node
            break;
        }
        if (!truthOf(condition))
            break;
        if (n >= kMaxUnroll)
            throw py::value_error("a `while` on a constant condition ran more than "
                                  + std::to_string(kMaxUnroll) + " iterations while compiling");
        const Flow flow = walkBlock(frame, body);
        if (flow == Flow::Return)
            return flow;
        if (flow == Flow::Break)
            return Flow::Normal;
    }
    return walkBlock(frame, statement.attr("orelse"));
}

} // namespace gradstep::python
