// Weight initializers. SPDX-License-Identifier: MIT
#include "nn/initializer.h"

#include "random/mindspore_fill.h"

#include <cmath>

namespace gradstep {

namespace {

void requireFloat(const Tensor& t, const std::string& who)
{
    if (!isFloating(t.dtype()))
        throw TypeError("initializer " + who + " fills float tensors, got "
                        + std::string(dtypeName(t.dtype())));
}

// Writes draw() for every element in row-major order, drawing in double and rounding once
// (Float16/BFloat16 through their compute dtype).
template <class Draw>
void fillWith(Tensor& t, const std::string& who, Draw&& draw)
{
    requireFloat(t, who);
    Tensor target =
        isComputeDType(t.dtype()) ? t : Tensor::empty(t.shape(), computeDType(t.dtype()));
    visitFloat(target.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* out = target.data<T>();
        for (std::int64_t i = 0; i < target.numel(); ++i)
            out[i] = static_cast<T>(draw());
    });
    if (!target.sameAs(t))
        t.copyFrom(convertDType(target, t.dtype()));
}

// MindSpore fills a float32 NumPy buffer whatever the parameter's dtype and then assigns it to
// the parameter's array: a float64 parameter holds float32 values, a float16 one their rounding.
template <class Fill>
void fillFloat32(Tensor& t, const std::string& who, Fill&& fill)
{
    requireFloat(t, who);
    Tensor buffer = t.dtype() == DType::Float32 ? t : Tensor::empty(t.shape(), DType::Float32);
    fill(buffer.data<float>(), static_cast<std::size_t>(buffer.numel()));
    if (!buffer.sameAs(t))
        t.copyFrom(convertDType(buffer, t.dtype()));
}

void fillUniform(Tensor& t, const std::string& who, std::uint64_t seed, double low, double high)
{
    fillFloat32(t, who, [&](float* out, std::size_t n) {
        fillMindSporeUniform(seed, out, n, static_cast<float>(low), static_cast<float>(high));
    });
}

void fillNormal(Tensor& t, const std::string& who, std::uint64_t seed, double mean, double sigma)
{
    fillFloat32(t, who, [&](float* out, std::size_t n) {
        fillMindSporeNormal(seed, out, n, static_cast<float>(mean), static_cast<float>(sigma));
    });
}

double selectFan(const Fans& fans, const std::string& mode)
{
    if (mode == "fan_in")
        return fans.fanIn;
    if (mode == "fan_out")
        return fans.fanOut;
    throw ValueError("the 'mode' of an He initializer must be 'fan_in' or 'fan_out', got '" + mode
                     + "'");
}

void checkScale(const std::string& who, const char* what, double value)
{
    if (!(value >= 0.0) || std::isinf(value))
        throw ValueError("for '" + who + "', '" + what + "' must be a finite number >= 0, got "
                         + std::to_string(value));
}

} // namespace

Tensor Initializer::operator()(const Shape& shape, DType dtype) const
{
    Tensor t = Tensor::empty(shape, dtype);
    fill(t, initSeedSource());
    return t;
}

Fans computeFans(const Shape& shape)
{
    if (shape.rank() < 2)
        throw ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 "
                         "dimensions, but got dimensions "
                         + std::to_string(shape.rank()));
    double receptiveField = 1.0;
    for (int axis = 2; axis < shape.rank(); ++axis)
        receptiveField *= static_cast<double>(shape[axis]);
    return {static_cast<double>(shape[1]) * receptiveField,
            static_cast<double>(shape[0]) * receptiveField};
}

double calculateGain(const std::string& nonlinearity, double param)
{
    static const char* const linear[] = {"linear",           "conv1d",           "conv2d",
                                         "conv3d",           "conv_transpose1d", "conv_transpose2d",
                                         "conv_transpose3d", "sigmoid"};
    for (const char* name : linear)
        if (nonlinearity == name)
            return 1.0;
    if (nonlinearity == "tanh")
        return 5.0 / 3.0;
    if (nonlinearity == "relu")
        return std::sqrt(2.0);
    if (nonlinearity == "leaky_relu") // Python's 1 + negative_slope ** 2, a call to pow
        return std::sqrt(2.0 / (1.0 + std::pow(param, 2.0)));
    if (nonlinearity == "selu")
        return 3.0 / 4.0;
    throw ValueError(
        "the nonlinearity '" + nonlinearity
        + "' is not supported, expected one of linear, "
          "conv1d, conv2d, conv3d, conv_transpose1d/2d/3d, sigmoid, tanh, relu, leaky_relu, selu");
}

// Each fill below computes its bounds in double in the order MindSpore's Python does, so that
// they round to the same floats on their way into the draw.

void Normal::fill(Tensor& t, InitSeedSource& seeds) const
{
    checkScale(name(), "sigma", m_sigma);
    fillNormal(t, name(), seeds.nextSeed(), m_mean, m_sigma);
}

void TruncatedNormal::fill(Tensor& t, InitSeedSource& seeds) const
{
    checkScale(name(), "sigma", m_sigma);
    const std::uint64_t seed = seeds.nextSeed();
    fillFloat32(t, name(), [&](float* out, std::size_t n) {
        fillMindSporeTruncatedNormal(seed, out, n, -2.0f, 2.0f, 0.0f, static_cast<float>(m_sigma));
    });
}

HeUniform::HeUniform(double negativeSlope, std::string mode, std::string nonlinearity)
    : m_negativeSlope(negativeSlope), m_mode(std::move(mode)),
      m_nonlinearity(std::move(nonlinearity))
{
    selectFan({1.0, 1.0}, m_mode);
    calculateGain(m_nonlinearity, m_negativeSlope);
}

void HeUniform::fill(Tensor& t, InitSeedSource& seeds) const
{
    const double fan = selectFan(computeFans(t.shape()), m_mode);
    const double stddev = calculateGain(m_nonlinearity, m_negativeSlope) / std::sqrt(fan);
    const double bound = std::sqrt(3.0) * stddev;
    fillUniform(t, name(), seeds.nextSeed(), -bound, bound);
}

HeNormal::HeNormal(double negativeSlope, std::string mode, std::string nonlinearity)
    : m_negativeSlope(negativeSlope), m_mode(std::move(mode)),
      m_nonlinearity(std::move(nonlinearity))
{
    selectFan({1.0, 1.0}, m_mode);
    calculateGain(m_nonlinearity, m_negativeSlope);
}

void HeNormal::fill(Tensor& t, InitSeedSource& seeds) const
{
    const double fan = selectFan(computeFans(t.shape()), m_mode);
    const double stddev = calculateGain(m_nonlinearity, m_negativeSlope) / std::sqrt(fan);
    fillNormal(t, name(), seeds.nextSeed(), 0.0, stddev);
}

void XavierUniform::fill(Tensor& t, InitSeedSource& seeds) const
{
    checkScale(name(), "gain", m_gain);
    const Fans fans = computeFans(t.shape());
    const double bound = m_gain * std::sqrt(6.0 / (fans.fanIn + fans.fanOut));
    fillUniform(t, name(), seeds.nextSeed(), -bound, bound);
}

void XavierNormal::fill(Tensor& t, InitSeedSource& seeds) const
{
    checkScale(name(), "gain", m_gain);
    const Fans fans = computeFans(t.shape());
    const double stddev = m_gain * std::sqrt(2.0 / (fans.fanIn + fans.fanOut));
    fillNormal(t, name(), seeds.nextSeed(), 0.0, stddev);
}

void Uniform::fill(Tensor& t, InitSeedSource& seeds) const
{
    checkScale(name(), "scale", m_scale);
    fillUniform(t, name(), seeds.nextSeed(), -m_scale, m_scale);
}

void Constant::fill(Tensor& t, InitSeedSource&) const
{
    fillWith(t, name(), [&] { return m_value; });
}

std::shared_ptr<const Initializer> initializerByName(const std::string& name)
{
    if (name == "normal")
        return std::make_shared<Normal>();
    if (name == "truncatedNormal" || name == "truncated_normal")
        return std::make_shared<TruncatedNormal>();
    if (name == "he_uniform")
        return std::make_shared<HeUniform>();
    if (name == "he_normal")
        return std::make_shared<HeNormal>();
    if (name == "xavier_uniform")
        return std::make_shared<XavierUniform>();
    if (name == "xavier_normal")
        return std::make_shared<XavierNormal>();
    if (name == "uniform")
        return std::make_shared<Uniform>();
    if (name == "zeros" || name == "zero")
        return std::make_shared<Zero>();
    if (name == "ones" || name == "one")
        return std::make_shared<One>();
    throw ValueError("unknown initializer '" + name
                     + "', expected one of normal, truncatedNormal, he_uniform, he_normal, "
                       "xavier_uniform, xavier_normal, uniform, zeros, ones");
}

Tensor InitSpec::make(const Shape& shape, DType dtype) const
{
    if (m_tensor.defined()) {
        if (!(m_tensor.shape() == shape))
            throw ValueError("the init tensor has shape " + m_tensor.shape().toString()
                             + ", expected " + shape.toString());
        return m_tensor.dtype() == dtype ? m_tensor.clone()
                                         : Tensor::fromDoubles(shape, m_tensor.toDoubles(), dtype);
    }
    if (m_init)
        return (*m_init)(shape, dtype);
    if (!m_name.empty())
        return (*initializerByName(m_name))(shape, dtype);
    throw ValueError("no initializer given (None) and no default supplied by the layer");
}

Tensor initializer(const InitSpec& init, const Shape& shape, DType dtype)
{
    return init.make(shape, dtype);
}

} // namespace gradstep
