// Element types of a Tensor and the promotion rule between them. SPDX-License-Identifier: MIT
#include "tensor/dtype.h"

namespace gradstep {

std::size_t itemSize(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return 1;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::Float32: return 4;
    case DType::Float64: return 8;
    }
    return 8;
}

std::string_view dtypeName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "Bool";
    case DType::Int32: return "Int32";
    case DType::Int64: return "Int64";
    case DType::Float32: return "Float32";
    case DType::Float64: return "Float64";
    }
    return "Unknown";
}

bool isFloating(DType dtype) { return dtype == DType::Float32 || dtype == DType::Float64; }
bool isIntegral(DType dtype) { return dtype == DType::Int32 || dtype == DType::Int64; }

DType promote(DType a, DType b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

} // namespace gradstep
