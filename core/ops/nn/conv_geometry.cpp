// The geometry of a 2-D convolution (see Note [Conv2D as GEMM] in conv_geometry.h).
// SPDX-License-Identifier: MIT
#include "ops/nn/conv_geometry.h"

#include "ops/nn/common.h"

namespace gradstep {

namespace {
std::array<std::int64_t, 4> explicitPadding(const OpCall& call, bool padMode)
{
    const std::vector<std::int64_t> v = call.attrs.getInts("pad", {0});
    if (v.size() != 1 && v.size() != 4)
        throwValueError(call, "pad must be an int or 4 values (top, bottom, left, right), got "
                                  + std::to_string(v.size()) + " values");
    const std::array<std::int64_t, 4> pad = v.size() == 1 ? std::array{v[0], v[0], v[0], v[0]}
                                                          : std::array{v[0], v[1], v[2], v[3]};
    for (std::int64_t p : pad) {
        if (p < 0)
            throwValueError(call, "pad must be >= 0, got " + std::to_string(p));
        if (p != 0 && !padMode)
            throwValueError(call, "pad must be 0 unless pad_mode is 'pad', got " + std::to_string(p));
    }
    return pad;
}

// Output length of one axis; ShapeError when the dilated kernel does not fit the padded input.
std::int64_t outputLength(const OpCall& call, std::int64_t padded, std::int64_t kernel, std::int64_t dilation,
                          std::int64_t stride, const char* axis)
{
    const std::int64_t extent = (kernel - 1) * dilation + 1;
    if (padded < extent)
        throwShapeError(call, std::string("the dilated kernel ") + axis + " extent " + std::to_string(extent)
                                  + " is larger than the padded input " + axis + " " + std::to_string(padded));
    return (padded - extent) / stride + 1;
}

void checkChannels(const OpCall& call, const Shape& input, const Shape& weight, std::int64_t group)
{
    if (input.rank() != 4 || weight.rank() != 4)
        throwShapeError(call, "input must be 4-D (N, C, H, W) and weight 4-D (C_out, C_in/group, kH, kW), got "
                                  + input.toString() + " and " + weight.toString());
    // A huge group attribute must not overflow the product (fuzz find, seed 7).
    std::int64_t expected = 0;
    const bool overflows = __builtin_mul_overflow(weight[1], group, &expected);
    if (overflows || input[1] != expected)
        throwShapeError(call, "input has " + std::to_string(input[1]) + " channels but weight "
                                  + weight.toString() + " with group " + std::to_string(group) + " expects "
                                  + (overflows ? std::string("more than 2^63") : std::to_string(expected)));
    if (weight[0] % group != 0)
        throwShapeError(call, "output channels " + std::to_string(weight[0]) + " of weight " + weight.toString()
                                  + " are not divisible by group " + std::to_string(group));
    if (weight[2] < 1 || weight[3] < 1)
        throwShapeError(call, "kernel size must be >= 1, got weight " + weight.toString());
}
} // namespace

ConvGeometry convGeometry(const OpCall& call, const Shape& input, const Shape& weight)
{
    ConvGeometry g;
    g.group = call.attrs.getInt("group", 1);
    if (g.group < 1)
        throwValueError(call, "group must be >= 1, got " + std::to_string(g.group));
    checkChannels(call, input, weight, g.group);
    const auto stride = pairAttr(call, "stride", 1);
    const auto dilation = pairAttr(call, "dilation", 1);
    const std::string mode = padModeAttr(call, {"same", "valid", "pad"});
    const auto pad = explicitPadding(call, mode == "pad");
    g.batch = input[0], g.inChannels = input[1], g.height = input[2], g.width = input[3];
    g.outChannels = weight[0], g.kernelH = weight[2], g.kernelW = weight[3];
    g.strideH = stride[0], g.strideW = stride[1], g.dilationH = dilation[0], g.dilationW = dilation[1];
    if (mode == "same") {
        const SamePadding h = samePadding(g.height, (g.kernelH - 1) * g.dilationH + 1, g.strideH);
        const SamePadding w = samePadding(g.width, (g.kernelW - 1) * g.dilationW + 1, g.strideW);
        g.padTop = h.before, g.padBottom = h.after, g.padLeft = w.before, g.padRight = w.after;
        g.outH = h.out, g.outW = w.out;
        return g;
    }
    g.padTop = pad[0], g.padBottom = pad[1], g.padLeft = pad[2], g.padRight = pad[3];
    g.outH = outputLength(call, g.height + g.padTop + g.padBottom, g.kernelH, g.dilationH, g.strideH, "height");
    g.outW = outputLength(call, g.width + g.padLeft + g.padRight, g.kernelW, g.dilationW, g.strideW, "width");
    return g;
}

void requireOutputShape(const OpCall& call, const ConvGeometry& g, const Shape& dy)
{
    if (!(dy == g.outputShape()))
        throwShapeError(call, "output gradient has shape " + dy.toString() + ", expected "
                                  + g.outputShape().toString() + " for input " + g.inputShape().toString()
                                  + " and weight " + g.weightShape().toString());
}

Attrs convAttrs(const Conv2dOptions& options)
{
    Attrs attrs;
    attrs.set("stride", options.stride)
        .set("pad_mode", options.padMode)
        .set("pad", options.padding)
        .set("dilation", options.dilation)
        .set("group", options.group);
    return attrs;
}

Attrs convAttrsOf(const Attrs& attrs)
{
    return pickAttrs(attrs, {"stride", "pad_mode", "pad", "dilation", "group"});
}

ConvGeometry backpropGeometry(const OpCall& call, bool forInput)
{
    const Shape given = call.input(1).shape();
    const Shape other = shapeAttr(call, forInput ? "input_size" : "filter_size", 4);
    const ConvGeometry g = forInput ? convGeometry(call, other, given) : convGeometry(call, given, other);
    requireOutputShape(call, g, call.input(0).shape());
    return g;
}

void inferConvBackprop(const OpCall& call, SpecList& out, bool forInput)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    const ConvGeometry g = backpropGeometry(call, forInput);
    out.push_back({forInput ? g.inputShape() : g.weightShape(), call.input(0).dtype()});
}

} // namespace gradstep
