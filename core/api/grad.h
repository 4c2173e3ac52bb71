// grad, value_and_grad and GradOperation with MindSpore 2.x semantics (SEMANTICS.md §1, §2):
// return structures, has_aux, sens, weights, and the errors MindSpore raises.
// SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/parameter.h"

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
    Value output;          ///< fn's full output
    Value aux;             ///< has_aux: tuple of outputs 1..n (stop-gradient), else None
    TensorList inputGrads; ///< one per requested position
    TensorList weightGrads;///< one per weight
};

struct GradRequest {
    std::vector<std::int64_t> positions;
    std::vector<Parameter> weights;
    bool hasAux = false;
    bool sensParam = false;
};

/// Runs fn under a tape and differentiates it (the engine of every API above).
GradResult differentiate(const Function& fn, std::vector<Value> args, const GradRequest& request);

} // namespace gradstep
