// The overflow watchpoint's check of one node. SPDX-License-Identifier: MIT
//
// Note [Half-precision overflow]
// A float16 op computes in float32 and rounds its result (Note [Mixed precision] in
// ops/dispatch.cpp), so what half precision loses at a node is exactly the difference between its
// output and the same node run in float32 from the same inputs: an inf where float32 is finite
// (past 65504 for float16) is an overflow, and a zero where float32 is nonzero and below the
// type's smallest subnormal (2^-24 for float16) is an underflow. Only those two count: a value
// merely rounded is what half precision is. The node is re-run only when an output holds an inf
// or a zero, without the observer, the tape or the mixed-precision cast (which would turn the
// float32 inputs back into float16). A backward node re-runs its rule over float32 copies of the
// saved inputs, outputs and incoming gradients, so a backward Cast (the loss's float32 gradient
// entering a float16 network, where a loss scale overflows) shows the float32 gradient it held.
#include "debug/half_precision_check.h"

#include "autodiff/context.h"
#include "autodiff/node.h"
#include "autodiff/observer.h"
#include "io/number_format.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace gradstep::debug {

namespace {

bool isHalf(DType dtype) { return dtype == DType::Float16 || dtype == DType::BFloat16; }

/// The smallest positive value of a half-precision type (its smallest subnormal).
float smallestValue(DType dtype) { return dtype == DType::Float16 ? 0x1p-24F : 0x1p-133F; }

/// Runs ops as plain computations: no observer, no tape, no mixed-precision cast, no tracer.
class QuietRerun {
public:
    QuietRerun()
        : m_mixed(std::exchange(executionContext().mixedPrecision, std::nullopt)),
          m_tracer(std::exchange(executionContext().tracer, nullptr))
    {
    }
    ~QuietRerun()
    {
        executionContext().mixedPrecision = m_mixed;
        executionContext().tracer = m_tracer;
    }
    QuietRerun(const QuietRerun&) = delete;
    QuietRerun& operator=(const QuietRerun&) = delete;

private:
    ObserverGuard m_observer{nullptr};
    NoGradGuard m_noGrad;
    std::optional<DType> m_mixed;
    OpTracer* m_tracer;
};

/// t in float32 (half precision and float64 converted, other dtypes as they are), unlinked; a
/// tensor that required a gradient still says so, since rules compute only the gradients needed.
Tensor widened(const Tensor& t)
{
    if (!t.defined())
        return t;
    Tensor w = t.dtype() == DType::Float16 || t.dtype() == DType::BFloat16 || t.dtype() == DType::Float64
                   ? cast(t.detach(), DType::Float32)
                   : t.detach();
    if (t.requiresGrad()) {
        auto impl = std::make_shared<TensorImpl>(*w.impl());
        impl->gradFn = nullptr;
        impl->requiresGrad = true;
        w = Tensor(std::move(impl));
    }
    return w;
}

bool finite(const Tensor& t)
{
    if (!t.defined() || !(isHalf(t.dtype()) || t.dtype() == DType::Float32 || t.dtype() == DType::Float64))
        return true;
    const Tensor w = t.dtype() == DType::Float32 ? t : cast(t.detach(), DType::Float32);
    const float* v = w.data<float>();
    for (std::int64_t i = 0; i < w.numel(); ++i)
        if (!std::isfinite(v[i]))
            return false;
    return true;
}

template <class Container> bool allFinite(const Container& tensors)
{
    for (const Tensor& t : tensors)
        if (!finite(t))
            return false;
    return true;
}

/// A half-precision output holding an inf or a zero: the node is worth re-running.
bool suspicious(const Tensor& out)
{
    const Tensor w = cast(out.detach(), DType::Float32);
    const float* v = w.data<float>();
    for (std::int64_t i = 0; i < w.numel(); ++i)
        if (std::isinf(v[i]) || v[i] == 0.0F)
            return true;
    return false;
}

std::optional<TensorList> rerunInFloat32(const NodeEvent& event)
{
    if (event.phase == Phase::Backward && event.node) {
        const Node& node = *event.node;
        if (!node.op || node.customBackward || !node.op->backward || !allFinite(node.inputs))
            return std::nullopt;
        auto copy = std::make_shared<Node>();
        copy->op = node.op;
        copy->attrs = node.attrs;
        copy->seq = node.seq;
        copy->phase = node.phase;
        for (const Tensor& t : node.inputs)
            copy->inputs.push_back(widened(t));
        for (const Tensor& t : node.outputs)
            copy->outputs.push_back(widened(t));
        TensorList gradients;
        for (const Tensor& g : event.inputs)
            gradients.push_back(widened(g));
        return node.op->backward(BackwardContext(*copy), gradients);
    }
    if (!event.op || event.phase == Phase::Update)
        return std::nullopt;
    TensorList inputs;
    for (const Tensor& t : event.inputs)
        inputs.push_back(widened(t));
    // A Cast to half precision computes nothing but the rounding: its float32 value is its input.
    if (event.op->name == "Cast")
        return inputs.empty() ? std::nullopt : std::optional<TensorList>(TensorList{inputs.front()});
    const OutputList outputs = callOp(*event.op, inputs, event.attrs ? *event.attrs : noAttrs());
    return TensorList(outputs.begin(), outputs.end());
}

struct Scan {
    std::int64_t count = 0;
    std::int64_t index = 0;
    double atIndex = 0.0;
    double halfAtIndex = 0.0;
    double extreme = 0.0;

    void add(std::int64_t i, float half, float full)
    {
        if (count++ == 0) {
            index = i;
            atIndex = full;
            halfAtIndex = half;
        }
        if (std::fabs(full) > std::fabs(extreme))
            extreme = full;
    }
};

std::optional<HalfPrecisionIssue> compare(HalfPrecisionIssue::Kind kind, std::size_t output, const Tensor& half,
                                          const Tensor& full)
{
    const Tensor h = cast(half.detach(), DType::Float32);
    const Tensor f = full.dtype() == DType::Float32 ? full : cast(full.detach(), DType::Float32);
    const float* hv = h.data<float>();
    const float* fv = f.data<float>();
    const float smallest = smallestValue(half.dtype());
    Scan scan;
    for (std::int64_t i = 0; i < h.numel(); ++i) {
        const bool hit = kind == HalfPrecisionIssue::Kind::Overflow
                             ? std::isinf(hv[i]) && std::isfinite(fv[i])
                             : hv[i] == 0.0F && fv[i] != 0.0F && std::fabs(fv[i]) < smallest;
        if (hit)
            scan.add(i, hv[i], fv[i]);
    }
    if (scan.count == 0)
        return std::nullopt;
    HalfPrecisionIssue issue;
    issue.kind = kind;
    issue.dtype = half.dtype();
    issue.output = output;
    issue.count = scan.count;
    issue.index = scan.index;
    issue.halfValue = scan.halfAtIndex;
    issue.float32Value = scan.atIndex;
    issue.float32Extreme = scan.extreme;
    return issue;
}

} // namespace

const char* HalfPrecisionIssue::kindName() const { return kind == Kind::Overflow ? "overflow" : "underflow"; }

std::string HalfPrecisionIssue::describe() const
{
    const std::string type(dtypeName(dtype));
    const std::string elements = std::to_string(count) + (count == 1 ? " element" : " elements");
    const std::string what = kind == Kind::Overflow
                                 ? elements + " overflowed " + type + " to inf"
                                 : elements + " nonzero in float32 underflowed to 0 in " + type;
    return what + "; in float32 element " + std::to_string(index) + " is " + formatNumber(float32Value)
           + " (largest |x| " + formatNumber(std::fabs(float32Extreme)) + ")";
}

std::optional<HalfPrecisionIssue> findHalfPrecisionIssue(const NodeEvent& event)
{
    bool anyHalf = false;
    for (const Tensor& out : event.outputs)
        anyHalf = anyHalf || (out.defined() && isHalf(out.dtype()));
    if (!anyHalf)
        return std::nullopt;
    QuietRerun quiet;
    if (!allFinite(event.inputs))
        return std::nullopt;
    bool worthRerunning = false;
    for (const Tensor& out : event.outputs)
        worthRerunning = worthRerunning || (out.defined() && isHalf(out.dtype()) && suspicious(out));
    if (!worthRerunning)
        return std::nullopt;
    const std::optional<TensorList> full = rerunInFloat32(event);
    if (!full)
        return std::nullopt;
    for (const HalfPrecisionIssue::Kind kind : {HalfPrecisionIssue::Kind::Overflow, HalfPrecisionIssue::Kind::Underflow})
        for (std::size_t i = 0; i < event.outputs.size() && i < full->size(); ++i) {
            const Tensor& out = event.outputs[i];
            const Tensor& f = (*full)[i];
            if (!out.defined() || !isHalf(out.dtype()) || !f.defined() || f.numel() != out.numel())
                continue;
            if (std::optional<HalfPrecisionIssue> issue = compare(kind, i, out, f))
                return issue;
        }
    return std::nullopt;
}

} // namespace gradstep::debug
