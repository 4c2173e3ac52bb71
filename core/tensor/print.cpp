// MindSpore-style printing: Tensor(shape=[2, 3], dtype=Float32, value=...), values laid out
// like NumPy's repr (nested brackets, aligned columns, long tensors summarised with "...").
// SPDX-License-Identifier: MIT
#include "tensor/tensor.h"

#include "tensor/dtype_storage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep {

namespace {

constexpr std::int64_t kSummaryThreshold = 1000;
constexpr std::int64_t kEdgeItems = 3;

std::string formatReal(double v, const char* format)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// NumPy's spelling: re+imj, with the imaginary part's own sign.
std::string formatComplex(const Tensor& t, std::int64_t i)
{
    const std::complex<double> z = visitComplex(t.dtype(), [&](auto* tag) {
        using C = std::remove_pointer_t<decltype(tag)>;
        return convertElement<std::complex<double>>(static_cast<const C*>(t.rawData())[i]);
    });
    const std::string im = formatReal(z.imag(), "%.8e");
    const bool signed_ = im[0] == '-' || im[0] == '+';
    return formatReal(z.real(), "%.8e") + (signed_ ? "" : "+") + im + "j";
}

std::string formatElement(const Tensor& t, std::int64_t i)
{
    const DType dtype = t.dtype();
    if (dtype == DType::Bool)
        return t.at(i) != 0 ? "True" : "False";
    if (isComplex(dtype))
        return formatComplex(t, i);
    if (!isFloating(dtype)) {
        // Read in the tensor's own type: a double would round 64-bit values.
        return visitStorageDType(dtype, [&](auto* tag) -> std::string {
            using T = std::remove_pointer_t<decltype(tag)>;
            if constexpr (kIsIntStorage<T>)
                return std::to_string(static_cast<const T*>(t.rawData())[i]);
            else
                return std::string();
        });
    }
    // MindSpore prints the 16-bit floats with 4 digits after the point (their ~3.3 significant
    // decimal digits), the others with 8.
    const bool half = dtype == DType::Float16 || dtype == DType::BFloat16;
    return formatReal(t.at(i), half ? "%.4e" : "%.8e");
}

struct Printer {
    const Tensor& t;
    std::vector<std::string> cells;
    std::size_t width = 0;
    bool summarise = false;
    /// A first pass finds the column width from the elements that will be printed (as NumPy
    /// does): a summarised tensor never formats the millions it leaves out.
    bool measuring = false;

    bool skipped(std::int64_t index, std::int64_t dim) const
    {
        return summarise && dim > 2 * kEdgeItems && index >= kEdgeItems && index < dim - kEdgeItems;
    }

    void render(std::string& out, int axis, std::int64_t offset, std::int64_t stride, int indent)
    {
        const Shape& s = t.shape();
        const std::int64_t dim = s[axis];
        const std::int64_t inner = stride / (dim == 0 ? 1 : dim);
        out += "[";
        bool first = true;
        for (std::int64_t i = 0; i < dim; ++i) {
            if (skipped(i, dim)) {
                if (i == kEdgeItems)
                    out += axis == s.rank() - 1 ? ", ..." : ",\n" + std::string(indent + 1, ' ') + "...";
                continue;
            }
            if (!first)
                out += axis == s.rank() - 1 ? ", " : ",\n" + std::string(indent + 1, ' ');
            first = false;
            if (axis == s.rank() - 1) {
                std::string cell = formatElement(t, offset + i);
                if (measuring)
                    width = std::max(width, cell.size());
                else
                    out += std::string(width - cell.size(), ' ') + cell;
            } else {
                render(out, axis + 1, offset + i * inner, inner, indent + 1);
            }
        }
        out += "]";
    }
};

} // namespace

std::string Tensor::toString() const
{
    if (!defined())
        return "Tensor(undefined)";
    std::string head = "Tensor(shape=" + shape().toString() + ", dtype=" + std::string(dtypeName(dtype()))
                       + ", value=";
    // A 0-D float prints as MindSpore's C++ stream does (6 significant digits, no padding):
    // value= 2, value= 0.333333, value= 1e-06.
    if (rank() == 0)
        return head + " " + (isFloating(dtype()) ? formatReal(at(0), "%g") : formatElement(*this, 0)) + ")";
    if (numel() == 0)
        return head + " [])";
    Printer p{*this, {}, 0, numel() > kSummaryThreshold, true};
    // Negative numbers get no extra room; positive ones are padded to line up with them.
    std::string scratch;
    p.render(scratch, 0, 0, numel(), 0);
    p.measuring = false;
    if (isFloating(dtype()))
        p.width = std::max<std::size_t>(p.width, dtype() == DType::Float16 || dtype() == DType::BFloat16 ? 11 : 15);
    std::string body;
    p.render(body, 0, 0, numel(), 0);
    return head + (rank() > 1 ? "\n" : " ") + body + ")";
}

} // namespace gradstep
