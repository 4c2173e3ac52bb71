// The what-if switches of a run as the gradient APIs apply them (run_overrides.h): has_aux forced
// on or off, value_and_grad run as the grad-only fallback, and grad-only calls run through
// value_and_grad. SPDX-License-Identifier: MIT
#include "python/bind/grad_adapter.h"

#include "python/host/run_context.h"
#include "python/bind/value_convert.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

Value tupleOf(const TensorList& tensors)
{
    return Value::tuple(std::vector<Value>(tensors.begin(), tensors.end()));
}

} // namespace

bool effectiveHasAux(bool asWritten)
{
    switch (currentRun().overrides.hasAux) {
    case HasAuxOverride::On: return true;
    case HasAuxOverride::Off: return false;
    case HasAuxOverride::AsWritten: break;
    }
    return asWritten;
}

// The value is fn's output as the script's own `loss = fn(...)` would see it: the aux outputs are
// not stop-gradient'ed as value_and_grad's are, which matters only to an enclosing grad.
Value fallbackValueAndGrad(const py::object& fn, const PythonCall& call, const py::args& args,
                           const py::kwargs& kwargs, const GradPosition& position,
                           const Weights& weights, bool hasAux)
{
    const Value value = toValue(fn(*args, **kwargs), "the function given to value_and_grad");
    const Value grads = grad(call.function(), position, weights, hasAux)(call.values());
    return Value::tuple({value, hasAux ? grads[0] : grads});
}

Value gradViaValueAndGrad(const PythonCall& call, const GradPosition& position,
                          const Weights& weights, bool hasAux)
{
    const Value out = valueAndGrad(call.function(), position, weights, hasAux)(call.values());
    if (!hasAux)
        return out[1];
    const std::vector<Value>& outputs = out[0].items();
    std::vector<Value> aux(outputs.begin() + 1, outputs.end());
    return Value::tuple({out[1], Value::tuple(std::move(aux))});
}

// GradOperation's positions are those core/api/grad.cpp picks: every Tensor input with get_all,
// input 0 with neither flag; value_and_grad takes them as a tuple, so even one position comes
// back as a bare Tensor and is re-wrapped where GradOperation returns a tuple.
std::optional<Value> gradOperationViaValueAndGrad(const PythonCall& call,
                                                  const GradOperationFlags& flags,
                                                  const Weights& weights)
{
    const std::vector<Value>& args = call.values();
    const std::size_t inputs = args.size() - (flags.sensParam && !args.empty() ? 1 : 0);
    std::vector<std::int64_t> positions;
    if (flags.getAll) {
        for (std::size_t i = 0; i < inputs; ++i)
            if (args[i].isTensor())
                positions.push_back(static_cast<std::int64_t>(i));
    } else if (!flags.getByList && inputs > 0) {
        positions.push_back(0);
    }
    const bool byPosition = flags.getAll || !flags.getByList;
    if (byPosition && positions.empty())
        return std::nullopt;
    const GradPosition position = byPosition ? GradPosition(positions) : GradPosition();
    const Weights used = flags.getByList ? weights : Weights();
    const Value grads =
        valueAndGrad(call.function(), position, used, false, flags.sensParam)(args)[1];
    if (!byPosition)
        return grads;
    const Value byInput = flags.getByList ? grads[0] : grads;
    const Value inputPart = positions.size() == 1 ? tupleOf({byInput.tensor()}) : byInput;
    if (flags.getByList)
        return Value::tuple({inputPart, grads[1]});
    return flags.getAll ? inputPart : Value(inputPart[0]);
}

} // namespace gradstep::python
