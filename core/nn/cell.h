// Cell: the building block of networks, read like MindSpore's nn.Cell: named children and
// parameters in registration order, hierarchical parameter names, train/eval mode, scope paths
// for the nodes its ops record, and custom bprop. SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/cell_hooks.h"
#include "nn/parameter.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gradstep {

class Cell;
using CellPtr = std::shared_ptr<Cell>;

class Cell : public std::enable_shared_from_this<Cell> {
public:
    /// className names the Cell in scope paths ("LeNet5"). autoPrefix=false keeps the parameter
    /// names of registered children unchanged (MindSpore's WithLossCell, TrainOneStepCell).
    explicit Cell(std::string className, bool autoPrefix = true);
    virtual ~Cell() = default;
    Cell(const Cell&) = delete;
    Cell& operator=(const Cell&) = delete;

    /// The forward computation. Called through operator(), never directly, so scopes are set.
    virtual Value construct(const std::vector<Value>& args) = 0;
    /// A Cell that returns true records its construct as one node whose backward is bprop().
    virtual bool hasBprop() const { return false; }
    /// One gradient per positional input (a tuple of args.size() items); out is construct's
    /// result, dout the gradient flowing into it. See Note [Custom bprop] in cell.cpp.
    virtual Value bprop(const std::vector<Value>& args, const Value& out, const Value& dout);

    /// Runs construct inside this Cell's scope (class name at top level, attribute name below).
    Value operator()(const std::vector<Value>& args);
    Value operator()(const Tensor& x) { return (*this)(std::vector<Value>{x}); }
    Value operator()(const Tensor& x, const Tensor& y) { return (*this)(std::vector<Value>{x, y}); }
    /// This Cell as a function for grad / value_and_grad; the Cell must outlive the function.
    std::function<Value(const std::vector<Value>&)> asFunction();

    const std::string& className() const { return m_className; }
    /// The attribute name this Cell was registered under ("conv1"); empty when never registered.
    const std::string& attributeName() const { return m_attributeName; }

    /// Registers a child under an attribute name; with autoPrefix its parameters are renamed
    /// "<name>.<path inside the child>". Registering a name twice replaces the child in place.
    template <class C>
    std::shared_ptr<C> registerChild(const std::string& name, std::shared_ptr<C> child)
    {
        addChild(name, child);
        return child;
    }
    /// Registers a parameter under an attribute name; the Parameter is renamed to `name`.
    Parameter registerParameter(const std::string& name, Parameter parameter);

    const std::vector<std::pair<std::string, CellPtr>>& children() const { return m_children; }
    /// The child registered under name, or null.
    CellPtr child(const std::string& name) const;
    /// Unregisters the child / parameter registered under name (`del net.name`); false when
    /// there is none. The others keep their names and order.
    bool removeChild(const std::string& name);
    bool removeParameter(const std::string& name);
    /// (attribute path, parameter) for this Cell and every descendant, depth first in
    /// registration order; a Parameter reachable twice is listed once.
    std::vector<std::pair<std::string, Parameter>> parametersAndNames() const;
    ParameterTuple getParameters() const;
    /// The parameters that require grad (MindSpore's trainable_params()).
    ParameterTuple trainableParams() const;
    /// The parameter whose attribute path is `path` ("conv1.weight"); ValueError when absent.
    Parameter parameter(const std::string& path) const;

    /// Sets training mode on this Cell and every descendant (Dropout is identity when false).
    void setTrain(bool mode = true);
    bool training() const { return m_training; }

    /// The dtype its ops compute in (MindSpore's Cell.to_float: Float16, BFloat16 or Float32), or
    /// unset to run in the enclosing Cell's (see Note [Mixed precision] in ops/dispatch.cpp).
    std::optional<DType> mixedPrecision() const { return m_mixedPrecision; }
    void setMixedPrecision(std::optional<DType> dtype) { m_mixedPrecision = dtype; }
    /// The dtype its float outputs are cast to after each call (amp's O1 casts a white-listed
    /// Cell's float16 result back to float32), or unset to return them as computed.
    std::optional<DType> outputCast() const { return m_outputCast; }
    void setOutputCast(std::optional<DType> dtype) { m_outputCast = dtype; }
    /// out with its float tensors cast to outputCast() (out itself when unset).
    Value castOutput(const Value& out) const;

    /// Forward pre-, forward and backward hooks run around every call (cell_hooks.h).
    CellHooks& hooks() { return m_hooks; }
    /// body (the Cell's computation) run with this Cell's hooks around it; operator() uses it,
    /// and so does a Python Cell whose construct runs from Python.
    Value callHooked(const std::vector<Value>& args, const std::function<Value(const std::vector<Value>&)>& body);

    /// MindSpore's repr: "Dense<input_channels=2, ...>", children indented below their parent.
    std::string toString() const;

protected:
    /// args[index] as a Tensor, after checking that construct got `count` inputs (TypeError naming
    /// this Cell otherwise).
    const Tensor& tensorArg(const std::vector<Value>& args, std::size_t index,
                            std::size_t count) const;
    /// The details shown between the angle brackets of toString() (MindSpore's extend_repr).
    virtual std::string extraRepr() const { return {}; }

private:
    void addChild(const std::string& name, CellPtr child);
    void collectParameters(const std::string& prefix,
                           std::vector<std::pair<std::string, Parameter>>& out) const;
    Value callWithBprop(const std::vector<Value>& args);

    std::string m_className;
    std::string m_attributeName;
    bool m_autoPrefix;
    bool m_training = false;
    std::vector<std::pair<std::string, CellPtr>> m_children;
    std::vector<std::pair<std::string, Parameter>> m_parameters;
    CellHooks m_hooks;
    std::optional<DType> m_mixedPrecision;
    std::optional<DType> m_outputCast;
};

} // namespace gradstep
