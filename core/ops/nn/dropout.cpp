// dropout (Dropout): two outputs, as MindSpore's primitive has: y = x * mask / keep_prob and the
// mask itself (0 or 1, x's dtype). mask_i = 1 when u_i < keep_prob, u_i the i-th uniform draw of a
// Generator seeded with `seed`: the same seed and shape always give the same mask.
//   dL/dx = G * mask / keep_prob       (the mask is a constant; no gradient flows through output 1)
// keep_prob must lie in (0, 1]; 1 keeps everything. A dropped NaN or Inf gives NaN (x * 0), as a
// multiply does.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"
#include "random/generator.h"

namespace gradstep {

namespace {
double keepProb(const OpCall& call)
{
    const double p = call.attrs.getFloat("keep_prob");
    if (!(p > 0.0 && p <= 1.0))
        throwValueError(call, "keep_prob must be in (0, 1], got " + attrValueToString(p));
    return p;
}

void inferDropout(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    keepProb(call);
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardDropout(const OpCall& call, std::span<Tensor> outputs)
{
    const double p = keepProb(call);
    Generator generator(static_cast<std::uint64_t>(call.attrs.getInt("seed", 0)));
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* x = call.input(0).data<T>();
        T* y = outputs[0].data<T>();
        T* mask = outputs[1].data<T>();
        const T scale = static_cast<T>(1.0 / p);
        for (std::int64_t i = 0, n = call.input(0).numel(); i < n; ++i) {
            mask[i] = generator.uniform() < p ? T(1) : T(0);
            y[i] = x[i] * mask[i] * scale;
        }
    });
}

TensorList backwardDropout(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    // The saved mask without its autodiff link: it does not depend on x.
    const Tensor mask = ctx.output(1).detach();
    const double p = ctx.attrs().getFloat("keep_prob");
    return {mul(grads[0], mul(mask, scalarLike(1.0 / p, mask)))};
}
} // namespace

const OpDef kDropout{"Dropout", "dropout", OpKind::NN, 1, 1, inferDropout, forwardDropout, backwardDropout,
                     false, ~std::uint64_t{0}, false, /*random=*/true};

TensorList dropoutWithMask(const Tensor& x, double keepProb, std::uint64_t seed)
{
    Attrs attrs;
    attrs.set("keep_prob", keepProb).set("seed", static_cast<std::int64_t>(seed));
    OutputList outputs = callOp(kDropout, std::span<const Tensor>(&x, 1), attrs);
    return {outputs[0], outputs[1]};
}

Tensor dropout(const Tensor& x, double keepProb, std::uint64_t seed) { return dropoutWithMask(x, keepProb, seed)[0]; }

} // namespace gradstep
