// mindspore.ops neural-network functions (MindSpore 2.x names and argument names): conv2d,
// max_pool2d, avg_pool2d, dropout, cross_entropy, binary_cross_entropy_with_logits, mse_loss,
// l1_loss. Options the core has no kernel for (padding in pooling, ceil_mode, class weights,
// label smoothing) raise ValueError instead of being ignored. SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"
#include "random/generator.h"

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {

[[noreturn]] void unsupported(const char* op, const std::string& what)
{
    throw py::value_error(std::string("For '") + op + "', " + what + " is not supported by gradstep's core.");
}

/// padding: an int (all sides), (h, w) or (top, bottom, left, right).
Axes convPadding(py::handle padding)
{
    const Axes p = shapeArg(padding, "Conv2D", "padding");
    if (p.size() == 1)
        return {p[0], p[0], p[0], p[0]};
    if (p.size() == 2)
        return {p[0], p[0], p[1], p[1]};
    if (p.size() == 4)
        return p;
    throw py::value_error("For 'Conv2D', the 'padding' must be an int or a tuple of 2 or 4 ints, but got "
                          + std::to_string(p.size()) + " values.");
}

Tensor conv2dOp(py::handle x, py::handle weight, py::handle bias, py::handle stride, py::handle padMode,
                py::handle padding, py::handle dilation, py::handle groups)
{
    Conv2dOptions options;
    options.stride = pairArg(stride, "Conv2D", "stride");
    options.padMode = padModeArg(padMode, "Conv2D", true);
    options.padding = convPadding(padding);
    options.dilation = pairArg(dilation, "Conv2D", "dilation");
    options.group = intArg(groups, "Conv2D", "groups");
    const bool anyPad = options.padding != Axes{0, 0, 0, 0};
    if (anyPad && options.padMode != "pad")
        throw py::value_error("For 'Conv2D', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                              + std::string(py::repr(padding)) + " with pad_mode '" + options.padMode + "'.");
    Tensor y = conv2d(tensorArg(x, "Conv2D", "input"), tensorArg(weight, "Conv2D", "weight"), options);
    return bias.is_none() ? y : biasAdd(y, tensorArg(bias, "Conv2D", "bias"));
}

/// conv2d's gradient with respect to its input (explicit paddings top, bottom, left, right), for
/// the transposed convolutions of the Python package (nn.Conv2dTranspose, ops.conv_transpose2d,
/// ops.Conv2DTranspose): one GEMM and a col2im per image, where a convolution over the input with
/// stride - 1 zeros inserted between its elements does stride^2 times the work (5x PyTorch's time).
Tensor conv2dBackpropInputOp(py::handle dy, py::handle weight, py::handle inputSize, py::handle stride,
                             py::handle padding, py::handle dilation, py::handle groups)
{
    const char* op = "Conv2DBackpropInput";
    Conv2dOptions options;
    options.stride = pairArg(stride, op, "stride");
    options.padMode = "pad";
    options.padding = convPadding(padding);
    options.dilation = pairArg(dilation, op, "dilation");
    options.group = intArg(groups, op, "groups");
    return conv2dBackpropInput(tensorArg(dy, op, "dout"), tensorArg(weight, op, "weight"),
                               shapeArg(inputSize, op, "input_size"), options);
}

Pool2dOptions poolOptions(const char* op, py::handle kernel, py::handle stride, py::handle padding, bool ceilMode)
{
    if (ceilMode)
        unsupported(op, "ceil_mode=True");
    for (std::int64_t pad : shapeArg(padding, op, "padding"))
        if (pad != 0)
            unsupported(op, "non-zero padding");
    Pool2dOptions options;
    options.kernel = pairArg(kernel, op, "kernel_size");
    options.stride = stride.is_none() ? options.kernel : pairArg(stride, op, "stride");
    options.padMode = "valid";
    return options;
}

Tensor maxPool2dOp(py::handle x, py::handle kernel, py::handle stride, py::handle padding, py::handle dilation,
                   bool returnIndices, bool ceilMode)
{
    if (pairArg(dilation, "MaxPool", "dilation") != Axes{1, 1})
        unsupported("MaxPool", "dilation other than 1");
    if (returnIndices)
        unsupported("MaxPool", "return_indices=True");
    return maxPool2d(tensorArg(x, "MaxPool", "x"), poolOptions("MaxPool", kernel, stride, padding, ceilMode));
}

Tensor avgPool2dOp(py::handle x, py::handle kernel, py::handle stride, py::handle padding, bool ceilMode,
                   bool /*countIncludePad: no padding, so every window counts the same elements*/,
                   py::handle divisorOverride)
{
    if (!divisorOverride.is_none())
        unsupported("AvgPool", "divisor_override");
    return avgPool2d(tensorArg(x, "AvgPool", "input_x"), poolOptions("AvgPool", kernel, stride, padding, ceilMode));
}

Tensor dropoutOp(py::handle x, double p, bool training, py::handle seed)
{
    const Tensor& t = tensorArg(x, "Dropout", "input");
    if (!(p >= 0.0 && p < 1.0))
        throw py::value_error("For 'dropout', the 'p' must be in range [0, 1), but got " + std::to_string(p) + ".");
    if (!training || p == 0.0)
        return t;
    const std::uint64_t s = seed.is_none() ? globalGenerator().next()
                                           : static_cast<std::uint64_t>(intArg(seed, "Dropout", "seed"));
    return dropout(t, 1.0 - p, s);
}

std::string reductionArg(const std::string& reduction, const char* op)
{
    if (reduction != "mean" && reduction != "sum" && reduction != "none")
        throw py::value_error(std::string("For '") + op + "', the 'reduction' must be one of ['mean', 'sum', "
                              "'none'], but got '" + reduction + "'.");
    return reduction;
}

Tensor reduced(const Tensor& loss, const std::string& reduction)
{
    if (reduction == "mean")
        return reduceMean(loss);
    return reduction == "sum" ? reduceSum(loss) : loss;
}

Tensor crossEntropyOp(py::handle input, py::handle target, py::handle weight, std::int64_t ignoreIndex,
                      const std::string& reduction, double labelSmoothing)
{
    const Tensor& logits = tensorArg(input, "cross_entropy", "input");
    const Tensor& labels = tensorArg(target, "cross_entropy", "target");
    reductionArg(reduction, "cross_entropy");
    if (!weight.is_none())
        unsupported("cross_entropy", "a class 'weight'");
    if (labelSmoothing != 0.0)
        unsupported("cross_entropy", "label_smoothing");
    const bool sparse = isIntegral(labels.dtype());
    if (sparse && labels.numel() > 0
        && reduceSum(cast(equal(labels, Tensor::scalar(static_cast<double>(ignoreIndex), labels.dtype())),
                          DType::Int32)).item() > 0)
        unsupported("cross_entropy", "a target equal to ignore_index");
    return reduced(softmaxCrossEntropyOp(logits, labels, sparse), reduction);
}

Tensor bceOp(py::handle input, py::handle target, py::handle weight, py::handle posWeight, const std::string& reduction)
{
    const char* op = "binary_cross_entropy_with_logits";
    reductionArg(reduction, op);
    const Tensor& logits = tensorArg(input, op, "input");
    const Tensor& labels = tensorArg(target, op, "target");
    const Tensor w = weight.is_none() ? Tensor() : tensorArg(weight, op, "weight");
    const Tensor p = posWeight.is_none() ? Tensor() : tensorArg(posWeight, op, "pos_weight");
    return bceWithLogits(logits, labels, w, p, reduction);
}

} // namespace

void bindNnFunctional(py::module_& ops)
{
    ops.def("conv2d", &conv2dOp, py::arg("input"), py::arg("weight"), py::arg("bias") = py::none(),
            py::arg("stride") = 1, py::arg("pad_mode") = "valid", py::arg("padding") = 0, py::arg("dilation") = 1,
            py::arg("groups") = 1);
    ops.def("_conv2d_backprop_input", &conv2dBackpropInputOp, py::arg("dout"), py::arg("weight"),
            py::arg("input_size"), py::arg("stride"), py::arg("padding"), py::arg("dilation"), py::arg("groups"));
    ops.def("max_pool2d", &maxPool2dOp, py::arg("x"), py::arg("kernel_size"), py::arg("stride") = py::none(),
            py::arg("padding") = 0, py::arg("dilation") = 1, py::arg("return_indices") = false,
            py::arg("ceil_mode") = false);
    ops.def("avg_pool2d", &avgPool2dOp, py::arg("input_x"), py::arg("kernel_size") = 1, py::arg("stride") = 1,
            py::arg("padding") = 0, py::arg("ceil_mode") = false, py::arg("count_include_pad") = true,
            py::arg("divisor_override") = py::none());
    ops.def("dropout", &dropoutOp, py::arg("input"), py::arg("p") = 0.5, py::arg("training") = true,
            py::arg("seed") = py::none());
    ops.def("cross_entropy", &crossEntropyOp, py::arg("input"), py::arg("target"), py::arg("weight") = py::none(),
            py::arg("ignore_index") = -100, py::arg("reduction") = "mean", py::arg("label_smoothing") = 0.0);
    ops.def("binary_cross_entropy_with_logits", &bceOp, py::arg("input"), py::arg("target"),
            py::arg("weight") = py::none(), py::arg("pos_weight") = py::none(), py::arg("reduction") = "mean");
    ops.def("mse_loss", [](py::handle x, py::handle y, const std::string& reduction) {
        return mseLoss(tensorArg(x, "mse_loss", "input"), tensorArg(y, "mse_loss", "target"),
                       reductionArg(reduction, "mse_loss"));
    }, py::arg("input"), py::arg("target"), py::arg("reduction") = "mean");
    ops.def("l1_loss", [](py::handle x, py::handle y, const std::string& reduction) {
        return l1Loss(tensorArg(x, "l1_loss", "input"), tensorArg(y, "l1_loss", "target"),
                      reductionArg(reduction, "l1_loss"));
    }, py::arg("input"), py::arg("target"), py::arg("reduction") = "mean");
}

} // namespace gradstep::python::ops
