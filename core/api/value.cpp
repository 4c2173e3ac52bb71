// Value trees. SPDX-License-Identifier: MIT
#include "api/value.h"

namespace gradstep {

const Tensor& Value::tensor() const
{
    if (const Tensor* t = std::get_if<Tensor>(&m_data))
        return *t;
    throw TypeError(std::string("expected a Tensor, got ") + (isNone() ? "None" : "a tuple"));
}

const std::vector<Value>& Value::items() const
{
    if (const auto* v = std::get_if<std::vector<Value>>(&m_data))
        return *v;
    throw TypeError(std::string("expected a tuple, got ") + (isNone() ? "None" : "a Tensor"));
}

const Value& Value::operator[](std::size_t i) const
{
    const auto& v = items();
    if (i >= v.size())
        throw IndexError("tuple index " + std::to_string(i) + " out of range for a tuple of "
                         + std::to_string(v.size()));
    return v[i];
}

TensorList Value::leaves() const
{
    TensorList out;
    if (isTensor())
        out.push_back(tensor());
    else if (isTuple())
        for (const Value& item : items()) {
            TensorList sub = item.leaves();
            out.insert(out.end(), sub.begin(), sub.end());
        }
    return out;
}

Value Value::map(const std::function<Tensor(const Tensor&)>& f) const
{
    if (isTensor())
        return Value(f(tensor()));
    if (!isTuple())
        return Value();
    std::vector<Value> mapped;
    for (const Value& item : items())
        mapped.push_back(item.map(f));
    return Value::tuple(std::move(mapped));
}

std::string Value::toString() const
{
    if (isNone())
        return "None";
    if (isTensor())
        return tensor().toString();
    std::string s = "(";
    const auto& v = items();
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + v[i].toString();
    return s + (v.size() == 1 ? ",)" : ")");
}

} // namespace gradstep
