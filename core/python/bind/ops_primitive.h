// The primitive classes of mindspore.ops (bind_ops_primitives.cpp): what a primitive object holds
// and the table entry that describes one primitive class. Internal to core/python.
// SPDX-License-Identifier: MIT
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gradstep::python::ops {

struct Primitive;
/// Runs the primitive on its inputs (already checked against the table's input count).
using Call = pybind11::object (*)(const Primitive&, const pybind11::args&);

/// The C++ state of an ops.Primitive object: its name, attributes (in declaration order) and call.
struct Primitive {
    std::string name;
    pybind11::dict attrs;
    Call call = nullptr;

    bool flag(const char* key) const { return attrs[key].cast<bool>(); }
    std::int64_t integer(const char* key) const { return attrs[key].cast<std::int64_t>(); }
    pybind11::object value(const char* key) const { return attrs[key]; }
};

/// How an attribute given to __init__ is checked (and stored).
enum class Kind { Bool, Int, Float, Str, IntOrTuple, DType };
struct Required {};
struct EmptyTuple {};
struct NoneValue {};
using Default = std::variant<Required, NoneValue, bool, std::int64_t, double, const char*, EmptyTuple>;

struct AttrSpec {
    const char* name;
    Kind kind;
    Default value;
};

struct PrimSpec {
    const char* name;
    std::vector<AttrSpec> attrs;
    int minInputs;
    int maxInputs;
    Call call;
};

/// Conv2D, MaxPool, AvgPool, BiasAdd, Dropout, the softmax cross-entropies and Print
/// (bind_ops_primitives_nn.cpp).
std::vector<PrimSpec> nnPrimitives();
/// AllReduce, AllGather, ReduceScatter, Broadcast and AlltoAll (bind_ops_primitives_comm.cpp).
std::vector<PrimSpec> commPrimitives();

} // namespace gradstep::python::ops
