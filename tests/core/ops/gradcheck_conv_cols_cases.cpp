// Gradient-check cases of the ops over saved col matrices (ops/nn/conv_cols_ops.h), first and
// second order; each output is squared so the second-order check runs the backward rules'
// own backward rules. SPDX-License-Identifier: MIT
#include "ops/nn/conv_cols_ops.h"
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

Tensor squared(const Tensor& y) { return mul(y, y); }

std::vector<GradCheckCase> colsCases()
{
    // x (2, 2, 5, 6), w (3, 2, 3, 2): stride 2 with padding (1, 0, 2, 1) gives 2 x 4 outputs and
    // 12-row col matrices; stride 1 valid with dilation (1, 2) gives 3 x 4 outputs.
    const Attrs padded = convAttrs(convOptions({2, 2}, "pad", {1, 0, 2, 1}, {1, 1}));
    const Attrs dilated = convAttrs(convOptions({1, 1}, "valid", {0}, {1, 2}));
    const Shape x{2, 2, 5, 6}, w{3, 2, 3, 2};
    return {
        {"Conv2DWithCols", "stride 2, explicit padding, both outputs as functions of x and w",
         [=](const TensorList& v) {
             const auto [y, cols] = conv2dWithColsWithAttrs(v[0], v[1], padded);
             return add(reduceSum(squared(y)), reduceSum(mul(cols, cols)));
         },
         {sample(x, -1, 1, 67), sample(w, -1, 1, 68)}},
        {"Im2Col", "stride 2, explicit padding (1, 0, 2, 1)",
         [=](const TensorList& v) { return squared(im2colWithAttrs(v[0], w, padded)); },
         {sample(x, -1, 1, 61)}},
        {"Col2Im", "dilation (1, 2), valid: overlapping windows add up",
         [=](const TensorList& v) { return squared(col2imWithAttrs(v[0], x, w, dilated)); },
         {sample({2, 12, 12}, -1, 1, 62)}},
        {"Conv2DFromCols", "stride 2, explicit padding, as a function of cols and w",
         [=](const TensorList& v) { return squared(conv2dFromColsWithAttrs(v[0], v[1], x, padded)); },
         {sample({2, 12, 8}, -1, 1, 63), sample(w, -1, 1, 64)}},
        {"Conv2DBackpropFilterFromCols", "dilation (1, 2), as a function of dy and cols",
         [=](const TensorList& v) { return squared(conv2dBackpropFilterFromColsWithAttrs(v[0], v[1], x, w, dilated)); },
         {sample({2, 3, 3, 4}, -1, 1, 65), sample({2, 12, 12}, -1, 1, 66)}},
    };
}

const GradCheckRegistrar registrar(colsCases());

} // namespace
