// mindspore.dataset.transforms.TypeCast, mindspore.dataset.vision.Rescale and HWC2CHW (core
// transforms, also callable on NumPy arrays directly), and Python callables as map operations.
// SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/dataset_support.h"

#include <memory>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// A Python function (or callable object) applied to one row's input columns as NumPy arrays.
class CallableTransform : public data::Transform {
public:
    explicit CallableTransform(py::object function) : m_function(std::move(function))
    {
        const py::object name = py::getattr(m_function, "__name__", py::none());
        m_name = name.is_none() ? std::string(py::str(py::type::handle_of(m_function).attr("__name__")))
                                : std::string(py::str(name));
    }
    std::string name() const override { return m_name; }
    data::Row apply(data::Row inputs) const override
    {
        py::tuple args(inputs.size());
        for (std::size_t i = 0; i < inputs.size(); ++i)
            args[i] = toNumpy(inputs[i]);
        const py::object result = m_function(*args);
        const std::size_t count = PyTuple_Check(result.ptr()) ? py::len(result) : 1;
        return toRow(result, count, "map: the result of '" + m_name + "'");
    }

private:
    py::object m_function;
    std::string m_name;
};

/// The element type `dtype` names: a mindspore dtype, or any NumPy dtype or type (np.uint8).
data::ElementType elementTypeOf(py::handle dtype)
{
    try {
        return data::elementType(toDType(dtype));
    } catch (std::exception&) {
        // Not a Tensor dtype: NumPy may still know it (uint8, int16).
    }
    py::dtype numpyType = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
    return {numpyType.kind(), static_cast<int>(numpyType.itemsize())};
}

/// transform(array, ...) outside a pipeline: NumPy arrays in, NumPy arrays out.
py::object callDirectly(const data::Transform& transform, const py::args& args)
{
    data::Row row;
    for (py::handle arg : args)
        row.push_back(toArray(arg, transform.name()));
    const data::Row out = transform.apply(std::move(row));
    if (out.size() == 1)
        return toNumpy(out.front());
    py::tuple result(out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        result[i] = toNumpy(out[i]);
    return result;
}

} // namespace

data::TransformPtr toTransform(py::handle operation)
{
    if (py::isinstance<data::Transform>(operation))
        return operation.cast<std::shared_ptr<data::Transform>>();
    if (!PyCallable_Check(operation.ptr()))
        throw py::type_error("map: operations must be transforms or callables, got "
                             + std::string(py::str(py::type::handle_of(operation).attr("__name__"))));
    return std::make_shared<CallableTransform>(py::reinterpret_borrow<py::object>(operation));
}

void bindDatasetTransforms(py::module_& transforms, py::module_& vision)
{
    py::class_<data::Transform, std::shared_ptr<data::Transform>>(transforms, "TensorOperation")
        .def("__call__", &callDirectly);
    py::class_<data::TypeCast, data::Transform, std::shared_ptr<data::TypeCast>>(transforms, "TypeCast")
        .def(py::init([](const py::object& dtype) { return std::make_shared<data::TypeCast>(elementTypeOf(dtype)); }),
             py::arg("data_type"), "Converts each input column to data_type (a mindspore or NumPy dtype).");
    py::class_<data::Rescale, data::Transform, std::shared_ptr<data::Rescale>>(vision, "Rescale")
        .def(py::init<double, double>(), py::arg("rescale"), py::arg("shift"),
             "output = image * rescale + shift, as float32.");
    py::class_<data::HWC2CHW, data::Transform, std::shared_ptr<data::HWC2CHW>>(vision, "HWC2CHW")
        .def(py::init<>(), "Transposes an image from (H, W, C) to (C, H, W).");
}

} // namespace gradstep::python
