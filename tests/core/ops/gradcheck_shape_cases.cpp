// Gradient-check cases of the shape ops. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {
Tensor indices(const Shape& shape, const std::vector<double>& v, DType dtype = DType::Int64)
{
    return Tensor::fromDoubles(shape, v, dtype);
}
} // namespace

GRADCHECK_CASES({
    {"Reshape", "[2, 3] -> [3, -1]", [](const TensorList& x) { return mul(reshape(x[0], {3, -1}), reshape(x[0], {3, 2})); }, {sample({2, 3})}},
    {"BroadcastTo", "[3] -> [2, 3] and [2, 1] -> [2, 3]",
     [](const TensorList& x) { return mul(broadcastTo(x[0], {2, 3}), broadcastTo(x[1], {2, 3})); },
     {sample({3}, -1, 1, 1), sample({2, 1}, -1, 1, 2)}},
    {"Transpose", "perm (2, 0, 1) times another input",
     [](const TensorList& x) { return mul(transpose(x[0], {2, 0, 1}), x[1]); },
     {sample({2, 3, 4}, -1, 1, 1), sample({4, 2, 3}, -1, 1, 2)}},
    {"Transpose", "empty perm reverses, squared",
     [](const TensorList& x) { return mul(transpose(x[0]), transpose(x[0], {-1, 1, 0})); }, {sample({2, 3, 2})}},
    {"ExpandDims", "axis 1 broadcast against [2, 4, 3]",
     [](const TensorList& x) { return mul(expandDims(x[0], 1), mul(x[1], expandDims(x[0], -2))); },
     {sample({2, 3}, -1, 1, 1), sample({2, 4, 3}, -1, 1, 2)}},
    {"Squeeze", "one axis and all axes", [](const TensorList& x) { return mul(squeeze(x[0], {1}), squeeze(x[0])); },
     {sample({2, 1, 3})}},
    {"Flatten", "[2, 3, 2] -> [2, 6]", [](const TensorList& x) { return mul(flatten(x[0]), flatten(x[0])); },
     {sample({2, 3, 2})}},
    {"Concat", "two inputs along axis 1, in both orders",
     [](const TensorList& x) { return mul(concat({x[0], x[1]}, 1), concat({x[1], x[0]}, -1)); },
     {sample({2, 3}, -1, 1, 1), sample({2, 2}, -1, 1, 2)}},
    {"Concat", "three inputs along axis 0 with an integer input held constant",
     [](const TensorList& x) { return mul(concat({x[0], cast(x[1], DType::Float64), x[0]}, 0), concat({x[0], x[0], x[0]}, 0)); },
     {sample({1, 2}), indices({1, 2}, {2, 3}, DType::Int32)}},
    {"Stack", "axis 1 and axis -1",
     [](const TensorList& x) { return mul(stack({x[0], x[1]}, 1), transpose(stack({x[1], x[0]}, -1), {0, 2, 1})); },
     {sample({2, 3}, -1, 1, 1), sample({2, 3}, -1, 1, 2)}},
    {"Split", "equal parts multiplied together",
     [](const TensorList& x) {
         const TensorList p = split(x[0], 1, 2);
         return mul(p[0], p[1]);
     },
     {sample({2, 4})}},
    {"Split", "sizes with an unused part",
     [](const TensorList& x) {
         const TensorList p = splitSizes(x[0], 0, {1, -1, 2});
         return mul(p[0], mul(p[2], p[2]));
     },
     {sample({5, 2})}},
    {"StridedSlice", "positive and negative strides",
     [](const TensorList& x) {
         return mul(stridedSlice(x[0], {0, 4}, {4, -1}, {2, -2}), stridedSlice(x[0], {3, 0}, {0, 5}, {-2, 2}));
     },
     {sample({4, 5})}},
    {"StridedSliceGrad", "scatter into [4, 5], squared and times another input",
     [](const TensorList& x) {
         const Tensor s = stridedSliceGrad(x[0], {4, 5}, {0, 4}, {4, -1}, {2, -2});
         return mul(mul(s, s), x[1]);
     },
     {sample({2, 3}, -1, 1, 1), sample({4, 5}, -1, 1, 2)}},
    {"Gather", "axis 1 with repeated 2-D indices",
     [](const TensorList& x) {
         const Tensor g = gather(x[0], x[1], 1);
         return mul(g, g);
     },
     {sample({3, 4}), indices({2, 2}, {2, 0, 2, 1}, DType::Int32)}},
    {"Gather", "axis 0 and a 0-D index on the middle axis",
     [](const TensorList& x) { return mul(gather(x[0], x[1], 0), gather(gather(x[0], x[2], 1), x[1], 0)); },
     {sample({3, 2, 2}), indices({2}, {1, 1}), indices({}, {0})}},
    {"UnsortedSegmentSum", "segments with repeats and an empty segment",
     [](const TensorList& x) {
         const Tensor s = unsortedSegmentSum(x[0], x[1], 4);
         return mul(s, s);
     },
     {sample({4, 3}), indices({4}, {0, 2, 0, 1})}},
    {"Tile", "more multiples than axes",
     [](const TensorList& x) {
         const Tensor t = tile(x[0], {2, 1, 3});
         return mul(t, t);
     },
     {sample({2, 2})}},
    {"Tile", "rank 5, every axis tiled (the per-axis reduction path)",
     [](const TensorList& x) {
         const Tensor t = tile(x[0], {2, 2, 2, 2, 2});
         return mul(t, t);
     },
     {sample({1, 2, 1, 1, 2})}},
});
