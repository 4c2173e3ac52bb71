// Transforms applied to rows by map, and the ones MindSpore offers without Python: TypeCast
// (mindspore.dataset.transforms), Rescale and HWC2CHW (mindspore.dataset.vision).
// SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"

#include <memory>
#include <string>
#include <vector>

namespace gradstep::data {

class Transform {
public:
    virtual ~Transform() = default;
    /// The name in diagnostics: "TypeCast", or a Python callable's name.
    virtual std::string name() const = 0;
    /// The output columns for the given input columns of one row.
    virtual Row apply(Row inputs) const = 0;
};

using TransformPtr = std::shared_ptr<const Transform>;

/// A transform of each input array on its own (TypeCast, Rescale, HWC2CHW).
class ArrayTransform : public Transform {
public:
    Row apply(Row inputs) const override;
    virtual Array applyOne(const Array& input) const = 0;
};

/// Converts the element type. Float to integer truncates toward zero and saturates at the target's
/// range (NaN becomes 0), so no value is undefined; other conversions follow C++ (integers wrap).
class TypeCast : public ArrayTransform {
public:
    explicit TypeCast(ElementType target);
    std::string name() const override { return "TypeCast"; }
    Array applyOne(const Array& input) const override;

private:
    ElementType m_target;
};

/// y = x * rescale + shift as float32 (MindSpore's vision.Rescale).
class Rescale : public ArrayTransform {
public:
    Rescale(double rescale, double shift) : m_rescale(rescale), m_shift(shift) {}
    std::string name() const override { return "Rescale"; }
    Array applyOne(const Array& input) const override;

private:
    double m_rescale;
    double m_shift;
};

/// An image (H, W, C) as (C, H, W); a 2-D (H, W) image becomes (1, H, W). Other ranks are an error.
class HWC2CHW : public ArrayTransform {
public:
    std::string name() const override { return "HWC2CHW"; }
    Array applyOne(const Array& input) const override;
};

/// Replaces `inputColumns` (by default the first column) by what `operations` make of them,
/// applied in order. The outputs are named `outputColumns` (by default the input names; required
/// when the count changes) and take the place of the first input column.
DatasetPtr map(DatasetPtr input, std::vector<TransformPtr> operations, std::vector<std::string> inputColumns,
               std::vector<std::string> outputColumns);

} // namespace gradstep::data
