// composedVjp (see composed_vjp.h): mindspore.grad with sens_param over the composed function.
// SPDX-License-Identifier: MIT
#include "ops/nn/composed_vjp.h"

#include "api/grad.h"

namespace gradstep {

TensorList composedVjp(const ComposedFn& composed, const TensorList& inputs, const TensorList& seeds)
{
    const std::size_t n = inputs.size();
    Function fn = [&](const std::vector<Value>& args) -> Value {
        TensorList in;
        for (std::size_t i = 0; i < n; ++i)
            in.push_back(args[i].tensor());
        const TensorList out = composed(in);
        std::vector<Value> items(out.begin(), out.end());
        return Value::tuple(std::move(items));
    };
    std::vector<Value> args(inputs.begin(), inputs.end());
    args.push_back(Value::tuple(std::vector<Value>(seeds.begin(), seeds.end())));
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < n; ++i)
        positions.push_back(static_cast<std::int64_t>(i));
    const Value grads = grad(fn, positions, {}, false, true)(args);
    TensorList result;
    for (std::size_t i = 0; i < n; ++i)
        result.push_back(grads.isTensor() ? grads.tensor() : grads[i].tensor()); // one position: a bare Tensor
    return result;
}

} // namespace gradstep
