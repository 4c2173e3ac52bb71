// The geometry and the shared gradient of the ops over saved col matrices (Note [Saved col
// matrices] in conv_cols_ops.h). SPDX-License-Identifier: MIT
#include "ops/nn/conv_cols_ops.h"

#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/shape_ops.h"

namespace gradstep {

ConvGeometry colsGeometry(const OpCall& call, const Shape& input, const Shape& weight)
{
    const ConvGeometry g = convGeometry(call, input, weight);
    if (g.group != 1)
        throwValueError(call, "supports group 1 only, got group " + std::to_string(g.group));
    return g;
}

Shape colsShape(const ConvGeometry& g) { return {g.batch, g.colRows(), g.colCols()}; }

void requireColsShape(const OpCall& call, std::size_t i, const ConvGeometry& g)
{
    const Shape& given = call.input(i).shape();
    if (!(given == colsShape(g)))
        throwShapeError(call, "col matrices have shape " + given.toString() + ", expected "
                                  + colsShape(g).toString() + " for input " + g.inputShape().toString()
                                  + " and weight " + g.weightShape().toString());
}

Tensor colsGradient(const Tensor& dy, const Tensor& weight)
{
    const Shape& w = weight.shape();
    const Shape& d = dy.shape();
    const Tensor flatWeight = reshape(weight, {w[0], w[1] * w[2] * w[3]});
    const Tensor flatGrad = reshape(dy, {d[0], d[1], d[2] * d[3]});
    Attrs attrs;
    attrs.set("transpose_a", true).set("transpose_b", false);
    return callOp1(kBatchMatMul, {flatWeight, flatGrad}, attrs);
}

} // namespace gradstep
