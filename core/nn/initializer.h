// Weight initializers as MindSpore 2.2 has them (mindspore.common.initializer). A random
// initializer takes one seed from the thread's InitSeedSource per call, fills a float32 buffer
// with MindSpore's draws for it (Note [MindSpore's initializer draws]) and converts that to the
// tensor's dtype, so the weights are MindSpore's, bit for bit. SPDX-License-Identifier: MIT
#pragma once

#include "random/init_seeds.h"
#include "tensor/tensor.h"

#include <memory>
#include <string>
#include <type_traits>

namespace gradstep {

class Initializer {
public:
    virtual ~Initializer() = default;
    /// MindSpore's class name: "HeUniform".
    virtual std::string name() const = 0;
    /// Fills every element of t (a float dtype), taking the seeds it needs from seeds: one for a
    /// random initializer, none for a constant one.
    virtual void fill(Tensor& t, InitSeedSource& seeds) const = 0;
    /// A new tensor of the given shape and dtype, seeded from this thread's initSeedSource().
    Tensor operator()(const Shape& shape, DType dtype = DType::Float32) const;
};

/// fan_in and fan_out as MindSpore computes them: [out, in] for 2-D, times the receptive field
/// (product of the trailing dims) for conv weights. ValueError below 2 dimensions.
struct Fans {
    double fanIn = 0;
    double fanOut = 0;
};
Fans computeFans(const Shape& shape);
/// calculate_gain(nonlinearity, param): 1 for linear/conv/sigmoid, 5/3 for tanh, sqrt(2) for relu,
/// sqrt(2 / (1 + slope^2)) for leaky_relu. ValueError for other names.
double calculateGain(const std::string& nonlinearity, double param = 0.0);

/// N(mean, sigma^2).
class Normal : public Initializer {
public:
    explicit Normal(double sigma = 0.01, double mean = 0.0) : m_sigma(sigma), m_mean(mean) {}
    std::string name() const override { return "Normal"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_sigma, m_mean;
};

/// N(0, sigma^2) truncated to [-2, 2]: MindSpore 2.2 passes these absolute bounds (not two
/// standard deviations, 1.x's rule), so at the usual small sigma almost nothing is cut.
class TruncatedNormal : public Initializer {
public:
    explicit TruncatedNormal(double sigma = 0.01) : m_sigma(sigma) {}
    std::string name() const override { return "TruncatedNormal"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_sigma;
};

/// U(-bound, bound), bound = sqrt(3) * (gain / sqrt(fan)), gain = calculateGain(nonlinearity,
/// negative_slope).
class HeUniform : public Initializer {
public:
    explicit HeUniform(double negativeSlope = 0.0, std::string mode = "fan_in",
                       std::string nonlinearity = "leaky_relu");
    std::string name() const override { return "HeUniform"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_negativeSlope;
    std::string m_mode, m_nonlinearity;
};

/// N(0, std^2), std = gain / sqrt(fan).
class HeNormal : public Initializer {
public:
    explicit HeNormal(double negativeSlope = 0.0, std::string mode = "fan_in",
                      std::string nonlinearity = "leaky_relu");
    std::string name() const override { return "HeNormal"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_negativeSlope;
    std::string m_mode, m_nonlinearity;
};

/// U(-bound, bound), bound = gain * sqrt(6 / (fan_in + fan_out)).
class XavierUniform : public Initializer {
public:
    explicit XavierUniform(double gain = 1.0) : m_gain(gain) {}
    std::string name() const override { return "XavierUniform"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_gain;
};

/// N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)).
class XavierNormal : public Initializer {
public:
    explicit XavierNormal(double gain = 1.0) : m_gain(gain) {}
    std::string name() const override { return "XavierNormal"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_gain;
};

/// U(-scale, scale).
class Uniform : public Initializer {
public:
    explicit Uniform(double scale = 0.07) : m_scale(scale) {}
    std::string name() const override { return "Uniform"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_scale;
};

class Constant : public Initializer {
public:
    explicit Constant(double value) : m_value(value) {}
    std::string name() const override { return "Constant"; }
    void fill(Tensor& t, InitSeedSource& seeds) const override;

private:
    double m_value;
};

class Zero : public Constant {
public:
    Zero() : Constant(0.0) {}
    std::string name() const override { return "Zero"; }
};

class One : public Constant {
public:
    One() : Constant(1.0) {}
    std::string name() const override { return "One"; }
};

/// The initializer MindSpore's string aliases name: "normal", "truncatedNormal", "he_uniform",
/// "he_normal", "xavier_uniform", "xavier_normal", "uniform", "zeros", "ones" (also "zero",
/// "one"); ValueError otherwise.
std::shared_ptr<const Initializer> initializerByName(const std::string& name);

/// What a layer's weight_init / bias_init accepts: None (the layer's default), a string alias,
/// an Initializer, or a Tensor to copy (its shape must match).
class InitSpec {
public:
    InitSpec() = default;
    InitSpec(const char* name) : m_name(name) {}
    InitSpec(std::string name) : m_name(std::move(name)) {}
    InitSpec(const Tensor& value) : m_tensor(value) {}
    template <class I, std::enable_if_t<std::is_base_of_v<Initializer, I>, int> = 0>
    InitSpec(const I& init) : m_init(std::make_shared<I>(init))
    {}
    InitSpec(std::shared_ptr<const Initializer> init) : m_init(std::move(init)) {}

    bool isNone() const { return m_name.empty() && !m_init && !m_tensor.defined(); }
    /// A new tensor of shape and dtype (seeded from initSeedSource()); ValueError when a given
    /// tensor's shape differs or the alias is unknown.
    Tensor make(const Shape& shape, DType dtype = DType::Float32) const;

private:
    std::string m_name;
    std::shared_ptr<const Initializer> m_init;
    Tensor m_tensor;
};

/// mindspore.common.initializer.initializer(init, shape, dtype).
Tensor initializer(const InitSpec& init, const Shape& shape, DType dtype = DType::Float32);

} // namespace gradstep
