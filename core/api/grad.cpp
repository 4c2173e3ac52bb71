// grad, value_and_grad, GradOperation: argument checks and MindSpore's return structures
// (SEMANTICS.md §1.3, §1.4, §2). The differentiation itself is in differentiate.cpp.
// SPDX-License-Identifier: MIT
#include "api/grad.h"

#include "api/grad_events.h"
#include "autodiff/context.h"

#include <set>

namespace gradstep {

namespace {

// Note [MindSpore's messages]: the errors MindSpore raises from Python keep their exact text
// (grad_func.py, _convert_grad_position_type and grad), so a user sees the words MindSpore prints.
// Its TypeErrors for a bool, a non-int or a list as grad_position cannot occur here: the C++ type
// of GradPosition admits only None, an int or a tuple of ints. The range check against the
// arguments needs them, so it runs on each call (effectiveRequest in differentiate.cpp).
std::vector<std::int64_t> positionsOf(const GradPosition& position)
{
    if (const auto* i = std::get_if<std::int64_t>(&position)) {
        if (*i < 0)
            throw ValueError("grad_position must be >= 0.");
        return {*i};
    }
    const auto* tuple = std::get_if<std::vector<std::int64_t>>(&position);
    if (!tuple)
        return {};
    // MindSpore looks for duplicates before it looks at the values, so (-1, -1) is a duplicate.
    if (std::set<std::int64_t>(tuple->begin(), tuple->end()).size() != tuple->size())
        throw ValueError("There are duplicate positions in `grad_position`, please check it");
    for (std::int64_t p : *tuple)
        if (p < 0)
            throw ValueError("The element in grad_position must be >= 0.");
    return *tuple;
}

std::vector<Parameter> weightList(const Weights& weights)
{
    if (const auto* p = std::get_if<Parameter>(&weights))
        return {*p};
    if (const auto* v = std::get_if<std::vector<Parameter>>(&weights))
        return *v;
    return {};
}

Value tupleOf(const TensorList& tensors)
{
    std::vector<Value> items(tensors.begin(), tensors.end());
    return Value::tuple(std::move(items));
}

// By position, one gradient is a bare Tensor whether the position was `i` or `(i,)`: grad turns
// an int into a 1-tuple before dispatch, and the engine unwraps any single position
// (AutoDiff::GetInputGrads: `get_by_position && size == 1`). SEMANTICS.md marks the 1-tuple
// row INFERRED; the engine source settles it.
Value positionPart(const TensorList& grads)
{
    return grads.size() == 1 ? Value(grads[0]) : tupleOf(grads);
}

// A single Parameter gives a bare Tensor, a list or ParameterTuple a tuple even of one
// (GetWeightsArgs clears weight_param_is_tuple only for a lone Parameter). SEMANTICS.md marks the
// single-Parameter row UNCONFIRMED; this is what the PyNative engine source does.
Value weightPart(const TensorList& grads, const Weights& weights)
{
    return std::holds_alternative<Parameter>(weights) ? Value(grads[0]) : tupleOf(grads);
}

bool isNone(const GradPosition& p) { return std::holds_alternative<std::monostate>(p); }

// Runs one differentiation as a reported gradient-function call (grad_events.h); `withValue`:
// the API hands fn's output back, so the finished event carries it.
GradResult reportedCall(const Function& fn, const std::vector<Value>& args,
                        const GradRequest& given, bool withValue)
{
    const GradRequest request = effectiveRequest(given, args);
    GradCallScope call(request.positions, request.weights);
    GradResult result;
    try {
        result = differentiate(fn, args, request);
    } catch (...) {
        call.fail();
        throw;
    }
    // Only an observer can use the probe; a sens call's objective would need the sens.
    if (request.sensParam || !executionContext().observer) {
        call.finish(withValue ? &result.output : nullptr, result.inputGrads, result.weightGrads);
        return result;
    }
    // What the engine differentiated: every element of fn's output (the first with has_aux)
    // seeded with one, i.e. the sum of those elements.
    GradCallProbe probe;
    probe.args = &args;
    probe.objective = [&fn, &request](const std::vector<Value>& at) {
        NoGradGuard noGrad;
        const Value out = fn(at);
        const Value& differentiated = request.hasAux && out.isTuple() && out.size() > 0 ? out[0] : out;
        double total = 0.0;
        for (const Tensor& t : differentiated.leaves())
            for (double v : t.toDoubles())
                total += v;
        return total;
    };
    call.finish(withValue ? &result.output : nullptr, result.inputGrads, result.weightGrads, &probe);
    return result;
}
bool isNone(const Weights& w) { return std::holds_alternative<std::monostate>(w); }

// The return-structure table of SEMANTICS.md §1.4 shared by grad and value_and_grad.
Value shapeGradients(const GradResult& r, const GradPosition& position, const Weights& weights)
{
    if (isNone(position))
        return weightPart(r.weightGrads, weights);
    if (isNone(weights))
        return positionPart(r.inputGrads);
    return Value::tuple({positionPart(r.inputGrads), weightPart(r.weightGrads, weights)});
}

GradFunction makeGradFunction(Function fn, GradPosition position, Weights weights, bool hasAux,
                              bool sensParam, bool getValue)
{
    if (isNone(position) && isNone(weights))
        throw ValueError("`grad_position` and `weight` can not be None at the same time.");
    GradRequest request{positionsOf(position), weightList(weights), hasAux, sensParam};
    return [=](const std::vector<Value>& args) -> Value {
        // MindSpore's engine rejects `grad_position=()` when the function is called.
        if (!isNone(position) && request.positions.empty())
            throw RuntimeError("grad_position should not be empty when grad by position!");
        GradResult r = reportedCall(fn, args, request, getValue);
        Value grads = shapeGradients(r, position, weights);
        if (getValue)
            return Value::tuple({r.output, grads});
        return hasAux ? Value::tuple({grads, r.aux}) : grads;
    };
}

} // namespace

GradFunction grad(Function fn, GradPosition gradPosition, Weights weights, bool hasAux, bool sensParam)
{
    return makeGradFunction(std::move(fn), std::move(gradPosition), std::move(weights), hasAux,
                            sensParam, false);
}

GradFunction valueAndGrad(Function fn, GradPosition gradPosition, Weights weights, bool hasAux,
                          bool sensParam)
{
    return makeGradFunction(std::move(fn), std::move(gradPosition), std::move(weights), hasAux,
                            sensParam, true);
}

GradOperation::GradOperation(bool getAll, bool getByList, bool sensParam)
    : m_getAll(getAll), m_getByList(getByList), m_sensParam(sensParam)
{
}

// GradOperation differs from grad by position in one place: get_all gives a tuple even for a
// one-input network (the engine unwraps single gradients only when get_by_position is set).
// get_all covers the Tensor inputs only: ints, flags and None given to a network are constants
// with no gradient slot (INFERRED: MindSpore's engine collects gradients for tensor inputs).
// get_by_list without parameters is refused here; the Python binding passes a Cell's trainable
// parameters instead, as MindSpore 2.x does (bind_grad.cpp).
GradFunction GradOperation::operator()(Function fn, Weights weights) const
{
    if (m_getByList && isNone(weights))
        throw TypeError("For 'GradOperation', 'get_by_list' is set, so the network's parameters "
                        "must be given: grad_op(net, params)");
    const bool getAll = m_getAll, getByList = m_getByList;
    GradRequest request;
    request.weights = getByList ? weightList(weights) : std::vector<Parameter>{};
    request.sensParam = m_sensParam;
    return [=](const std::vector<Value>& args) -> Value {
        GradRequest r = request;
        const std::size_t inputs = args.size() - (r.sensParam && !args.empty() ? 1 : 0);
        if (getAll) {
            for (std::size_t i = 0; i < inputs; ++i)
                if (args[i].isTensor())
                    r.positions.push_back(static_cast<std::int64_t>(i));
        } else if (!getByList && inputs > 0 && args[0].isTensor()) {
            r.positions.push_back(0);
        }
        GradResult result = reportedCall(fn, args, r, false);
        if (getAll && getByList)
            return Value::tuple({tupleOf(result.inputGrads), weightPart(result.weightGrads, weights)});
        if (getByList)
            return weightPart(result.weightGrads, weights);
        // Neither flag and no (tensor) inputs: MindSpore returns an empty tuple (AutoDiff::GetGrads).
        if (getAll || result.inputGrads.empty())
            return tupleOf(result.inputGrads);
        return Value(result.inputGrads[0]);
    };
}

} // namespace gradstep
