// Decoding fuzz bytes into a FuzzProgram. Values lean towards the ones that break kernels (NaN,
// +-Inf, -0, denormals, extremes, small ints that are valid axes and indices) but any bit pattern
// can occur. SPDX-License-Identifier: MIT
#include "tests/fuzz/fuzz_program.h"

#include "ops/registry.h"
#include "tensor/dtype_storage.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstring>
#include <limits>
#include <string>

namespace gradstep::fuzz {

namespace {

constexpr int kMaxInputTensors = 4;
constexpr int kMaxCalls = 12;
constexpr int kMaxRank = 4;
constexpr std::int64_t kMaxDim = 12;

// The attribute names ops read (grep attrs.get / pairAttr / shapeAttr in core/ops); a name the op
// does not read is ignored, so extra names only cost a little time.
constexpr std::array<const char*, 38> kAttrNames = {
    "axis", "keep_dims", "shape", "perm", "multiples", "begin", "end", "strides", "stride",
    "kernel_size", "pad_mode", "pad", "dilation", "group", "dtype", "depth", "on_value", "off_value",
    "value", "alpha", "approximate", "keep_prob", "seed", "p", "transpose_a", "transpose_b",
    "num_segments", "output_num", "sizes", "input_shape", "input_size", "filter_size", "reduction",
    "begin_norm_axis", "begin_params_axis", "epsilon", "num_groups", "is_training"};

constexpr std::array<const char*, 9> kStrings = {"valid", "same", "pad", "VALID", "SaMe", "mean", "sum",
                                                 "none", ""};

// Every dtype: storage dtypes reach the kernels through dispatch's widening.
constexpr auto& kDTypes = kAllDTypes;

template <class T> T specialFloat(FuzzedDataProvider& in)
{
    using L = std::numeric_limits<T>;
    const std::array<T, 16> table = {T(0), -T(0), T(1), T(-1), T(0.5), T(2), T(-3), L::quiet_NaN(),
                                     L::infinity(), -L::infinity(), L::denorm_min(), L::min(), L::max(),
                                     L::lowest(), L::epsilon(), T(1e-3)};
    return table[in.ConsumeIntegralInRange<std::size_t>(0, table.size() - 1)];
}

template <class T> T randomFloat(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return specialFloat<T>(in);
    case 1: { // any bit pattern: NaN payloads, denormals, everything
        using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        const Bits bits = in.ConsumeIntegral<Bits>();
        T v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    default: return static_cast<T>(in.ConsumeIntegralInRange<int>(-8, 8)) / T(4);
    }
}

template <class T> T randomInt(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: return std::numeric_limits<T>::min();
    case 1: return std::numeric_limits<T>::max();
    case 2: return in.ConsumeIntegral<T>();
    default: return static_cast<T>(in.ConsumeIntegralInRange<int>(-3, 8));
    }
}

template <class T> T randomValue(FuzzedDataProvider& in)
{
    if constexpr (kIsComplex<T>) {
        using R = typename T::value_type;
        const R re = randomFloat<R>(in);
        return T(re, randomFloat<R>(in));
    } else if constexpr (std::is_same_v<T, bool>)
        return in.ConsumeBool();
    else if constexpr (std::is_floating_point_v<T>)
        return randomFloat<T>(in);
    else
        return randomInt<T>(in);
}

Shape randomShape(FuzzedDataProvider& in)
{
    const int rank = in.ConsumeIntegralInRange<int>(0, kMaxRank);
    std::vector<std::int64_t> dims;
    std::int64_t numel = 1; // of the non-zero dims, so an empty tensor's other dims stay bounded
    for (int i = 0; i < rank; ++i) {
        std::int64_t d = in.ConsumeIntegralInRange<std::int64_t>(0, kMaxDim);
        if (numel * d > kMaxElements)
            d = kMaxElements / numel;
        dims.push_back(d);
        if (d != 0)
            numel *= d;
    }
    return Shape(dims);
}

Tensor randomTensor(FuzzedDataProvider& in)
{
    const DType dtype = in.PickValueInArray(kDTypes);
    // Storage dtypes draw their values in their compute dtype and are converted (wrapping or
    // rounding as a cast does); complex ones draw each part as a float of the part's width.
    Tensor t = Tensor::empty(randomShape(in), computeDType(dtype));
    // One repeated value is common in real inputs and makes ties; otherwise each element differs.
    const bool constant = in.ConsumeIntegralInRange<int>(0, 3) == 0;
    visitDataDType(t.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* p = t.data<T>();
        const T first = randomValue<T>(in);
        for (std::int64_t i = 0; i < t.numel(); ++i)
            p[i] = constant || i == 0 ? first : randomValue<T>(in);
    });
    return convertDType(t, dtype);
}

std::int64_t attrInt(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return std::numeric_limits<std::int64_t>::min();
    case 1: return std::numeric_limits<std::int64_t>::max();
    case 2: return in.ConsumeIntegral<std::int64_t>();
    case 3: return in.ConsumeIntegralInRange<std::int64_t>(-70000, 70000);
    default: return in.ConsumeIntegralInRange<std::int64_t>(-5, 8);
    }
}

AttrValue randomAttrValue(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegralInRange<int>(0, 6)) {
    case 0: return attrInt(in);
    case 1: return randomFloat<double>(in);
    case 2: return in.ConsumeBool();
    case 3: return std::string(in.PickValueInArray(kStrings));
    case 4: return in.PickValueInArray(kDTypes);
    default: {
        std::vector<std::int64_t> v(in.ConsumeIntegralInRange<std::size_t>(0, 9));
        for (std::int64_t& x : v)
            x = attrInt(in);
        return v;
    }
    }
}

FuzzCall randomCall(FuzzedDataProvider& in)
{
    const auto& ops = OpRegistry::instance().ops();
    FuzzCall call;
    call.op = ops[in.ConsumeIntegralInRange<std::size_t>(0, ops.size() - 1)];
    // Mostly a valid arity (variadic ops get up to four more); sometimes anything, to test the check.
    int count = 0;
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {
        count = in.ConsumeIntegralInRange<int>(0, 6);
    } else {
        const int high = call.op->maxInputs < 0 ? call.op->minInputs + 4 : call.op->maxInputs;
        count = in.ConsumeIntegralInRange<int>(call.op->minInputs, high);
    }
    for (int i = 0; i < count; ++i)
        call.inputs.push_back(in.ConsumeIntegral<std::uint8_t>());
    const int attrCount = in.ConsumeIntegralInRange<int>(0, 5);
    for (int i = 0; i < attrCount; ++i)
        call.attrs.set(in.PickValueInArray(kAttrNames), randomAttrValue(in));
    return call;
}

} // namespace

FuzzProgram decodeProgram(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider in(data, size);
    FuzzProgram program;
    program.mode = static_cast<FuzzMode>(in.ConsumeIntegralInRange<int>(0, 2));
    const int inputCount = in.ConsumeIntegralInRange<int>(1, kMaxInputTensors);
    for (int i = 0; i < inputCount; ++i)
        program.inputs.push_back(randomTensor(in));
    const int callCount = in.ConsumeIntegralInRange<int>(1, kMaxCalls);
    for (int i = 0; i < callCount && in.remaining_bytes() > 0; ++i)
        program.calls.push_back(randomCall(in));
    return program;
}

} // namespace gradstep::fuzz
