// Value: what a differentiated function returns and takes: None, a Tensor, or a tuple of Values.
// Mirrors MindSpore's nested return structures (grad returns (G_in, G_w), aux tuples, ...).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <functional>
#include <variant>
#include <vector>

namespace gradstep {

class Value {
public:
    Value() = default;
    Value(Tensor tensor) : m_data(std::move(tensor)) {}
    Value(std::vector<Value> items) : m_data(std::move(items)) {}
    static Value tuple(std::vector<Value> items) { return Value(std::move(items)); }

    bool isNone() const { return std::holds_alternative<std::monostate>(m_data); }
    bool isTensor() const { return std::holds_alternative<Tensor>(m_data); }
    bool isTuple() const { return std::holds_alternative<std::vector<Value>>(m_data); }
    /// TypeError when this is not a Tensor.
    const Tensor& tensor() const;
    /// TypeError when this is not a tuple.
    const std::vector<Value>& items() const;
    std::size_t size() const { return isTuple() ? items().size() : 0; }
    const Value& operator[](std::size_t i) const;

    /// Every Tensor leaf, depth first.
    TensorList leaves() const;
    /// The same tree with every Tensor leaf replaced by f(leaf); None stays None.
    Value map(const std::function<Tensor(const Tensor&)>& f) const;
    /// "(Tensor(...), (Tensor(...),))".
    std::string toString() const;

private:
    std::variant<std::monostate, Tensor, std::vector<Value>> m_data;
};

} // namespace gradstep
