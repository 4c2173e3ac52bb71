// Checks and attribute parsing shared by the nn ops. SPDX-License-Identifier: MIT
#include "ops/nn/common.h"

#include "ops/reduction.h"

#include <algorithm>
#include <cctype>

namespace gradstep {

void requireFloat(const OpCall& call, std::size_t i)
{
    const DType dtype = call.input(i).dtype();
    if (!isFloating(dtype))
        throwInputDType(call, i, kFloatDTypes);
}

void requireMatmulDType(const OpCall& call, std::size_t i)
{
    constexpr DTypeSet kIntegers = dtypeBit(DType::UInt8) | dtypeBit(DType::Int8) | dtypeBit(DType::Int16)
                                   | dtypeBit(DType::Int32) | dtypeBit(DType::Int64);
    requireInputDType(call, i, kFloatDTypes | kComplexDTypes | kIntegers);
}

void requireFloatsOfOneDType(const OpCall& call, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i) {
        requireFloat(call, i);
        requireSameDType(call, 0, i);
    }
}

void requireSameDType(const OpCall& call, std::size_t i, std::size_t j)
{
    const DType a = call.input(i).dtype();
    const DType b = call.input(j).dtype();
    if (a != b)
        throwDTypeError(call, "inputs " + std::to_string(i) + " and " + std::to_string(j)
                                  + " must have the same dtype, got " + std::string(dtypeName(a)) + " and "
                                  + std::string(dtypeName(b)));
}

void requireRank(const OpCall& call, std::size_t i, int rank, const char* what)
{
    const Shape& shape = call.input(i).shape();
    if (shape.rank() != rank)
        throwShapeError(call, std::string(what) + " must be " + std::to_string(rank) + "-D, got shape "
                                  + shape.toString());
}

std::array<std::int64_t, 2> pairAttr(const OpCall& call, const char* name, std::int64_t minimum)
{
    const std::vector<std::int64_t> v = call.attrs.getInts(name);
    if (v.size() != 1 && v.size() != 2)
        throwValueError(call, std::string(name) + " must be an int or a pair, got " + std::to_string(v.size())
                                  + " values");
    const std::array<std::int64_t, 2> pair{v[0], v.size() == 2 ? v[1] : v[0]};
    for (std::int64_t value : pair)
        if (value < minimum)
            throwValueError(call, std::string(name) + " must be >= " + std::to_string(minimum) + ", got "
                                      + std::to_string(value));
    return pair;
}

Shape shapeAttr(const OpCall& call, const char* name, int rank)
{
    const std::vector<std::int64_t> v = call.attrs.getInts(name);
    if (static_cast<int>(v.size()) != rank)
        throwValueError(call, std::string(name) + " must have " + std::to_string(rank) + " entries, got "
                                  + std::to_string(v.size()));
    for (std::int64_t d : v)
        if (d < 0)
            throwValueError(call, std::string(name) + " has a negative entry " + std::to_string(d));
    return Shape(v);
}

std::string padModeAttr(const OpCall& call, const std::vector<std::string>& allowed)
{
    std::string mode = call.attrs.getString("pad_mode", "valid");
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (std::find(allowed.begin(), allowed.end(), mode) == allowed.end()) {
        std::string expected;
        for (const std::string& a : allowed)
            expected += (expected.empty() ? "'" : ", '") + a + "'";
        throwValueError(call, "pad_mode must be one of " + expected + ", got '" + mode + "'");
    }
    return mode;
}

SamePadding samePadding(std::int64_t in, std::int64_t window, std::int64_t stride)
{
    const std::int64_t out = (in + stride - 1) / stride;
    const std::int64_t total = std::max<std::int64_t>((out - 1) * stride + window - in, 0);
    return {out, total / 2, total - total / 2};
}

Attrs pickAttrs(const Attrs& attrs, std::initializer_list<const char*> names)
{
    Attrs picked;
    for (const auto& [key, value] : attrs.items())
        for (const char* name : names)
            if (key == name)
                picked.set(key, value);
    return picked;
}

void checkReduction(const std::string& reduction, const char* op)
{
    if (reduction != "mean" && reduction != "sum" && reduction != "none")
        throw ValueError("for '" + std::string(op) + "', reduction must be 'mean', 'sum' or 'none', got '"
                         + reduction + "'");
}

Tensor applyReduction(const Tensor& loss, const std::string& reduction)
{
    if (reduction == "none")
        return loss;
    // ReduceMean / ReduceSum over every axis, as MindSpore's LossBase.get_loss does.
    return reduction == "sum" ? reduceSum(loss) : reduceMean(loss);
}

} // namespace gradstep
