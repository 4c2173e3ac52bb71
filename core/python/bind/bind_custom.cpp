// The C++ half of ops.Custom (package: mindspore/ops/_custom.py): a kernel over a Python function
// on NumPy arrays ("pyfunc") or over a function of a shared library ("aot"), with the user's
// bprop, run as one "Custom" node (ops/custom/custom_kernel.h). The Python half checks the
// arguments in MindSpore's words and turns out_shape / out_dtype into one infer function.
// SPDX-License-Identifier: MIT
#include "python/bind/bind_custom.h"
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/custom/aot_function.h"
#include "ops/custom/custom_kernel.h"
#include "ops/dispatch.h"

#include <pybind11/stl.h>

#include <memory>

namespace py = pybind11;

namespace gradstep::python {

namespace {

py::object tensorsAsArgument(const TensorList& tensors)
{
    return tensors.size() == 1 ? py::cast(tensors[0]) : py::object(ops::tupleOf(tensors));
}

/// infer(shapes, dtypes) -> [(shape, dtype), ...], written in Python by _custom.py.
auto pythonInfer(py::object infer)
{
    return [infer = std::make_shared<py::object>(std::move(infer))](const OpCall& call, SpecList& out) {
        py::gil_scoped_acquire gil;
        py::list shapes;
        py::list dtypes;
        for (const Tensor& t : call.inputs) {
            shapes.append(py::tuple(py::cast(t.shape().toVector())));
            dtypes.append(dtypeObject(t.dtype()));
        }
        for (py::handle spec : (*infer)(shapes, dtypes)) {
            const auto pair = spec.cast<py::tuple>();
            out.push_back({Shape(pair[0].cast<std::vector<std::int64_t>>()), toDType(pair[1])});
        }
    };
}

/// The pyfunc's results, one per output, each converted to the output's dtype and checked
/// against its shape: MindSpore's pyfunc outputs must match out_shape.
void pyfuncForward(const py::object& func, const std::string& name, const OpCall& call, std::span<Tensor> outputs)
{
    py::gil_scoped_acquire gil;
    py::list arrays;
    for (const Tensor& t : call.inputs)
        arrays.append(toNumpy(t));
    py::object result = func(*arrays);
    py::list items;
    if (outputs.size() == 1 && !py::isinstance<py::tuple>(result) && !py::isinstance<py::list>(result))
        items.append(result);
    else
        items = py::list(result);
    if (items.size() != outputs.size())
        throwValueError(call, "the function '" + name + "' returned " + std::to_string(items.size())
                                  + " outputs, but out_shape and out_dtype describe " + std::to_string(outputs.size()));
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const Shape expected = outputs[i].shape();
        Tensor value = toTensor(items[i], outputs[i].dtype());
        if (value.shape() != expected)
            throwValueError(call, "output " + std::to_string(i) + " of the function '" + name + "' has shape "
                                      + value.shape().toString() + ", but out_shape says " + expected.toString());
        outputs[i] = value;
    }
}

/// The user's bprop(*inputs, out, dout): one gradient per input, as a tuple of Tensors.
auto pythonBackward(py::object bprop, std::string name)
{
    auto held = std::make_shared<py::object>(std::move(bprop));
    return [held, name](const BackwardContext& ctx, std::span<const Tensor> grads) {
        py::gil_scoped_acquire gil;
        py::list args;
        for (std::size_t i = 0; i < ctx.inputCount(); ++i)
            args.append(py::cast(ctx.input(i)));
        TensorList outs;
        for (std::size_t i = 0; i < grads.size(); ++i)
            outs.push_back(ctx.output(i));
        args.append(tensorsAsArgument(outs));
        args.append(tensorsAsArgument(TensorList(grads.begin(), grads.end())));
        py::object result = (*held)(*args);
        py::list items;
        if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result))
            items = py::list(result);
        else
            items.append(result);
        if (items.size() != ctx.inputCount())
            throw AutodiffError("bprop of the Custom op '" + name + "' returned " + std::to_string(items.size())
                                + " gradients, but the op has " + std::to_string(ctx.inputCount())
                                + " inputs: it must return a tuple with one gradient per input");
        TensorList gradients;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Tensor* g = asTensor(items[i]);
            if (!g)
                throw AutodiffError("bprop of the Custom op '" + name + "' returned " + ops::typeName(items[i])
                                    + " as gradient " + std::to_string(i) + ", but a gradient must be a Tensor");
            gradients.push_back(*g);
        }
        return gradients;
    };
}

py::object runCustom(const CustomOp& op, const py::args& args)
{
    TensorList inputs;
    for (std::size_t i = 0; i < args.size(); ++i)
        inputs.push_back(ops::tensorArg(args[i], "Custom", ("input_" + std::to_string(i)).c_str()));
    const OutputList outputs = op(inputs);
    if (outputs.size() == 1)
        return py::cast(outputs[0]);
    return ops::tupleOf(TensorList(outputs.begin(), outputs.end()));
}

CustomOp makePyfunc(const std::string& name, py::object func, py::object infer, py::object bprop)
{
    auto kernel = std::make_shared<CustomKernel>();
    kernel->funcName = name;
    kernel->funcType = "pyfunc";
    kernel->infer = pythonInfer(std::move(infer));
    auto held = std::make_shared<py::object>(std::move(func));
    kernel->forward = [held, name](const OpCall& call, std::span<Tensor> outputs) {
        pyfuncForward(*held, name, call, outputs);
    };
    if (!bprop.is_none())
        kernel->backward = pythonBackward(std::move(bprop), name);
    return CustomOp(std::move(kernel));
}

CustomOp makeAot(const std::string& library, const std::string& symbol, py::object infer, py::object bprop)
{
    auto kernel = std::make_shared<CustomKernel>();
    kernel->funcName = library + ":" + symbol;
    kernel->funcType = "aot";
    kernel->infer = pythonInfer(std::move(infer));
    auto function = std::make_shared<AotFunction>(library, symbol);
    kernel->forward = [function](const OpCall& call, std::span<Tensor> outputs) { function->run(call, outputs); };
    if (!bprop.is_none())
        kernel->backward = pythonBackward(std::move(bprop), kernel->funcName);
    return CustomOp(std::move(kernel));
}

} // namespace

void bindCustom(py::module_& ops)
{
    py::class_<CustomOp>(ops, "_CustomKernel", "the kernel of one ops.Custom object")
        .def("__call__", &runCustom)
        .def_property_readonly("func_name", [](const CustomOp& op) { return op.kernel().funcName; });
    ops.def("_custom_pyfunc", &makePyfunc, py::arg("name"), py::arg("func"), py::arg("infer"), py::arg("bprop"));
    ops.def("_custom_aot", &makeAot, py::arg("library"), py::arg("symbol"), py::arg("infer"), py::arg("bprop"));
}

} // namespace gradstep::python
