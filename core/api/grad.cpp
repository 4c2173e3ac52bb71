// grad, value_and_grad, GradOperation. SPDX-License-Identifier: MIT
#include "api/grad.h"

#include "autodiff/engine.h"
#include "autodiff/tape.h"
#include "ops/autodiff_ops.h"
#include "ops/shape_ops.h"

#include <algorithm>

namespace gradstep {

namespace {

// A grad input gets its own node so that its gradient has a slot even when the caller's tensor
// is a plain constant, and so that an outer grad still sees it as a function of the caller's.
Tensor watchInput(const Tensor& x, std::int64_t position)
{
    if (!isFloating(x.dtype()))
        throw TypeError("grad_position " + std::to_string(position) + " refers to a "
                        + std::string(dtypeName(x.dtype())) + " tensor; only float tensors can be differentiated");
    Tensor out = x.detach();
    Tensor in[] = {x};
    Tensor outs[] = {out};
    recordCustom("Input" + std::to_string(position), in, outs,
                 [](const BackwardContext& ctx, std::span<const Tensor> grads) {
                     return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
                 });
    return outs[0];
}

std::vector<std::int64_t> normalizePositions(const GradPosition& position)
{
    if (const auto* i = std::get_if<std::int64_t>(&position)) {
        if (*i < 0)
            throw ValueError("For 'F.grad', the 'grad_position' should be >= 0, but got " + std::to_string(*i));
        return {*i};
    }
    if (const auto* v = std::get_if<std::vector<std::int64_t>>(&position)) {
        for (std::size_t a = 0; a < v->size(); ++a) {
            if ((*v)[a] < 0)
                throw ValueError("For 'F.grad', the element in 'grad_position' should be >= 0, but got "
                                 + std::to_string((*v)[a]));
            for (std::size_t b = 0; b < a; ++b)
                if ((*v)[a] == (*v)[b])
                    throw ValueError("There are duplicate positions in `grad_position`, got "
                                     + std::to_string((*v)[a]) + " twice");
        }
        return *v;
    }
    return {};
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

TensorList seedsFor(const TensorList& roots, const std::vector<Value>& sensArgs, bool sensParam)
{
    TensorList seeds;
    if (!sensParam) {
        for (const Tensor& r : roots)
            seeds.push_back(Tensor::full(r.shape(), 1.0, r.dtype()));
        return seeds;
    }
    seeds = sensArgs.front().leaves();
    if (seeds.size() != roots.size())
        throw ValueError("sens has " + std::to_string(seeds.size()) + " tensors but the function returns "
                         + std::to_string(roots.size()));
    for (std::size_t i = 0; i < seeds.size(); ++i)
        if (!(seeds[i].shape() == roots[i].shape()))
            throw ValueError("sens " + std::to_string(i) + " has shape " + seeds[i].shape().toString()
                             + " but output " + std::to_string(i) + " has shape " + roots[i].shape().toString());
    return seeds;
}

// The shaping rules of SEMANTICS.md §1.4 shared by grad and value_and_grad.
Value shapeGradients(const GradResult& r, const GradPosition& position, const Weights& weights)
{
    const bool byPosition = !std::holds_alternative<std::monostate>(position);
    const bool byList = !std::holds_alternative<std::monostate>(weights);
    Value inputs = r.inputGrads.size() == 1 ? Value(r.inputGrads[0]) : tupleOf(r.inputGrads);
    // A single Parameter (not a list) gives a bare Tensor: our reading of the UNCONFIRMED row.
    Value params = std::holds_alternative<Parameter>(weights) ? Value(r.weightGrads[0]) : tupleOf(r.weightGrads);
    if (byPosition && byList)
        return Value::tuple({inputs, params});
    return byPosition ? inputs : params;
}

GradFunction makeGradFunction(Function fn, GradPosition position, Weights weights, bool hasAux, bool sensParam,
                              bool getValue)
{
    if (std::holds_alternative<std::monostate>(position) && std::holds_alternative<std::monostate>(weights))
        throw ValueError("`grad_position` and `weight` can not be None at the same time.");
    GradRequest request{normalizePositions(position), weightList(weights), hasAux, sensParam};
    return [=](const std::vector<Value>& args) -> Value {
        GradResult r = differentiate(fn, args, request);
        Value grads = shapeGradients(r, position, weights);
        if (getValue)
            return Value::tuple({r.output, grads});
        return hasAux ? Value::tuple({grads, r.aux}) : grads;
    };
}

} // namespace

GradResult differentiate(const Function& fn, std::vector<Value> args, const GradRequest& request)
{
    std::vector<Value> sensArgs;
    if (request.sensParam) {
        if (args.empty())
            throw TypeError("sens_param is set, so the last argument must be the sensitivity");
        sensArgs.push_back(args.back());
        args.pop_back();
    }
    for (std::int64_t p : request.positions)
        if (p >= static_cast<std::int64_t>(args.size()))
            throw ValueError("For 'F.grad', the 'grad_position' " + std::to_string(p) + " is out of range: the function got "
                             + std::to_string(args.size()) + " positional inputs");
    Tape tape;
    TapeGuard guard(tape);
    TensorList targets;
    for (std::int64_t p : request.positions) {
        auto& slot = args[static_cast<std::size_t>(p)];
        slot = Value(watchInput(slot.tensor(), p));
        targets.push_back(slot.tensor());
    }
    for (const Parameter& w : request.weights)
        targets.push_back(w);
    GradResult result;
    result.output = fn(args);
    guard.release();

    TensorList roots;
    if (request.hasAux) {
        if (!result.output.isTuple() || result.output.size() < 2)
            throw ValueError("When 'has_aux' is True, origin 'fn' requires more than one outputs.");
        roots = result.output[0].leaves();
        std::vector<Value> aux;
        for (std::size_t i = 1; i < result.output.size(); ++i)
            aux.push_back(result.output[i]);
        result.aux = Value::tuple(std::move(aux));
    } else {
        roots = result.output.leaves();
    }
    TensorList seeds = seedsFor(roots, sensArgs, request.sensParam);
    TensorList grads = backward(tape, roots, seeds, targets);
    const auto split = grads.begin() + static_cast<std::ptrdiff_t>(request.positions.size());
    result.inputGrads.assign(grads.begin(), split);
    result.weightGrads.assign(split, grads.end());
    return result;
}

GradFunction grad(Function fn, GradPosition gradPosition, Weights weights, bool hasAux, bool sensParam)
{
    return makeGradFunction(std::move(fn), std::move(gradPosition), std::move(weights), hasAux, sensParam, false);
}

GradFunction valueAndGrad(Function fn, GradPosition gradPosition, Weights weights, bool hasAux, bool sensParam)
{
    return makeGradFunction(std::move(fn), std::move(gradPosition), std::move(weights), hasAux, sensParam, true);
}

GradOperation::GradOperation(bool getAll, bool getByList, bool sensParam)
    : m_getAll(getAll), m_getByList(getByList), m_sensParam(sensParam)
{
}

GradFunction GradOperation::operator()(Function fn, Weights weights) const
{
    if (m_getByList && std::holds_alternative<std::monostate>(weights))
        throw TypeError("For 'GradOperation', 'get_by_list' is set, so the network's parameters must be given");
    const bool getAll = m_getAll, getByList = m_getByList;
    GradRequest request{{}, getByList ? weightList(weights) : std::vector<Parameter>{}, false, m_sensParam};
    return [=](const std::vector<Value>& args) -> Value {
        GradRequest r = request;
        const std::size_t inputs = args.size() - (r.sensParam && !args.empty() ? 1 : 0);
        if (getAll)
            for (std::size_t i = 0; i < inputs; ++i)
                r.positions.push_back(static_cast<std::int64_t>(i));
        else if (!getByList)
            r.positions.push_back(0);
        GradResult result = differentiate(fn, args, r);
        if (getAll && getByList)
            return Value::tuple({tupleOf(result.inputGrads), tupleOf(result.weightGrads)});
        if (getAll)
            return tupleOf(result.inputGrads);
        if (getByList)
            return tupleOf(result.weightGrads);
        return Value(result.inputGrads[0]);
    };
}

} // namespace gradstep
