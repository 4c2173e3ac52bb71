// The fused kernels behind the Python norm layers and SiLU (mindspore.nn.LayerNorm, GroupNorm,
// InstanceNorm*, SiLU, ops.layer_norm, ops.LayerNorm, ...): each call is one node that the user
// sees as MindSpore names the primitive. The Python side checks arguments with MindSpore's
// messages first; these take checked values. SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/norm_ops.h"
#include "ops/silu_ops.h"

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {
py::tuple asTuple(const OutputList& outputs) { return py::make_tuple(outputs[0], outputs[1], outputs[2]); }
} // namespace

void bindFusedNn(py::module_& ops)
{
    ops.def("_layer_norm", [](py::handle x, py::handle gamma, py::handle beta, std::int64_t beginNormAxis,
                              std::int64_t beginParamsAxis, double epsilon) {
        return asTuple(layerNorm(tensorArg(x, "LayerNorm", "input_x"), tensorArg(gamma, "LayerNorm", "gamma"),
                                 tensorArg(beta, "LayerNorm", "beta"), beginNormAxis, beginParamsAxis, epsilon));
    }, py::arg("input_x"), py::arg("gamma"), py::arg("beta"), py::arg("begin_norm_axis"),
       py::arg("begin_params_axis"), py::arg("epsilon"));
    ops.def("_group_norm", [](py::handle x, py::handle gamma, py::handle beta, std::int64_t groups, double epsilon) {
        return asTuple(groupNorm(tensorArg(x, "GroupNorm", "input_x"), tensorArg(gamma, "GroupNorm", "gamma"),
                                 tensorArg(beta, "GroupNorm", "beta"), groups, epsilon));
    }, py::arg("input_x"), py::arg("gamma"), py::arg("beta"), py::arg("num_groups"), py::arg("epsilon"));
    ops.def("_batch_norm", [](py::handle x, py::handle scale, py::handle bias, py::handle mean, py::handle variance,
                              bool training, double epsilon) {
        return asTuple(batchNorm(tensorArg(x, "BatchNorm", "input_x"), tensorArg(scale, "BatchNorm", "scale"),
                                 tensorArg(bias, "BatchNorm", "bias"), tensorArg(mean, "BatchNorm", "mean"),
                                 tensorArg(variance, "BatchNorm", "variance"), training, epsilon));
    }, py::arg("input_x"), py::arg("scale"), py::arg("bias"), py::arg("mean"), py::arg("variance"),
       py::arg("is_training"), py::arg("epsilon"));
    ops.def("_silu", [](py::handle x) { return silu(tensorArg(x, "SiLU", "x")); }, py::arg("x"));
}

} // namespace gradstep::python::ops
