// grad, value_and_grad and GradOperation with MindSpore 2.x semantics (SEMANTICS.md §1, §2):
// return structures, has_aux, sens, weights, and the errors MindSpore raises.
// SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/parameter.h"
#include "ops/op_def.h"

#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

namespace gradstep {

using Function = std::function<Value(const std::vector<Value>& args)>;
using GradFunction = std::function<Value(const std::vector<Value>& args)>;

/// None, an int, or a tuple of ints (MindSpore's grad_position).
using GradPosition = std::variant<std::monostate, std::int64_t, std::vector<std::int64_t>>;
/// None, one Parameter, or a list / ParameterTuple.
using Weights = std::variant<std::monostate, Parameter, std::vector<Parameter>>;

/// mindspore.grad(fn, grad_position=0, weights=None, has_aux=False[, sens_param=False]).
GradFunction grad(Function fn, GradPosition gradPosition = std::int64_t{0}, Weights weights = {},
                  bool hasAux = false, bool sensParam = false);
/// mindspore.value_and_grad(...): returns (value, gradients); with has_aux value is the full output.
GradFunction valueAndGrad(Function fn, GradPosition gradPosition = std::int64_t{0}, Weights weights = {},
                          bool hasAux = false, bool sensParam = false);

/// The seeds of a sens_param call: the sens's leaves, checked against the differentiated outputs
/// leaf by leaf in count, shape and dtype with MindSpore's errors (PyNative and graph mode alike).
TensorList checkedSens(const Value& sens, const SpecList& roots);

/// mindspore.ops.GradOperation(get_all, get_by_list, sens_param).
class GradOperation {
public:
    explicit GradOperation(bool getAll = false, bool getByList = false, bool sensParam = false);
    /// grad_op(net) / grad_op(net, params); params are required when get_by_list is set.
    GradFunction operator()(Function fn, Weights weights = {}) const;

private:
    bool m_getAll;
    bool m_getByList;
    bool m_sensParam;
};

/// What one differentiation produced, before it is shaped into MindSpore's return structure.
struct GradResult {
    /// fn's full output; with has_aux the tuple (out0, aux...) with the aux leaves stop-gradient'ed
    Value output;
    Value aux;              ///< has_aux: tuple of outputs 1..n (stop-gradient'ed), else None
    TensorList inputGrads;  ///< one per requested position, in the requested order
    TensorList weightGrads; ///< one per weight, in the given order
};

struct GradRequest {
    std::vector<std::int64_t> positions; ///< already validated: no duplicates, none negative
    std::vector<Parameter> weights;
    bool hasAux = false;
    bool sensParam = false; ///< the last positional argument is the output's cotangent
};

/// The request a call with `args` (the sens included when sensParam) really makes: positions past
/// the last input raise (IndexError in graph mode, RuntimeError in PyNative, MindSpore's engine
/// text), and positions holding a number, tuple or None are dropped, as MindSpore's engines skip
/// inputs that are not tensors.
GradRequest effectiveRequest(const GradRequest& request, const std::vector<Value>& args);

/// has_aux: output 0 stays, outputs 1..n become the aux (stop-gradient'ed); ValueError with fewer
/// than two outputs (the PyNative engine and vmap's batched gradients alike).
void splitAux(GradResult& result);
/// Each tensor's shape and dtype.
SpecList specsOf(const TensorList& tensors);
/// Runs fn under a tape and differentiates it (the engine of every API above), for
/// effectiveRequest(request, args). Errors: those of effectiveRequest; RuntimeError inside a
/// no-grad region and for a sens with the wrong number of tensors; ValueError for has_aux with
/// fewer than two outputs and for a sens of the wrong shape; TypeError for a sens of the wrong
/// dtype.
GradResult differentiate(const Function& fn, std::vector<Value> args, const GradRequest& request);

/// differentiate()'s own engine, after its checks: fn run under a tape, its outputs seeded (with
/// `sens` when request.sensParam, whose args no longer hold it) and the backward engine run. A
/// tracer that keeps ops running (forward mode's, core/api/jvp_tracer.h) differentiates this way.
GradResult differentiateOnTape(const Function& fn, std::vector<Value> args, const Value& sens,
                               const GradRequest& request);

/// Graph mode's engine for one gradient-function call: fn's arguments (the sens taken off), the
/// sens (None unless sensParam) and the request, after differentiate()'s own checks.
using GraphDifferentiator =
    std::function<GradResult(const std::vector<Value>& args, const Value& sens,
                             const GradRequest& request)>;

/// While alive, the next differentiate() on this thread hands its call to `engine` instead of
/// running fn under a tape (the Python layer compiles fn in graph mode this way); the engine is
/// used once, so differentiations inside it run as usual.
/// While graph mode compiles: a differentiation met by the op tracer, turned into graph nodes
/// (fn traced over symbolic arguments, its gradient graph inlined into the graph being built;
/// Note [Gradients inside compiled code] in python/jit/jit_gradient.cpp). Its results are
/// symbolic tensors of that graph.
using TraceDifferentiator =
    std::function<GradResult(const Function& fn, const std::vector<Value>& args,
                             const Value& sens, const GradRequest& request)>;

/// Installs `engine` for differentiate() calls made while an op tracer is installed on this
/// thread, for the guard's lifetime (the compiler holds one while it compiles).
class TraceDifferentiatorGuard {
public:
    explicit TraceDifferentiatorGuard(TraceDifferentiator engine);
    ~TraceDifferentiatorGuard();
    TraceDifferentiatorGuard(const TraceDifferentiatorGuard&) = delete;
    TraceDifferentiatorGuard& operator=(const TraceDifferentiatorGuard&) = delete;

private:
    TraceDifferentiator m_saved;
};

class GraphDifferentiatorGuard {
public:
    explicit GraphDifferentiatorGuard(GraphDifferentiator engine);
    ~GraphDifferentiatorGuard();
    GraphDifferentiatorGuard(const GraphDifferentiatorGuard&) = delete;
    GraphDifferentiatorGuard& operator=(const GraphDifferentiatorGuard&) = delete;

private:
    GraphDifferentiator m_saved;
};

} // namespace gradstep
