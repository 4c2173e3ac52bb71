// Neural-network primitive classes of mindspore.ops: Conv2D, MaxPool, AvgPool, BiasAdd, Dropout,
// SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits and Print. The machinery
// (ops.Primitive, attribute checks, repr) is in bind_ops_primitives.cpp. SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"
#include "python/bind/ops_primitive.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"
#include "random/generator.h"

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {

const Tensor& in(const Primitive& p, const py::args& a, std::size_t i, const char* arg)
{
    return tensorArg(a[i], p.name.c_str(), arg);
}

/// MindSpore's pad for Conv2D: an int or (top, bottom, left, right).
Axes convPad(const Primitive& p)
{
    const Axes pad = shapeArg(p.value("pad"), "Conv2D", "pad");
    if (pad.size() == 1)
        return {pad[0], pad[0], pad[0], pad[0]};
    if (pad.size() != 4)
        throw py::value_error("For 'Conv2D', the 'pad' must be an int or a tuple of 4 ints, but got "
                              + std::to_string(pad.size()) + " values.");
    return pad;
}

py::object conv2dCall(const Primitive& p, const py::args& a)
{
    const Tensor& x = in(p, a, 0, "x");
    const Tensor& w = in(p, a, 1, "weight");
    Conv2dOptions options;
    options.padMode = padModeArg(p.value("pad_mode"), "Conv2D", true);
    options.padding = convPad(p);
    if (options.padMode != "pad" && options.padding != Axes{0, 0, 0, 0})
        throw py::value_error("For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got "
                              + std::string(py::str(p.value("pad"))) + ".");
    options.stride = pairArg(p.value("stride"), "Conv2D", "stride");
    options.dilation = pairArg(p.value("dilation"), "Conv2D", "dilation");
    options.group = p.integer("group");
    const Axes kernel = pairArg(p.value("kernel_size"), "Conv2D", "kernel_size");
    if (w.rank() == 4 && (w.shape()[0] != p.integer("out_channel") || w.shape()[2] != kernel[0] || w.shape()[3] != kernel[1]))
        throw py::value_error("For 'Conv2D', the weight shape " + w.shape().toString() + " does not match out_channel "
                              + std::to_string(p.integer("out_channel")) + " and kernel_size ("
                              + std::to_string(kernel[0]) + ", " + std::to_string(kernel[1]) + ").");
    return py::cast(conv2d(x, w, options));
}

py::object poolCall(const Primitive& p, const py::args& a)
{
    const char* op = p.name.c_str();
    Pool2dOptions options;
    options.kernel = pairArg(p.value("kernel_size"), op, "kernel_size");
    options.stride = pairArg(p.value("strides"), op, "strides");
    options.padMode = padModeArg(p.value("pad_mode"), op, false);
    const Tensor& x = in(p, a, 0, "x");
    return py::cast(p.name == "MaxPool" ? maxPool2d(x, options) : avgPool2d(x, options));
}

py::object biasAddCall(const Primitive& p, const py::args& a)
{
    return py::cast(biasAdd(in(p, a, 0, "input_x"), in(p, a, 1, "bias")));
}

/// Dropout(keep_prob, Seed0, Seed1) returns (output, mask); seeds of 0 draw from the global generator.
py::object dropoutCall(const Primitive& p, const py::args& a)
{
    const double keep = p.value("keep_prob").cast<double>();
    if (!(keep > 0.0 && keep <= 1.0))
        throw py::value_error("For 'Dropout', the 'keep_prob' must be in range (0, 1], but got "
                              + std::to_string(keep) + ".");
    const std::int64_t seed0 = p.integer("Seed0");
    const std::int64_t seed1 = p.integer("Seed1");
    const std::uint64_t seed = seed0 == 0 && seed1 == 0
                                   ? globalGenerator().next()
                                   : static_cast<std::uint64_t>(seed0) * 1000003u + static_cast<std::uint64_t>(seed1);
    return tupleOf(dropoutWithMask(in(p, a, 0, "x"), keep, seed));
}

/// (loss per sample, gradient of the summed loss with respect to the logits), as MindSpore's.
py::object softmaxCrossEntropyCall(const Primitive& p, const py::args& a)
{
    const Tensor& logits = in(p, a, 0, "logits");
    const Tensor& labels = in(p, a, 1, "labels");
    const Tensor loss = softmaxCrossEntropyOp(logits, labels, false);
    return py::make_tuple(loss, sub(softmax(logits, -1), cast(labels, logits.dtype())));
}

/// is_grad=False: the mean loss; True: its gradient with respect to the logits.
py::object sparseSoftmaxCrossEntropyCall(const Primitive& p, const py::args& a)
{
    const Tensor& logits = in(p, a, 0, "logits");
    const Tensor& labels = in(p, a, 1, "labels");
    const Tensor loss = softmaxCrossEntropyOp(logits, labels, true);
    if (!p.flag("is_grad"))
        return py::cast(reduceMean(loss));
    const Tensor target = oneHot(labels, logits.shape()[logits.rank() - 1], 1.0, 0.0, -1, logits.dtype());
    const Tensor n = Tensor::scalar(static_cast<double>(logits.shape()[0]), logits.dtype());
    return py::cast(div(sub(softmax(logits, -1), target), n));
}

/// Each input on its own line: tensors as their repr (MindSpore's Print format), the rest as str.
py::object printCall(const Primitive&, const py::args& a)
{
    py::object print = py::module_::import("builtins").attr("print");
    for (py::handle item : a)
        print(asTensor(item) ? py::repr(item) : py::str(item));
    return py::none();
}

} // namespace

std::vector<PrimSpec> nnPrimitives()
{
    const AttrSpec format{"data_format", Kind::Str, "NCHW"};
    const AttrSpec one{"kernel_size", Kind::IntOrTuple, std::int64_t{1}};
    const AttrSpec strides{"strides", Kind::IntOrTuple, std::int64_t{1}};
    const AttrSpec poolPad{"pad_mode", Kind::Str, "valid"};
    return {
        {"Conv2D",
         {{"out_channel", Kind::Int, Required{}}, {"kernel_size", Kind::IntOrTuple, Required{}},
          {"mode", Kind::Int, std::int64_t{1}}, {"pad_mode", Kind::Str, "valid"}, {"pad", Kind::IntOrTuple, std::int64_t{0}},
          {"stride", Kind::IntOrTuple, std::int64_t{1}}, {"dilation", Kind::IntOrTuple, std::int64_t{1}},
          {"group", Kind::Int, std::int64_t{1}}, format},
         2, 2, &conv2dCall},
        {"MaxPool", {one, strides, poolPad, format}, 1, 1, &poolCall},
        {"AvgPool", {one, strides, poolPad, format}, 1, 1, &poolCall},
        {"BiasAdd", {format}, 2, 2, &biasAddCall},
        {"Dropout", {{"keep_prob", Kind::Float, 0.5}, {"Seed0", Kind::Int, std::int64_t{0}},
                     {"Seed1", Kind::Int, std::int64_t{0}}}, 1, 1, &dropoutCall},
        {"SoftmaxCrossEntropyWithLogits", {}, 2, 2, &softmaxCrossEntropyCall},
        {"SparseSoftmaxCrossEntropyWithLogits", {{"is_grad", Kind::Bool, false}}, 2, 2, &sparseSoftmaxCrossEntropyCall},
        {"Print", {}, 0, 64, &printCall},
    };
}

} // namespace gradstep::python::ops
