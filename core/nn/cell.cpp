// Cells. SPDX-License-Identifier: MIT
#include "nn/cell.h"
#include "nn/cell_hooks_suspension.h"
#include "nn/cell_inputs_cast.h"

#include "autodiff/context.h"
#include "autodiff/tape.h"
#include "ops/elementwise.h"

#include <algorithm>

namespace gradstep {

namespace {

// Rebuilds `shape` with its Tensor leaves replaced, in depth-first order, by leaves[next...].
Value replaceLeaves(const Value& shape, std::span<const Tensor> leaves, std::size_t& next)
{
    if (shape.isTensor())
        return Value(leaves[next++]);
    if (!shape.isTuple())
        return shape;
    std::vector<Value> items;
    for (const Value& item : shape.items())
        items.push_back(replaceLeaves(item, leaves, next));
    return Value::tuple(std::move(items));
}

std::size_t leafCount(const Value& v) { return v.leaves().size(); }

// Maps bprop's result (one item per positional input) onto the node's inputs (the Tensor leaves
// of the arguments). A None item means "no gradient" for every leaf of that argument.
TensorList bpropGradients(const std::string& cell, const std::vector<Value>& args,
                          const Value& result)
{
    std::vector<Value> items;
    if (result.isTuple())
        items = result.items();
    else if (args.size() == 1)
        items.push_back(result);
    if (items.size() != args.size())
        throw AutodiffError("bprop of Cell '" + cell + "' returned " + std::to_string(items.size())
                            + " gradients, expected one per input (" + std::to_string(args.size())
                            + ")");
    TensorList grads;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::size_t want = leafCount(args[i]);
        if (items[i].isNone()) {
            grads.insert(grads.end(), want, Tensor());
            continue;
        }
        TensorList got = items[i].leaves();
        if (got.size() != want)
            throw AutodiffError("bprop of Cell '" + cell + "' returned "
                                + std::to_string(got.size()) + " tensors for input "
                                + std::to_string(i) + ", expected " + std::to_string(want));
        grads.insert(grads.end(), got.begin(), got.end());
    }
    return grads;
}

} // namespace

Cell::Cell(std::string className, bool autoPrefix)
    : m_className(std::move(className)), m_autoPrefix(autoPrefix)
{}

Value Cell::bprop(const std::vector<Value>&, const Value&, const Value&)
{
    throw RuntimeError("Cell '" + m_className + "' says it has a bprop but does not define one");
}

namespace {
Value castFloats(const Value& v, DType to)
{
    return v.map([to](const Tensor& t) { return isFloating(t.dtype()) && t.dtype() != to ? cast(t, to) : t; });
}
} // namespace

Value Cell::operator()(const std::vector<Value>& given)
{
    const bool nested = executionContext().scope != nullptr;
    ScopeGuard scope(nested && !m_attributeName.empty() ? m_attributeName : m_className);
    const std::vector<Value> args = castCellInputs(*this, given);
    Value out;
    {
        MixedPrecisionGuard mixed(m_mixedPrecision);
        if (!m_hooks.empty() && !cellHooksSuspended())
            out = callHooked(args, [this](const std::vector<Value>& in) {
                return hasBprop() ? callWithBprop(in) : construct(in);
            });
        else
            out = hasBprop() ? callWithBprop(args) : construct(args);
    }
    return castOutput(out);
}

std::vector<Value> castCellInputs(const Cell& cell, const std::vector<Value>& args)
{
    const std::optional<DType> to = cell.mixedPrecision();
    if (!to)
        return args;
    std::vector<Value> out;
    out.reserve(args.size());
    for (const Value& a : args)
        out.push_back(castFloats(a, *to));
    return out;
}

Value Cell::castOutput(const Value& out) const
{
    return m_outputCast ? castFloats(out, *m_outputCast) : out;
}

Value Cell::callHooked(const std::vector<Value>& given, const std::function<Value(const std::vector<Value>&)>& body)
{
    const std::vector<Value> args = m_hooks.beforeCall(given);
    CellHooks::BackwardScope backward(m_hooks, m_className);
    const TensorList wrapped = backward.wrap(Value::tuple(args).leaves());
    std::size_t next = 0;
    std::vector<Value> inner;
    for (const Value& arg : args)
        inner.push_back(replaceLeaves(arg, wrapped, next));
    Value out = body(inner);
    const TensorList finished = backward.finish(out.leaves());
    next = 0;
    out = replaceLeaves(out, finished, next);
    return m_hooks.afterCall(args, std::move(out));
}

const Tensor& Cell::tensorArg(const std::vector<Value>& args, std::size_t index,
                              std::size_t count) const
{
    if (args.size() != count)
        throw TypeError("for '" + m_className + "', construct takes " + std::to_string(count)
                        + " input" + (count == 1 ? "" : "s") + ", got "
                        + std::to_string(args.size()));
    if (!args[index].isTensor())
        throw TypeError("for '" + m_className + "', input " + std::to_string(index)
                        + " must be a Tensor, got " + (args[index].isNone() ? "None" : "a tuple"));
    return args[index].tensor();
}

std::function<Value(const std::vector<Value>&)> Cell::asFunction()
{
    return [this](const std::vector<Value>& args) { return (*this)(args); };
}

// Note [Custom bprop]
// A Cell with a bprop is ONE node on the tape, as MindSpore records it. construct runs with
// recording off (its ops still execute and still emit forward events); then a node is recorded
// over the Tensor leaves of the arguments, whose outputs are aliases (same storage, new autodiff
// link) of construct's Tensor leaves. Backward calls bprop(args, out, dout) with the saved inputs
// and uses its gradients verbatim. bprop is written with ops on inputs that keep their autodiff
// links, so grad of grad differentiates bprop itself. Parameters used inside construct get no
// gradient from this Cell (SEMANTICS.md §5.1: bprop gives input gradients only); asked for, they
// get zeros. The node holds the Cell, so such a Cell must be owned by a std::shared_ptr.
Value Cell::callWithBprop(const std::vector<Value>& args)
{
    Value out;
    {
        NoGradGuard noGrad;
        out = construct(args);
    }
    TensorList inputs = Value::tuple(args).leaves();
    const bool anyGrad =
        std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.requiresGrad(); });
    if (!executionContext().recording() || !anyGrad)
        return out;
    std::shared_ptr<Cell> self = weak_from_this().lock();
    if (!self)
        throw RuntimeError("Cell '" + m_className + "' has a custom bprop, so it must be owned by "
                           + "a std::shared_ptr (its tape node keeps it alive until backward)");
    TensorList aliases;
    for (const Tensor& t : out.leaves())
        aliases.push_back(t.detach());
    auto backward = [self, args, out](const BackwardContext& ctx, std::span<const Tensor> grads) {
        TensorList saved;
        for (std::size_t i = 0; i < ctx.inputCount(); ++i)
            saved.push_back(ctx.input(i));
        TensorList outputs;
        for (std::size_t i = 0; i < grads.size(); ++i)
            outputs.push_back(ctx.output(i));
        std::size_t next = 0;
        std::vector<Value> savedArgs;
        for (const Value& arg : args)
            savedArgs.push_back(replaceLeaves(arg, saved, next));
        next = 0;
        Value savedOut = replaceLeaves(out, outputs, next);
        next = 0;
        Value dout = replaceLeaves(out, grads, next);
        return bpropGradients(self->className(), args, self->bprop(savedArgs, savedOut, dout));
    };
    recordCustom("CustomBprop", inputs, aliases, std::move(backward));
    std::size_t next = 0;
    return replaceLeaves(out, aliases, next);
}

void Cell::addChild(const std::string& name, CellPtr child)
{
    if (!child)
        throw TypeError("Cell '" + m_className + "': child '" + name + "' is null");
    if (name.empty() || name.find('.') != std::string::npos)
        throw ValueError("Cell '" + m_className
                         + "': a child name must be non-empty without '.', got '" + name + "'");
    child->m_attributeName = name;
    if (m_autoPrefix)
        for (auto& [path, parameter] : child->parametersAndNames())
            parameter.setName(name + "." + path);
    for (auto& entry : m_children)
        if (entry.first == name) {
            entry.second = std::move(child);
            return;
        }
    m_children.emplace_back(name, std::move(child));
}

Parameter Cell::registerParameter(const std::string& name, Parameter parameter)
{
    if (!parameter.defined())
        throw TypeError("Cell '" + m_className + "': parameter '" + name + "' is undefined");
    if (name.empty() || name.find('.') != std::string::npos)
        throw ValueError("Cell '" + m_className
                         + "': a parameter name must be non-empty without '.', got '" + name + "'");
    parameter.setName(name);
    for (auto& entry : m_parameters)
        if (entry.first == name) {
            entry.second = parameter;
            return parameter;
        }
    m_parameters.emplace_back(name, parameter);
    return parameter;
}

CellPtr Cell::child(const std::string& name) const
{
    for (const auto& [childName, cell] : m_children)
        if (childName == name)
            return cell;
    return nullptr;
}

namespace {

template <class Entries> bool eraseNamed(Entries& entries, const std::string& name)
{
    const auto found = std::find_if(entries.begin(), entries.end(), [&name](const auto& e) { return e.first == name; });
    if (found == entries.end())
        return false;
    entries.erase(found);
    return true;
}

} // namespace

bool Cell::removeChild(const std::string& name) { return eraseNamed(m_children, name); }

bool Cell::removeParameter(const std::string& name) { return eraseNamed(m_parameters, name); }

void Cell::collectParameters(const std::string& prefix,
                             std::vector<std::pair<std::string, Parameter>>& out) const
{
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    for (const auto& item : m_parameters) {
        const Parameter& parameter = item.second;
        const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& entry) {
            return entry.second.sameAs(parameter);
        });
        if (!seen)
            out.emplace_back(prefix + item.first, parameter);
    }
    for (const auto& [name, cell] : m_children)
        cell->collectParameters(prefix + name + ".", out);
}

std::vector<std::pair<std::string, Parameter>> Cell::parametersAndNames() const
{
    std::vector<std::pair<std::string, Parameter>> out;
    collectParameters("", out);
    return out;
}

ParameterTuple Cell::getParameters() const
{
    ParameterTuple out;
    for (auto& entry : parametersAndNames())
        out.push_back(entry.second);
    return out;
}

ParameterTuple Cell::trainableParams() const
{
    ParameterTuple out;
    for (auto& entry : parametersAndNames())
        if (entry.second.requiresGrad())
            out.push_back(entry.second);
    return out;
}

Parameter Cell::parameter(const std::string& path) const
{
    for (auto& entry : parametersAndNames())
        if (entry.first == path)
            return entry.second;
    throw ValueError("Cell '" + m_className + "' has no parameter '" + path + "'");
}

void Cell::setTrain(bool mode)
{
    m_training = mode;
    for (auto& entry : m_children)
        entry.second->setTrain(mode);
}

std::string Cell::toString() const
{
    const std::string extra = extraRepr();
    std::string info = m_className + "<";
    if (m_children.empty())
        return info + extra + ">";
    std::string sub = "\n";
    if (!extra.empty())
        sub += extra + "\n";
    for (const auto& [name, cell] : m_children)
        sub += "(" + name + "): " + cell->toString() + "\n";
    std::string indented;
    for (char c : sub)
        indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
    return info + indented + ">";
}

} // namespace gradstep
