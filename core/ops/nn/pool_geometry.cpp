// The window geometry of the pooling ops (see Note [Pooling windows]). SPDX-License-Identifier: MIT
#include "ops/nn/pool_geometry.h"

#include "ops/nn/common.h"

#include <limits>

namespace gradstep {

PoolGeometry poolGeometry(const OpCall& call, const Shape& input)
{
    if (input.rank() != 4)
        throwShapeError(call, "input must be 4-D (N, C, H, W), got " + input.toString());
    const auto kernel = pairAttr(call, "kernel_size", 1);
    const auto stride = pairAttr(call, "strides", 1);
    const std::string mode = padModeAttr(call, {"same", "valid"});
    PoolGeometry g;
    g.batch = input[0], g.channels = input[1], g.height = input[2], g.width = input[3];
    g.kernelH = kernel[0], g.kernelW = kernel[1], g.strideH = stride[0], g.strideW = stride[1];
    // Argmax positions are kept as int32 indices within a plane (see MaxPoolRows).
    if (g.height * g.width > std::numeric_limits<std::int32_t>::max())
        throwShapeError(call, "planes of more than 2^31 - 1 elements are not supported, got " + input.toString());
    if (mode == "same") {
        const SamePadding h = samePadding(g.height, g.kernelH, g.strideH);
        const SamePadding w = samePadding(g.width, g.kernelW, g.strideW);
        g.padTop = h.before, g.padLeft = w.before, g.outH = h.out, g.outW = w.out;
        return g;
    }
    if (g.height < g.kernelH || g.width < g.kernelW)
        throwShapeError(call, "kernel " + Shape{g.kernelH, g.kernelW}.toString() + " is larger than the input "
                                  + input.toString() + " under pad_mode 'valid'");
    g.outH = (g.height - g.kernelH) / g.strideH + 1;
    g.outW = (g.width - g.kernelW) / g.strideW + 1;
    return g;
}

PoolGeometry maxPoolGradGeometry(const OpCall& call)
{
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    if (!(call.input(1).shape() == g.outputShape()))
        throwShapeError(call, "output gradient has shape " + call.input(1).shape().toString() + ", expected "
                                  + g.outputShape().toString());
    return g;
}

Attrs poolAttrs(const Pool2dOptions& options)
{
    Attrs attrs;
    attrs.set("kernel_size", options.kernel).set("strides", options.stride).set("pad_mode", options.padMode);
    return attrs;
}

} // namespace gradstep
