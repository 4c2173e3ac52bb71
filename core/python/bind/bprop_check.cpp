// A user bprop's checks, in MindSpore's words (its PyNative runs the same checks on the Python
// objects the bprop returned, before they become gradients). SPDX-License-Identifier: MIT
#include "python/bind/bprop_check.h"
#include "python/bind/bindings.h"

#include "nn/parameter.h"
#include "tensor/errors.h"
#include "tensor/tensor.h"

namespace py = pybind11;

namespace gradstep::python {

void checkBpropUsesNoParameter(py::handle cell)
{
    // The names bprop's code reads (attributes and globals alike); only attributes of the Cell
    // that are Parameters count, as in MindSpore.
    const py::object bprop = py::type::handle_of(cell).attr("bprop");
    if (!py::hasattr(bprop, "__code__"))
        return;
    const py::tuple names = bprop.attr("__code__").attr("co_names");
    for (py::handle name : names) {
        const py::str attribute = py::reinterpret_borrow<py::str>(name);
        if (!py::hasattr(cell, attribute))
            continue;
        if (py::isinstance<Parameter>(cell.attr(attribute)))
            throw RuntimeError("The user defined 'bprop' function does not support using Parameter.");
    }
}

void checkBpropGradients(const py::list& inputs, py::handle grads, const std::string& cellName)
{
    if (!contextCheckBprop() || grads.is_none())
        return;
    const py::tuple items = py::isinstance<py::tuple>(grads) ? py::reinterpret_borrow<py::tuple>(grads)
                                                               : py::make_tuple(grads);
    const std::string net = "For user defined method 'bprop' of net '" + cellName + "', ";
    if (items.size() != inputs.size())
        throw TypeError(net + "the number of return values(gradients) should be equal to the number of input "
                        "arguments except 'out' and 'dout', which is: " + std::to_string(inputs.size())
                        + ", but got:" + std::to_string(items.size()) + ".");
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!py::isinstance<Tensor>(inputs[i]))
            continue;
        const std::string nth = std::to_string(i) + "th";
        const std::string which = "the " + nth + " return value(gradient of the " + nth + " argument) ";
        const py::handle grad = items[i];
        if (!py::isinstance<Tensor>(grad))
            throw TypeError(net + which + "should be Tensor, but got "
                            + std::string(py::str(py::type::handle_of(grad).attr("__name__"))) + ", and the value is "
                            + std::string(py::str(grad)) + ".");
        const py::object inputDtype = inputs[i].attr("dtype");
        const py::object gradDtype = grad.attr("dtype");
        if (!inputDtype.equal(gradDtype))
            throw TypeError(net + which + "should have the same dtype as the " + nth + " argument, which is:"
                            + std::string(py::str(inputDtype)) + ", but got: " + std::string(py::str(gradDtype))
                            + ".");
        const py::tuple inputShape = py::tuple(inputs[i].attr("shape"));
        const py::tuple gradShape = py::tuple(grad.attr("shape"));
        if (!inputShape.equal(gradShape))
            throw ValueError(net + which + "should have the same shape as the " + nth + " argument, which is:"
                             + std::string(py::repr(inputShape)) + ", but got: " + std::string(py::repr(gradShape))
                             + ".");
    }
}

} // namespace gradstep::python
