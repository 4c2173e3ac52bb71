// mindspore.common.initializer: the Initializer classes over the core's (MindSpore's draws, seeded
// from NumPy's global RandomState during a run, so np.random.seed and ms.set_seed give MindSpore's
// weights), initializer(init, shape, dtype), and the conversion every weight_init / bias_init
// argument goes through. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>

namespace py = pybind11;

namespace gradstep::python {

namespace {

using InitPtr = std::shared_ptr<Initializer>;

/// MindSpore looks string aliases up lower-cased: class names ('truncatednormal') and aliases.
std::string coreAlias(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name == "truncatednormal")
        return "truncatedNormal";
    if (name == "heuniform")
        return "he_uniform";
    if (name == "henormal")
        return "he_normal";
    if (name == "xavieruniform")
        return "xavier_uniform";
    if (name == "xaviernormal")
        return "xavier_normal";
    return name;
}

Shape toShape(py::handle shape)
{
    if (PyLong_Check(shape.ptr()))
        return Shape({shape.cast<std::int64_t>()});
    if (PyTuple_Check(shape.ptr()) || PyList_Check(shape.ptr())) {
        const auto dims = shape.cast<std::vector<std::int64_t>>();
        for (std::int64_t d : dims)
            if (d < 0)
                throw py::value_error("For 'initializer', the 'shape' must not hold negative "
                                      "dimensions, but got " + std::string(py::str(shape)) + ".");
        return Shape(dims);
    }
    throw py::type_error("For 'initializer', the 'shape' must be an int, a tuple or a list of ints, but got '"
                         + pyTypeName(shape) + "'.");
}

template <class T>
py::class_<T, Initializer, std::shared_ptr<T>> initClass(py::module_& m, const char* name, const char* doc)
{
    return py::class_<T, Initializer, std::shared_ptr<T>>(m, name, doc);
}

void bindRandomInitializers(py::module_& m)
{
    initClass<Normal>(m, "Normal", "N(mean, sigma^2).")
        .def(py::init<double, double>(), py::arg("sigma") = 0.01, py::arg("mean") = 0.0);
    initClass<TruncatedNormal>(m, "TruncatedNormal", "N(0, sigma^2) truncated to [-2, 2].")
        .def(py::init<double>(), py::arg("sigma") = 0.01);
    initClass<HeUniform>(m, "HeUniform", "U(-b, b), b = gain * sqrt(3 / fan).")
        .def(py::init<double, std::string, std::string>(), py::arg("negative_slope") = 0.0,
             py::arg("mode") = "fan_in", py::arg("nonlinearity") = "leaky_relu");
    initClass<HeNormal>(m, "HeNormal", "N(0, std^2), std = gain / sqrt(fan).")
        .def(py::init<double, std::string, std::string>(), py::arg("negative_slope") = 0.0,
             py::arg("mode") = "fan_in", py::arg("nonlinearity") = "leaky_relu");
    initClass<XavierUniform>(m, "XavierUniform", "U(-b, b), b = gain * sqrt(6 / (fan_in + fan_out)).")
        .def(py::init<double>(), py::arg("gain") = 1.0);
    initClass<XavierNormal>(m, "XavierNormal", "N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)).")
        .def(py::init<double>(), py::arg("gain") = 1.0);
    initClass<Uniform>(m, "Uniform", "U(-scale, scale).")
        .def(py::init<double>(), py::arg("scale") = 0.07);
}

void bindConstantInitializers(py::module_& m)
{
    py::class_<Constant, Initializer, std::shared_ptr<Constant>>(m, "Constant", "Every element = value.")
        .def(py::init([](const py::object& value) {
                 if (!isScalar(value))
                     throw py::type_error("For 'Constant', the 'value' must be a number, but got '"
                                          + pyTypeName(value) + "'.");
                 return std::make_shared<Constant>(value.cast<double>());
             }),
             py::arg("value"));
    py::class_<Zero, Constant, std::shared_ptr<Zero>>(m, "Zero", "Every element 0.").def(py::init<>());
    py::class_<One, Constant, std::shared_ptr<One>>(m, "One", "Every element 1.").def(py::init<>());
}

/// What `super().__init__()` of a Python subclass constructs (MindSpore's Initializer(**kwargs));
/// on its own it has nothing to fill with.
class InitializerBase : public Initializer {
public:
    std::string name() const override { return "Initializer"; }
    void fill(Tensor&, InitSeedSource&) const override
    {
        throw py::type_error("For 'Initializer', a subclass must define _initialize(arr) to fill arr.");
    }
};

/// An Initializer subclass written in Python, as MindSpore's tutorial writes XavierNormal: its
/// _initialize(arr) fills a NumPy array of the parameter's shape and dtype in place. The Python
/// object is held here, so a weight_init given inline outlives the constructor call.
class PythonInitializer final : public Initializer {
public:
    explicit PythonInitializer(py::object self) : m_self(std::move(self)) {}
    ~PythonInitializer() override
    {
        py::gil_scoped_acquire gil;
        m_self = py::object();
    }
    PythonInitializer(const PythonInitializer&) = delete;
    PythonInitializer& operator=(const PythonInitializer&) = delete;

    std::string name() const override
    {
        py::gil_scoped_acquire gil;
        return py::str(py::type::handle_of(m_self).attr("__name__"));
    }

    void fill(Tensor& t, InitSeedSource&) const override
    {
        py::gil_scoped_acquire gil;
        py::array values = toNumpy(Tensor::zeros(t.shape(), t.dtype())).attr("copy")();
        m_self.attr("_initialize")(values);
        t.copyFrom(toTensor(values, t.dtype()));
    }

private:
    py::object m_self;
};

} // namespace

InitSpec toInitSpec(py::handle init, const std::string& who)
{
    if (init.is_none())
        return {};
    if (PyUnicode_Check(init.ptr()))
        return InitSpec(coreAlias(init.cast<std::string>()));
    if (py::isinstance<Initializer>(init) && py::hasattr(init, "_initialize"))
        return InitSpec(std::shared_ptr<const Initializer>(
            std::make_shared<PythonInitializer>(py::reinterpret_borrow<py::object>(init))));
    if (py::isinstance<Initializer>(init))
        return InitSpec(std::shared_ptr<const Initializer>(init.cast<InitPtr>()));
    if (isScalar(init) && !PyBool_Check(init.ptr()))
        return InitSpec(std::make_shared<Constant>(init.cast<double>()));
    if (asTensor(init) || py::isinstance<py::array>(init))
        return InitSpec(toTensor(init));
    throw py::type_error("For '" + who
                         + "', the init must be a str, an Initializer, a Tensor or a number, but got '"
                         + pyTypeName(init) + "'.");
}

void bindInitializers(py::module_& m)
{
    py::class_<Initializer, InitializerBase, InitPtr>(m, "Initializer", "The base of the weight initializers.")
        .def(py::init([](const py::kwargs&) { return new InitializerBase(); }))
        .def("__repr__", [](const Initializer& init) { return init.name() + "()"; })
        .def_property_readonly("name", &Initializer::name);
    bindRandomInitializers(m);
    bindConstantInitializers(m);
    m.def("initializer",
          [](const py::object& init, const py::object& shape, const py::object& dtype) {
              const DType type = dtype.is_none() ? DType::Float32 : toDType(dtype);
              const Tensor* given = asTensor(init);
              const Shape dims = shape.is_none() && given ? given->shape() : toShape(shape);
              const InitSpec spec = toInitSpec(init, "initializer");
              if (isFloating(type))
                  return initializer(spec, dims, type);
              // Integer and bool results: drawn in float64, then converted (Constant(1) as int32).
              return Tensor::fromDoubles(dims, initializer(spec, dims, DType::Float64).toDoubles(), type);
          },
          py::arg("init"), py::arg("shape") = py::none(), py::arg("dtype") = py::none(),
          "A new Tensor of `shape` filled by `init` (a name, an Initializer, a Tensor or a number).");
}

} // namespace gradstep::python
