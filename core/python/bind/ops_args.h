// Argument handling shared by the mindspore.ops bindings (bind_ops_*.cpp): MindSpore-style checks
// that name the op and the argument ("For 'ReduceSum', the 'axis' must be ..."), and the
// functional ops that the primitive classes call as well. Internal to core/python.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep::python::ops {

using Axes = std::vector<std::int64_t>;

std::string typeName(pybind11::handle value);
[[noreturn]] void throwArgType(const char* op, const char* arg, const char* expected, pybind11::handle got);

/// A Tensor argument; anything else is a TypeError naming op and arg.
const Tensor& tensorArg(pybind11::handle value, const char* op, const char* arg);
/// Two operands of a binary op: at least one Tensor, the other a Tensor or a Python / NumPy
/// number typed as the Tensor operators type it (convert.h toOperand).
std::pair<Tensor, Tensor> binaryArgs(pybind11::handle a, pybind11::handle b, const char* op);
/// None (every axis), an int, or a tuple / list of ints.
Axes axesArg(pybind11::handle axis, const char* op, const char* arg);
/// An int (not a bool).
std::int64_t intArg(pybind11::handle value, const char* op, const char* arg);
bool boolArg(pybind11::handle value, const char* op, const char* arg);
/// A tuple or list of ints (an int alone is a 1-tuple).
Axes shapeArg(pybind11::handle value, const char* op, const char* arg);
/// An int or a pair of ints, given as (h, w) for 2-D ops.
Axes pairArg(pybind11::handle value, const char* op, const char* arg);
/// A tuple or list of Tensors.
TensorList tensorsArg(pybind11::handle value, const char* op, const char* arg);
/// A Python tuple of the tensors.
pybind11::tuple tupleOf(const TensorList& tensors);

// Functional ops shared with the primitive classes and the Tensor methods.
/// Merges axes start..end into one (a 0-D tensor becomes 1-D), as Tensor.flatten / ops.flatten.
Tensor flattenRange(const Tensor& x, std::int64_t startDim, std::int64_t endDim);
Tensor trueDiv(const Tensor& a, const Tensor& b);
Tensor reduceOp(const char* op, const Tensor& x, const Axes& axis, bool keepDims);
/// ops.norm / Tensor.norm: ord None, 'fro' or a number p >= 1 (vector p-norm over `dim`, every axis
/// when None); matrix norms such as 'nuc' or ord=inf are a ValueError naming them.
Tensor normOp(const Tensor& x, pybind11::handle ord, pybind11::handle dim, bool keepDim);
Tensor clipValue(const Tensor& x, pybind11::handle low, pybind11::handle high, const char* op);
Tensor whereOp(pybind11::handle condition, pybind11::handle x, pybind11::handle y, const char* op);
Tensor oneHotOp(pybind11::handle indices, pybind11::handle depth, pybind11::handle on, pybind11::handle off,
                std::int64_t axis, const char* op);
Tensor filled(const Axes& shape, double value, pybind11::handle dtype, DType fallback);
Tensor filledLike(const Tensor& x, double value, pybind11::handle dtype);
Tensor softmaxCrossEntropyOp(const Tensor& logits, const Tensor& labels, bool sparse);
/// MindSpore's pad_mode for Conv2D / MaxPool: "same", "valid" or "pad" (lower or upper case).
std::string padModeArg(pybind11::handle value, const char* op, bool allowPad);

void bindMath(pybind11::module_& ops);
void bindArray(pybind11::module_& ops);
void bindNnFunctional(pybind11::module_& ops);
/// The fused norm and activation kernels the Python layers call: _layer_norm, _group_norm, _batch_norm,
/// _silu.
void bindFusedNn(pybind11::module_& ops);
void bindPrimitives(pybind11::module_& ops, pybind11::module_& operations);

} // namespace gradstep::python::ops
