// If, While, WhileGrad, CustomBprop and FusedElementwise nodes: the nodes that hold subgraphs.
// Their checks are the compile-time errors graph mode reports (MindSpore's Type / Shape Join
// Failed for branches and loop variables).
// SPDX-License-Identifier: MIT
#include "graph/graph.h"

namespace gradstep {

const OpDef kIfOp{"If", "if", OpKind::Other, 1, -1, nullptr, nullptr, nullptr};
const OpDef kWhileOp{"While", "while", OpKind::Other, 0, -1, nullptr, nullptr, nullptr};
const OpDef kFusedElementwiseOp{
    "FusedElementwise", "fused", OpKind::Elementwise, 1, -1, nullptr, nullptr, nullptr};
const OpDef kWhileGradOp{
    "WhileGrad", "while grad", OpKind::Other, 0, -1, nullptr, nullptr, nullptr};
const OpDef kCustomBpropOp{
    "CustomBprop", "custom bprop", OpKind::Other, 0, -1, nullptr, nullptr, nullptr};

namespace {

// MindSpore prints shapes as Python tuples in join errors: (2, 3), (4,), ().
std::string pythonShape(const Shape& shape)
{
    std::string s = "(";
    for (int i = 0; i < shape.rank(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.rank() == 1 ? ",)" : ")");
}

void checkSignature(const Graph& sub, const Graph& outer, std::span<const ValueId> operands,
                    std::string_view what)
{
    if (sub.inputs().size() != operands.size())
        throw TypeError(std::string(what) + " takes " + std::to_string(sub.inputs().size())
                        + " inputs, got " + std::to_string(operands.size()));
    for (std::size_t i = 0; i < operands.size(); ++i) {
        const TensorSpec& expected = sub.spec(sub.inputs()[i]);
        const TensorSpec& got = outer.spec(operands[i]);
        if (!(expected.shape == got.shape) || expected.dtype != got.dtype)
            throw TypeError(std::string(what) + " input " + std::to_string(i) + " is "
                            + specToString(expected) + ", got " + specToString(got));
    }
}

void checkJoin(const Graph& thenBranch, const Graph& elseBranch)
{
    const auto& a = thenBranch.outputs();
    const auto& b = elseBranch.outputs();
    if (a.size() != b.size())
        throw TypeError(
            "Cannot join the return values of different branches: the true branch returns "
            + std::to_string(a.size()) + " values and the false branch "
            + std::to_string(b.size()));
    for (std::size_t i = 0; i < a.size(); ++i)
        checkJoinable(thenBranch.spec(a[i]), elseBranch.spec(b[i]),
                      "Cannot join the return values of different branches, return value "
                          + std::to_string(i));
}

SpecList outputSpecs(const Graph& sub)
{
    SpecList specs;
    for (ValueId v : sub.outputs())
        specs.push_back(sub.spec(v));
    return specs;
}

bool isBoolScalar(const TensorSpec& spec)
{
    return spec.dtype == DType::Bool && spec.shape.numel() == 1;
}

void checkBound(std::int64_t maxIterations)
{
    if (maxIterations <= 0)
        throw ValueError("a while loop needs a positive iteration bound, got "
                         + std::to_string(maxIterations));
}

void checkLoop(const Graph& outer, std::span<const ValueId> initial, const Graph& condition,
               const Graph& body)
{
    checkSignature(condition, outer, initial, "the loop condition");
    checkSignature(body, outer, initial, "the loop body");
    if (condition.outputs().size() != 1 || !isBoolScalar(condition.spec(condition.outputs()[0])))
        throw TypeError("the condition of a while loop must return one one-element Bool tensor");
    // The carried values keep their shapes and dtypes from one iteration to the next.
    if (body.outputs().size() != initial.size())
        throw TypeError("the loop body returns " + std::to_string(body.outputs().size())
                        + " values for " + std::to_string(initial.size()) + " loop variables");
    for (std::size_t i = 0; i < initial.size(); ++i)
        checkJoinable(outer.spec(initial[i]), body.spec(body.outputs()[i]),
                      "Cannot join the values of a while loop's iterations, loop variable "
                          + std::to_string(i));
}

} // namespace

std::string_view subgraphName(NodeKind kind, std::size_t index)
{
    static constexpr std::string_view kIf[] = {"then", "else"};
    static constexpr std::string_view kWhile[] = {"cond", "body", "grad"};
    static constexpr std::string_view kBprop[] = {"construct", "bprop"};
    switch (kind) {
    case NodeKind::CustomBprop: return kBprop[index % 2];
    case NodeKind::If: return kIf[index % 2];
    case NodeKind::While:
    case NodeKind::WhileGrad: return kWhile[index % 3];
    case NodeKind::Op:
    case NodeKind::Fused: break;
    }
    return "fused";
}

void checkJoinable(const TensorSpec& first, const TensorSpec& second, const std::string& subject)
{
    if (first.dtype != second.dtype)
        throw TypeError(subject + " differs in dtype. Type Join Failed: dtype1 = "
                        + std::string(dtypeName(first.dtype))
                        + ", dtype2 = " + std::string(dtypeName(second.dtype)) + ".");
    if (!(first.shape == second.shape))
        throw ValueError(subject + " differs in shape. Shape Join Failed: shape1 = "
                         + pythonShape(first.shape) + ", shape2 = " + pythonShape(second.shape)
                         + ".");
}

std::vector<std::size_t> floatInputPositions(const Graph& graph)
{
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < graph.inputs().size(); ++i)
        if (carriesGradient(graph.spec(graph.inputs()[i]).dtype))
            positions.push_back(i);
    return positions;
}

std::vector<ValueId> Graph::addIf(ValueId condition, std::span<const ValueId> operands,
                                  Graph thenBranch, Graph elseBranch, NodeIdentity identity)
{
    checkInputs({&condition, 1}, "If");
    checkInputs(operands, "If");
    if (!isBoolScalar(spec(condition)))
        throw TypeError("the condition of an if must be a one-element Bool tensor, got "
                        + specToString(spec(condition)));
    checkSignature(thenBranch, *this, operands, "the true branch");
    checkSignature(elseBranch, *this, operands, "the false branch");
    checkJoin(thenBranch, elseBranch);
    std::vector<ValueId> inputs{condition};
    inputs.insert(inputs.end(), operands.begin(), operands.end());
    const SpecList specs = outputSpecs(thenBranch);
    std::vector<ValueId> out = newNode(NodeKind::If, kIfOp, inputs, {}, std::move(identity), specs);
    m_nodes.back().subgraphs = {std::make_shared<const Graph>(std::move(thenBranch)),
                                std::make_shared<const Graph>(std::move(elseBranch))};
    return out;
}

std::vector<ValueId> Graph::addWhile(std::span<const ValueId> initial, Graph condition, Graph body,
                                     std::int64_t maxIterations, NodeIdentity identity)
{
    checkInputs(initial, "While");
    checkBound(maxIterations);
    checkLoop(*this, initial, condition, body);
    const SpecList specs = outputSpecs(body);
    Attrs attrs;
    attrs.set("max_iterations", maxIterations);
    std::vector<ValueId> out =
        newNode(NodeKind::While, kWhileOp, initial, std::move(attrs), std::move(identity), specs);
    m_nodes.back().subgraphs = {std::make_shared<const Graph>(std::move(condition)),
                                std::make_shared<const Graph>(std::move(body))};
    return out;
}

std::vector<ValueId> Graph::addWhileGrad(std::span<const ValueId> operands, Graph condition,
                                         Graph body, Graph bodyGradient,
                                         std::int64_t maxIterations, NodeIdentity identity)
{
    checkInputs(operands, "WhileGrad");
    checkBound(maxIterations);
    if (operands.size() % 2 != 0)
        throw TypeError("a while gradient takes the loop's initial values and one gradient per "
                        "loop output, got " + std::to_string(operands.size()) + " operands");
    const std::size_t n = operands.size() / 2;
    const std::span<const ValueId> initial = operands.first(n);
    checkLoop(*this, initial, condition, body);
    // The output gradients, and what the body's gradient graph takes and returns, have the
    // carried values' specs (the body maps carried values to carried values).
    checkSignature(bodyGradient, *this, operands, "the loop body's gradient");
    const std::vector<std::size_t> floats = floatInputPositions(body);
    if (bodyGradient.outputs().size() != floats.size())
        throw TypeError("the loop body's gradient returns "
                        + std::to_string(bodyGradient.outputs().size()) + " values for "
                        + std::to_string(floats.size()) + " float loop variables");
    SpecList specs;
    for (std::size_t k = 0; k < floats.size(); ++k) {
        specs.push_back(spec(initial[floats[k]]));
        checkJoinable(spec(initial[floats[k]]), bodyGradient.spec(bodyGradient.outputs()[k]),
                      "the gradient of loop variable " + std::to_string(floats[k]));
    }
    Attrs attrs;
    attrs.set("max_iterations", maxIterations);
    std::vector<ValueId> out = newNode(NodeKind::WhileGrad, kWhileGradOp, operands,
                                       std::move(attrs), std::move(identity), specs);
    m_nodes.back().subgraphs = {std::make_shared<const Graph>(std::move(condition)),
                                std::make_shared<const Graph>(std::move(body)),
                                std::make_shared<const Graph>(std::move(bodyGradient))};
    return out;
}

std::vector<ValueId> Graph::addCustomBprop(std::span<const ValueId> operands,
                                           std::int64_t arguments, Graph construct, Graph bprop,
                                           NodeIdentity identity)
{
    checkInputs(operands, "CustomBprop");
    if (arguments < 0 || static_cast<std::size_t>(arguments) > operands.size())
        throw ValueError("a custom bprop node has " + std::to_string(operands.size())
                         + " operands, so at most that many arguments, got "
                         + std::to_string(arguments));
    checkSignature(construct, *this, operands, "the construct of a custom bprop");
    const SpecList specs = outputSpecs(construct);
    if (bprop.inputs().size() != operands.size() + 2 * specs.size())
        throw TypeError("the bprop takes " + std::to_string(bprop.inputs().size())
                        + " inputs, expected the " + std::to_string(operands.size())
                        + " operands, out and dout (" + std::to_string(specs.size())
                        + " each)");
    for (std::size_t i = 0; i < bprop.inputs().size(); ++i) {
        const TensorSpec& want = i < operands.size() ? spec(operands[i])
                                                     : specs[(i - operands.size()) % specs.size()];
        checkJoinable(bprop.spec(bprop.inputs()[i]), want, "bprop input " + std::to_string(i));
    }
    const auto count = static_cast<std::size_t>(arguments);
    if (bprop.outputs().size() != count)
        throw TypeError("the bprop returns " + std::to_string(bprop.outputs().size())
                        + " gradients, expected one per argument (" + std::to_string(count) + ")");
    for (std::size_t i = 0; i < count; ++i)
        checkJoinable(spec(operands[i]), bprop.spec(bprop.outputs()[i]),
                      "the gradient the bprop returns for argument " + std::to_string(i));
    Attrs attrs;
    attrs.set("arguments", arguments);
    std::vector<ValueId> out = newNode(NodeKind::CustomBprop, kCustomBpropOp, operands,
                                       std::move(attrs), std::move(identity), specs);
    m_nodes.back().subgraphs = {std::make_shared<const Graph>(std::move(construct)),
                                std::make_shared<const Graph>(std::move(bprop))};
    return out;
}

std::vector<ValueId> Graph::addFused(std::span<const ValueId> inputs, Graph members,
                                     NodeIdentity identity)
{
    checkInputs(inputs, "FusedElementwise");
    checkSignature(members, *this, inputs, "the fused kernel");
    for (const GraphNode& member : members.nodes())
        if (member.kind != NodeKind::Op || member.op->kind != OpKind::Elementwise)
            throw ValueError("a fused kernel holds elementwise ops only, got '"
                             + std::string(member.name()) + "'");
    if (members.outputs().empty())
        throw ValueError("a fused kernel must have an output");
    const SpecList specs = outputSpecs(members);
    std::vector<ValueId> out =
        newNode(NodeKind::Fused, kFusedElementwiseOp, inputs, {}, std::move(identity), specs);
    m_nodes.back().subgraphs = {std::make_shared<const Graph>(std::move(members))};
    return out;
}

} // namespace gradstep
