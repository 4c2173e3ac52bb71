// Pooling arguments. SPDX-License-Identifier: MIT
#include "nn/layers/pool_args.h"

#include <algorithm>
#include <cctype>

namespace gradstep {

Pool2dOptions makePool2dOptions(const std::string& cell, IntPair kernelSize, IntPair stride,
                                const std::string& padMode)
{
    if (kernelSize.first < 1 || kernelSize.second < 1)
        throw ValueError("for '" + cell + "', 'kernel_size' must be positive, got "
                         + kernelSize.toString());
    if (stride.first < 1 || stride.second < 1)
        throw ValueError("for '" + cell + "', 'stride' must be positive, got " + stride.toString());
    std::string mode = padMode;
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (mode != "same" && mode != "valid")
        throw ValueError("for '" + cell + "', 'pad_mode' must be 'same' or 'valid', got '" + padMode
                         + "'");
    Pool2dOptions options;
    options.kernel = kernelSize.toVector();
    options.stride = stride.toVector();
    options.padMode = mode;
    return options;
}

std::string poolRepr(const Pool2dOptions& options)
{
    std::string mode = options.padMode;
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return "kernel_size=" + IntPair(options.kernel[0], options.kernel[1]).toString() + ", stride="
        + IntPair(options.stride[0], options.stride[1]).toString() + ", pad_mode=" + mode;
}

} // namespace gradstep
