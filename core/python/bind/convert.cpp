// Python values <-> core tensors. Data always crosses by copy: a tensor saved on a tape must not
// change when the script later writes into the NumPy array it came from.
// SPDX-License-Identifier: MIT
#include "python/bind/convert.h"

#include "graph/graph.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

#include <cstring>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

/// Python floats are Float32, complex numbers Complex64 and ints Int64 in a MindSpore Tensor
/// (NumPy would say float64 and complex128).
std::optional<DType> pythonDType(const py::dtype& dtype)
{
    switch (dtype.kind()) {
    case 'b': return DType::Bool;
    case 'f': return DType::Float32;
    case 'c': return DType::Complex64;
    case 'i':
    case 'u': return DType::Int64;
    default: return std::nullopt;
    }
}

/// Float to int follows NumPy's cast; NaN and overflow would warn, which a constructor should not.
class QuietCasts {
public:
    QuietCasts() : m_saved(numpy().attr("seterr")(py::arg("invalid") = "ignore", py::arg("over") = "ignore")) {}
    ~QuietCasts()
    {
        try {
            numpy().attr("seterr")(**m_saved);
        } catch (py::error_already_set&) {
            PyErr_Clear();
        }
    }
    QuietCasts(const QuietCasts&) = delete;
    QuietCasts& operator=(const QuietCasts&) = delete;

private:
    py::dict m_saved;
};

Tensor fromArray(const py::array& array, DType dtype)
{
    // NumPy has no bfloat16: values go through float32 and round once to bfloat16.
    if (dtype == DType::BFloat16)
        return convertDType(fromArray(array, DType::Float32), DType::BFloat16);
    py::array contiguous;
    // Complex to real keeps the real part, as Cast does (NumPy would warn on the way).
    if (array.dtype().kind() == 'c' && !isComplex(dtype))
        return fromArray(py::array(array.attr("real")), dtype);
    if (isFloating(dtype) || isComplex(dtype) || array.dtype().kind() != 'f') {
        contiguous = numpy().attr("asarray")(array, py::arg("dtype") = numpyName(dtype), py::arg("order") = "C");
    } else {
        QuietCasts quiet;
        contiguous = numpy().attr("asarray")(array, py::arg("dtype") = numpyName(dtype), py::arg("order") = "C");
    }
    std::vector<std::int64_t> dims(contiguous.shape(), contiguous.shape() + contiguous.ndim());
    Tensor t = Tensor::empty(Shape(dims), dtype);
    if (t.nbytes() > 0)
        std::memcpy(t.rawData(), contiguous.data(), t.nbytes());
    return t;
}

[[noreturn]] void unsupported(py::handle data, const py::dtype& dtype)
{
    throw py::type_error("For 'Tensor', input_data must be numbers, nested lists or tuples of numbers, a "
                         "NumPy array or a Tensor; got " + std::string(py::str(py::type::handle_of(data).attr("__name__")))
                         + " of NumPy dtype " + std::string(py::str(static_cast<py::handle>(dtype))));
}

/// The smallest and largest value of an integer dtype, as Python ints.
std::pair<py::int_, py::int_> integerRange(DType dtype)
{
    if (isUnsigned(dtype)) {
        const unsigned bits = static_cast<unsigned>(itemSize(dtype) * 8);
        const std::uint64_t max = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
        return {py::int_(0), py::int_(max)};
    }
    const unsigned bits = static_cast<unsigned>(itemSize(dtype) * 8 - 1);
    const std::int64_t max = bits == 63 ? INT64_MAX : (std::int64_t{1} << bits) - 1;
    return {py::int_(-max - 1), py::int_(max)};
}

/// Python ints given for an integer dtype must fit it: MindSpore refuses what NumPy would wrap.
void checkIntegersFit(const py::array& values, DType dtype)
{
    if (!isIntegral(dtype) || values.size() == 0 || (values.dtype().kind() != 'i' && values.dtype().kind() != 'u'))
        return;
    const auto [lo, hi] = integerRange(dtype);
    const py::object minimum = values.attr("min")().attr("item")();
    const py::object maximum = values.attr("max")().attr("item")();
    const py::object bad = minimum < lo ? minimum : maximum > hi ? maximum : py::object();
    if (bad)
        throw py::value_error("For 'Tensor', the value " + py::str(bad).cast<std::string>()
                              + " is out of the range of " + std::string(dtypeName(dtype)) + ": ["
                              + py::str(static_cast<py::handle>(lo)).cast<std::string>() + ", "
                              + py::str(static_cast<py::handle>(hi)).cast<std::string>() + "].");
}

} // namespace

Tensor toTensor(py::handle data, std::optional<DType> dtype)
{
    if (py::isinstance<Tensor>(data)) {
        const Tensor& source = data.cast<const Tensor&>();
        if (!dtype || *dtype == source.dtype())
            return source.clone();
        return convertDType(source, *dtype).clone();
    }
    const bool isArray = py::isinstance<py::array>(data);
    const bool isNumpyScalar = py::isinstance(data, numpy().attr("generic"));
    py::array array = isArray ? py::reinterpret_borrow<py::array>(data)
                              : py::array(numpy().attr("asarray")(data));
    const py::dtype arrayDType = array.dtype();
    const std::optional<DType> natural =
        isArray || isNumpyScalar ? numpyDType(arrayDType) : pythonDType(arrayDType);
    if (!natural)
        unsupported(data, arrayDType);
    if (dtype && !isArray && !isNumpyScalar)
        checkIntegersFit(array, *dtype);
    return fromArray(array, dtype.value_or(*natural));
}

void requireValues(const Tensor& tensor)
{
    if (tensor.isDynamicPlaceholder())
        throw py::value_error("this tensor is a dynamic-shape placeholder (Tensor(shape=..., dtype=...) with None "
                              "dimensions): it has no values and only describes the inputs of Cell.set_inputs.");
    if (tensor.defined() && isSymbolic(tensor))
        throw py::type_error(
            "the value of this tensor is not known while the function is compiled for graph "
            "mode: use it in tensor operations (ops.select to choose between values, an `if` on "
            "a tensor comparison), not as a Python value, or run in PyNative mode");
}

py::array toNumpy(const Tensor& tensor)
{
    requireValues(tensor);
    std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
    py::array array(py::dtype(numpyName(tensor.dtype())), shape);
    if (tensor.nbytes() > 0)
        std::memcpy(array.mutable_data(), tensor.rawData(), tensor.nbytes());
    return array;
}

const Tensor* asTensor(py::handle value)
{
    static const py::detail::type_info* tensorType = py::detail::get_type_info(typeid(Tensor));
    py::detail::type_caster_generic caster(tensorType);
    return caster.load(value, false) ? static_cast<const Tensor*>(caster.value) : nullptr;
}

bool isScalar(py::handle value)
{
    return PyBool_Check(value.ptr()) || PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr())
           || PyComplex_Check(value.ptr()) || py::isinstance(value, numpy().attr("generic"));
}

namespace {

// A tuple or list whose leaves are all Tensors, stacked by the stack op (recorded, so the
// gradient reaches each Tensor as MindSpore's sequence-to-tensor conversion lets it); null for
// anything else, which converts through NumPy.
std::optional<Tensor> stackedTensors(py::handle value)
{
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        return std::nullopt;
    TensorList items;
    for (py::handle item : value) {
        if (const Tensor* t = asTensor(item))
            items.push_back(*t);
        else if (std::optional<Tensor> nested = stackedTensors(item))
            items.push_back(*nested);
        else
            return std::nullopt;
    }
    if (items.empty())
        return std::nullopt;
    return gradstep::stack(items, 0);
}

} // namespace

std::optional<Tensor> toOperand(py::handle value, const Tensor& tensor)
{
    if (const Tensor* other = asTensor(value))
        return *other;
    if (std::optional<Tensor> stacked = stackedTensors(value))
        return stacked;
    py::object scalar = py::reinterpret_borrow<py::object>(value);
    if (!PyBool_Check(value.ptr()) && !PyLong_Check(value.ptr()) && !PyFloat_Check(value.ptr())
        && !PyComplex_Check(value.ptr()) && py::isinstance(value, numpy().attr("generic")))
        scalar = value.attr("item")(); // NumPy scalars act as the Python number they hold
    const DType own = tensor.dtype();
    if (PyBool_Check(scalar.ptr()))
        return Tensor::scalar(scalar.ptr() == Py_True ? 1.0 : 0.0, own);
    if (PyLong_Check(scalar.ptr())) {
        const auto fits = [&](DType d) {
            const auto [lo, hi] = integerRange(d);
            return !(scalar < lo) && !(scalar > hi);
        };
        // MindSpore: a bool tensor meets an int as Int32. An int that the tensor's integer dtype
        // cannot hold widens the operation to Int64 instead of wrapping.
        DType target = own == DType::Bool ? DType::Int32 : own;
        if (isIntegral(target) && !fits(target))
            target = DType::Int64;
        if (target == DType::Int64 && !fits(DType::Int64))
            throw py::value_error("the integer " + std::string(py::str(scalar)) + " does not fit in Int64");
        if (!isIntegral(target))
            return Tensor::scalar(scalar.cast<double>(), target);
        // Exact for every integer: a double would round those above 2^53.
        const bool negative = scalar < py::int_(0);
        const Tensor exact = negative ? Tensor::fromVector<std::int64_t>({}, {scalar.cast<std::int64_t>()})
                                      : Tensor::fromVector<std::uint64_t>({}, {scalar.cast<std::uint64_t>()});
        return convertDType(exact, target);
    }
    if (PyFloat_Check(scalar.ptr()))
        return Tensor::scalar(scalar.cast<double>(), isFloating(own) || isComplex(own) ? own : DType::Float32);
    if (PyComplex_Check(scalar.ptr())) {
        // A complex scalar keeps a complex tensor's dtype; with a real tensor it is Complex64,
        // or Complex128 beside Float64 (the promotion rule's).
        const DType target = isComplex(own) ? own : promote(own, DType::Complex64);
        const Py_complex c = PyComplex_AsCComplex(scalar.ptr());
        Tensor t = Tensor::empty(Shape{}, target);
        visitComplex(target, [&](auto* tag) {
            using C = std::remove_pointer_t<decltype(tag)>;
            *t.data<C>() = convertElement<C>(std::complex<double>(c.real, c.imag));
        });
        return t;
    }
    if (py::isinstance<py::array>(value) || PyList_Check(value.ptr()) || PyTuple_Check(value.ptr()))
        return toTensor(value);
    return std::nullopt;
}

} // namespace gradstep::python
