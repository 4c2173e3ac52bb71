// fill: y = `value` converted to `dtype` (non-zero is true for Bool), with shape `shape`. It has
// no inputs (minInputs = 0), so it is never recorded on a tape and has no backward rule.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
void inferFill(const OpCall& call, SpecList& out)
{
    const std::vector<std::int64_t> dims = call.attrs.getInts("shape");
    if (dims.size() > static_cast<std::size_t>(Shape::kMaxRank))
        throwValueError(call, "shape has " + std::to_string(dims.size()) + " dimensions, more than "
                                  + std::to_string(Shape::kMaxRank));
    for (std::int64_t d : dims)
        if (d < 0)
            throwValueError(call, "shape has a negative dimension " + std::to_string(d));
    const DType dtype = call.attrs.getDType("dtype");
    checkRepresentable(call, "value", call.attrs.getFloat("value"), dtype);
    out.push_back({Shape(dims), dtype});
}

void forwardFill(const OpCall& call, std::span<Tensor> outputs)
{
    Tensor& out = outputs[0];
    const double value = call.attrs.getFloat("value");
    visitDataDType(out.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T v = static_cast<T>(value);
        T* p = static_cast<T*>(out.rawData());
        for (std::int64_t i = 0, n = out.numel(); i < n; ++i)
            p[i] = v;
    });
}
} // namespace

const OpDef kFill{"Fill", "fill", OpKind::Shape, 0, 0, inferFill, forwardFill, nullptr};

Tensor fill(DType dtype, const std::vector<std::int64_t>& shape, double value)
{
    Attrs attrs;
    attrs.set("dtype", dtype).set("shape", shape).set("value", value);
    return callOp1(kFill, std::span<const Tensor>(), attrs);
}

} // namespace gradstep
