// Conversions between Python values and core tensors and dtypes (GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>

namespace gradstep::python {

/// The Python object for a dtype (mindspore.float32, ...): one object per dtype.
pybind11::object dtypeObject(DType dtype);
/// mindspore dtypes, NumPy dtypes and scalar types (np.float32), and the Python types
/// float, int and bool. TypeError for anything else or a dtype the core lacks.
DType toDType(pybind11::handle dtype);
/// NumPy's spelling of a dtype: "float32", "int64", "bool".
/// The dtype with a NumPy dtype's kind and width (Bool, integers, floats but bfloat16, complex);
/// none for others (float128, strings, objects).
std::optional<DType> numpyDType(const pybind11::dtype& dtype);
const char* numpyName(DType dtype);

/// A new tensor holding a copy of `data`: a Tensor, NumPy array or scalar, nested lists or
/// tuples, or a Python bool / int / float. Without a dtype, NumPy arrays keep theirs (float16 as
/// Float32, smaller integers as Int32) while Python floats become Float32 and ints Int64, as
/// MindSpore does.
Tensor toTensor(pybind11::handle data, std::optional<DType> dtype = std::nullopt);
/// A NumPy array holding a copy of the tensor's values.
pybind11::array toNumpy(const Tensor& tensor);
/// TypeError for a symbolic tensor (graph mode compiles with tensors that have no values yet).
void requireValues(const Tensor& tensor);

/// The Tensor held by `value` when it is a mindspore.Tensor (or a subclass), else null. The
/// operators use it instead of py::isinstance + cast, which each search pybind11's type tables.
const Tensor* asTensor(pybind11::handle value);

/// True for Python bool / int / float and NumPy scalars.
bool isScalar(pybind11::handle value);
/// The second operand of `tensor OP value`: a tensor as is, a scalar as a 0-D tensor whose dtype
/// follows MindSpore (the tensor's dtype unless a float meets an integer tensor: Float32, or an
/// int meets a bool tensor: Int32), arrays and lists converted. Nullopt when `value` is none of
/// these (the operator then returns NotImplemented).
std::optional<Tensor> toOperand(pybind11::handle value, const Tensor& tensor);

} // namespace gradstep::python
