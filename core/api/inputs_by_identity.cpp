// Note [Inputs by identity]. SPDX-License-Identifier: MIT
#include "api/inputs_by_identity.h"

#include "ops/elementwise.h"

#include <algorithm>
#include <cstdint>

namespace gradstep {

std::vector<std::size_t> identityOwners(const std::vector<Value>& args)
{
    std::vector<std::size_t> owner(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        owner[i] = i;
        for (std::size_t j = args.size(); j-- > i + 1 && args[i].isTensor();)
            if (args[j].isTensor() && args[j].tensor().sameAs(args[i].tensor())) {
                owner[i] = j;
                break;
            }
    }
    return owner;
}

GradResult differentiateByIdentity(const std::vector<Value>& args, const GradRequest& request,
                                   const std::function<GradResult(const GradRequest&)>& engine)
{
    const std::vector<std::size_t> owner = identityOwners(args);
    GradRequest wide = request;
    for (std::int64_t p : request.positions)
        for (std::size_t q = 0; q < args.size(); ++q)
            if (owner[q] == owner[static_cast<std::size_t>(p)]
                && std::find(wide.positions.begin(), wide.positions.end(), static_cast<std::int64_t>(q))
                       == wide.positions.end())
                wide.positions.push_back(static_cast<std::int64_t>(q));
    if (wide.positions.size() == request.positions.size()
        && std::all_of(request.positions.begin(), request.positions.end(),
                       [&](std::int64_t p) { return owner[static_cast<std::size_t>(p)] == static_cast<std::size_t>(p); }))
        return engine(request);
    GradResult result = engine(wide);
    TensorList grads;
    for (std::int64_t p : request.positions) {
        const auto at = static_cast<std::size_t>(p);
        const Tensor& x = args[at].tensor();
        if (owner[at] != at) {
            grads.push_back(Tensor::zeros(x.shape(), result.inputGrads[grads.size()].dtype()));
            continue;
        }
        Tensor sum;
        for (std::size_t k = 0; k < wide.positions.size(); ++k)
            if (owner[static_cast<std::size_t>(wide.positions[k])] == at)
                sum = sum.defined() ? add(sum, result.inputGrads[k]) : result.inputGrads[k];
        grads.push_back(sum);
    }
    result.inputGrads = std::move(grads);
    return result;
}

} // namespace gradstep
