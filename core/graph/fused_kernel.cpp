// The fused elementwise kernel. Each instruction's scalar function is the one its op's kernel
// applies (same expression, same branches), so fused and unfused results are bit-identical;
// tests/core/graph/fused_kernel_test.cpp checks that for every opcode, NaN and Inf included.
// SPDX-License-Identifier: MIT
#include "graph/fused_kernel.h"

#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <algorithm>
#include <cmath>

namespace gradstep {

namespace {

using Opcode = FusedKernel::Opcode;

// Elements per block: the registers of a block stay in L1 while each instruction's loop runs.
constexpr std::int64_t kBlock = 512;

struct FusibleOp {
    const OpDef* op;
    Opcode opcode;
};

const std::vector<FusibleOp>& fusibleOps()
{
    static const std::vector<FusibleOp> table{
        {&kAdd, Opcode::Add},         {&kSub, Opcode::Sub},
        {&kMul, Opcode::Mul},         {&kRealDiv, Opcode::Div},
        {&kMaximum, Opcode::Maximum}, {&kMinimum, Opcode::Minimum},
        {&kNeg, Opcode::Neg},         {&kSquare, Opcode::Square},
        {&kAbs, Opcode::Abs},         {&kSign, Opcode::Sign},
        {&kExp, Opcode::Exp},         {&kLog, Opcode::Log},
        {&kSqrt, Opcode::Sqrt},       {&kRsqrt, Opcode::Rsqrt},
        {&kSin, Opcode::Sin},         {&kCos, Opcode::Cos},
        {&kErf, Opcode::Erf},         {&kTanh, Opcode::Tanh},
        {&kSigmoid, Opcode::Sigmoid}, {&kSoftplus, Opcode::Softplus},
        {&kReLU, Opcode::ReLU},       {&kLeakyReLU, Opcode::LeakyReLU},
        {&kGreater, Opcode::Greater}, {&kGreaterEqual, Opcode::GreaterEqual},
        {&kLess, Opcode::Less},       {&kLessEqual, Opcode::LessEqual},
        {&kEqual, Opcode::Equal},     {&kNotEqual, Opcode::NotEqual},
        {&kSelect, Opcode::Select}};
    return table;
}

const FusibleOp* findFusible(const OpDef& op)
{
    for (const FusibleOp& f : fusibleOps())
        if (f.op == &op)
            return &f;
    return nullptr;
}

bool isComparison(Opcode code) { return code >= Opcode::Greater && code <= Opcode::NotEqual; }

} // namespace

bool isFusibleOp(const OpDef& op) { return findFusible(op) != nullptr; }

bool isFusibleOperandShape(const Shape& shape, const Shape& outShape)
{
    int lead = 0;
    while (lead < shape.rank() && shape[lead] == 1)
        ++lead;
    const int rest = shape.rank() - lead;
    if (rest > outShape.rank())
        return false;
    for (int i = 0; i < rest; ++i)
        if (shape[lead + i] != outShape[outShape.rank() - rest + i])
            return false;
    return true;
}

std::uint16_t FusedKernel::operandSlot(const Graph& members, ValueId id, std::vector<int>& slotOf)
{
    if (slotOf[id] >= 0)
        return static_cast<std::uint16_t>(slotOf[id]);
    const GraphValue& v = members.value(id);
    if (v.kind == ValueKind::NodeOutput)
        throw ValueError("fused kernel: value " + std::to_string(id) + " is used before its node");
    if (!isFusibleOperandShape(v.spec.shape, m_shape))
        throw ValueError("fused kernel: operand of shape " + v.spec.shape.toString()
                         + " does not repeat along the leading axes of " + m_shape.toString());
    Operand operand;
    operand.input = v.kind == ValueKind::Constant ? -1 : static_cast<int>(v.index);
    operand.constant = v.constant;
    operand.period = std::max<std::int64_t>(v.spec.shape.numel(), 1);
    operand.isBool = v.spec.dtype == DType::Bool;
    m_operands.push_back(std::move(operand));
    slotOf[id] = newSlot();
    return static_cast<std::uint16_t>(slotOf[id]);
}

std::uint16_t FusedKernel::newSlot()
{
    if (m_slotCount >= 0xffff)
        throw ValueError("fused kernel: too many members");
    return static_cast<std::uint16_t>(m_slotCount++);
}

// The element type: the first member's float result, or a comparison's float operands.
void FusedKernel::chooseType(const Graph& members)
{
    if (members.outputs().empty() || members.nodes().empty())
        throw ValueError("fused kernel: no members or no outputs");
    m_shape = members.spec(members.outputs()[0]).shape;
    const GraphNode& first = members.nodes().front();
    m_dtype = members.spec(first.outputs[0]).dtype;
    if (m_dtype == DType::Bool && !first.inputs.empty())
        m_dtype = members.spec(first.inputs[0]).dtype;
    if (!isFloating(m_dtype))
        throw ValueError("fused kernel: members must compute in Float32 or Float64");
}

void FusedKernel::addInstruction(const Graph& members, const GraphNode& node,
                                 std::vector<int>& slotOf)
{
    const FusibleOp* f = findFusible(*node.op);
    if (!f || node.outputs.size() != 1)
        throw ValueError("fused kernel: '" + std::string(node.name()) + "' cannot be fused");
    const TensorSpec& out = members.spec(node.outputs[0]);
    const DType want = isComparison(f->opcode) ? DType::Bool : m_dtype;
    if (!(out.shape == m_shape) || out.dtype != want)
        throw ValueError("fused kernel: '" + std::string(node.name()) + "' gives "
                         + specToString(out) + ", expected " + specToString({m_shape, want}));
    Instruction ins{f->opcode, 0, 0, 0, 0, node.attrs.getFloat("alpha", 0.2)};
    std::uint16_t* operands[] = {&ins.a, &ins.b, &ins.c};
    for (std::size_t i = 0; i < node.inputs.size() && i < 3; ++i) {
        const DType d = members.spec(node.inputs[i]).dtype;
        const bool condition = f->opcode == Opcode::Select && i == 0;
        if (d != (condition ? DType::Bool : m_dtype))
            throw ValueError("fused kernel: input " + std::to_string(i) + " of '"
                             + std::string(node.name()) + "' is " + std::string(dtypeName(d)));
        *operands[i] = static_cast<std::uint16_t>(slotOf[node.inputs[i]]);
    }
    ins.dst = newSlot();
    slotOf[node.outputs[0]] = ins.dst;
    m_instructions.push_back(ins);
}

void FusedKernel::addOutputs(const Graph& members, const std::vector<int>& slotOf)
{
    for (ValueId out : members.outputs()) {
        const DType d = members.spec(out).dtype;
        if (members.value(out).kind != ValueKind::NodeOutput || (d != m_dtype && d != DType::Bool))
            throw ValueError("fused kernel: each output must be a "
                             + std::string(dtypeName(m_dtype)) + " or Bool member result");
        const auto slot = static_cast<std::uint16_t>(slotOf[out]);
        if (std::find(m_outputSlots.begin(), m_outputSlots.end(), slot) != m_outputSlots.end())
            throw ValueError("fused kernel: a value is returned twice");
        m_outputIsBool.push_back(d == DType::Bool);
        m_outputSlots.push_back(slot);
    }
}

FusedKernel::FusedKernel(const Graph& members)
{
    chooseType(members);
    // Operands first (inputs and constants), then one register per member node.
    std::vector<int> slotOf(members.values().size(), -1);
    for (const GraphNode& node : members.nodes())
        for (ValueId in : node.inputs)
            if (members.value(in).kind != ValueKind::NodeOutput)
                operandSlot(members, in, slotOf);
    for (const GraphNode& node : members.nodes())
        addInstruction(members, node, slotOf);
    addOutputs(members, slotOf);
}

namespace {

template <class T, class F> void unary(std::int64_t n, T* d, const T* a, F f)
{
    for (std::int64_t j = 0; j < n; ++j)
        d[j] = f(a[j]);
}

template <class T, class F> void binary(std::int64_t n, T* d, const T* a, const T* b, F f)
{
    for (std::int64_t j = 0; j < n; ++j)
        d[j] = f(a[j], b[j]);
}

// The scalar functions of the op kernels (core/ops/elementwise/<op>.cpp), in the same form.
template <class T> T maxValue(T a, T b) { return a != a ? a : (a > b ? a : b); }
template <class T> T minValue(T a, T b) { return a != a ? a : (a < b ? a : b); }
template <class T> T signValue(T v)
{
    return v > T(0) ? T(1) : v < T(0) ? T(-1) : (v == T(0) ? T(0) : v);
}
template <class T> T sigmoidValue(T v)
{
    if (v >= T(0))
        return T(1) / (T(1) + std::exp(-v));
    const T e = std::exp(v);
    return e / (T(1) + e);
}
template <class T> T softplusValue(T v)
{
    return (v > T(0) ? v : T(0)) + std::log1p(std::exp(-std::fabs(v)));
}

template <class T>
void unaryInstruction(Opcode code, std::int64_t n, T* d, const T* a, double immediate)
{
    switch (code) {
    case Opcode::Neg: unary(n, d, a, [](T v) { return static_cast<T>(-v); }); break; // -(+0) is -0, as Neg gives
    case Opcode::Square: unary(n, d, a, [](T v) { return static_cast<T>(v * v); }); break;
    case Opcode::Abs: unary(n, d, a, [](T v) { return std::fabs(v); }); break;
    case Opcode::Sign: unary(n, d, a, [](T v) { return signValue(v); }); break;
    case Opcode::Exp: unary(n, d, a, [](T v) { return std::exp(v); }); break;
    case Opcode::Log: unary(n, d, a, [](T v) { return std::log(v); }); break;
    case Opcode::Sqrt: unary(n, d, a, [](T v) { return std::sqrt(v); }); break;
    case Opcode::Rsqrt: unary(n, d, a, [](T v) { return T(1) / std::sqrt(v); }); break;
    case Opcode::Sin: unary(n, d, a, [](T v) { return std::sin(v); }); break;
    case Opcode::Cos: unary(n, d, a, [](T v) { return std::cos(v); }); break;
    case Opcode::Erf: unary(n, d, a, [](T v) { return std::erf(v); }); break;
    case Opcode::Tanh:
        // float32 as the Tanh kernel computes it (vectorised, kernels.h), so fused and unfused agree.
        if constexpr (std::is_same_v<T, float>)
            tanhFloat32(a, d, n);
        else
            unary(n, d, a, [](T v) { return std::tanh(v); });
        break;
    case Opcode::Sigmoid: unary(n, d, a, [](T v) { return sigmoidValue(v); }); break;
    case Opcode::Softplus: unary(n, d, a, [](T v) { return softplusValue(v); }); break;
    case Opcode::ReLU: unary(n, d, a, [](T v) { return !(v <= T(0)) ? v : T(0); }); break;
    default: {
        const T alpha = static_cast<T>(immediate);
        unary(n, d, a, [alpha](T v) { return v > T(0) ? v : v * alpha; });
    }
    }
}

template <class T> void binaryInstruction(Opcode code, std::int64_t n, T* d, const T* a, const T* b)
{
    switch (code) {
    case Opcode::Add: binary(n, d, a, b, [](T x, T y) { return static_cast<T>(x + y); }); break;
    case Opcode::Sub: binary(n, d, a, b, [](T x, T y) { return static_cast<T>(x - y); }); break;
    case Opcode::Mul: binary(n, d, a, b, [](T x, T y) { return static_cast<T>(x * y); }); break;
    case Opcode::Div: binary(n, d, a, b, [](T x, T y) { return x / y; }); break;
    case Opcode::Maximum: binary(n, d, a, b, [](T x, T y) { return maxValue(x, y); }); break;
    case Opcode::Minimum: binary(n, d, a, b, [](T x, T y) { return minValue(x, y); }); break;
    case Opcode::Greater: binary(n, d, a, b, [](T x, T y) { return T(x > y); }); break;
    case Opcode::GreaterEqual: binary(n, d, a, b, [](T x, T y) { return T(x >= y); }); break;
    case Opcode::Less: binary(n, d, a, b, [](T x, T y) { return T(x < y); }); break;
    case Opcode::LessEqual: binary(n, d, a, b, [](T x, T y) { return T(x <= y); }); break;
    case Opcode::Equal: binary(n, d, a, b, [](T x, T y) { return T(x == y); }); break;
    default: binary(n, d, a, b, [](T x, T y) { return T(x != y); }); break;
    }
}

template <class T>
void execute(const FusedKernel::Instruction& ins, std::int64_t n, T* d, const T* a, const T* b,
             const T* c)
{
    if (ins.opcode == Opcode::Select) {
        for (std::int64_t j = 0; j < n; ++j)
            d[j] = a[j] != T(0) ? b[j] : c[j];
    } else if ((ins.opcode >= Opcode::Add && ins.opcode <= Opcode::Minimum)
               || isComparison(ins.opcode)) {
        binaryInstruction(ins.opcode, n, d, a, b);
    } else {
        unaryInstruction(ins.opcode, n, d, a, ins.immediate);
    }
}

// Element start + j of an operand read modulo its period, converted to T.
template <class T, class S>
void gather(T* block, const S* src, std::int64_t period, std::int64_t start, std::int64_t n)
{
    std::int64_t k = start % period;
    for (std::int64_t j = 0; j < n; ++j) {
        block[j] = static_cast<T>(src[k]);
        if (++k == period)
            k = 0;
    }
}

} // namespace

// Points src at each operand's elements [start, start + len): in place when the operand is
// full-size, else gathered (modulo its period, converted from Bool) into its scratch block.
template <class T>
void FusedKernel::loadOperands(std::span<const void* const> data, std::int64_t start,
                               std::int64_t len, T* scratch, std::vector<const T*>& src) const
{
    const std::int64_t n = m_shape.numel();
    for (std::size_t s = 0; s < m_operands.size(); ++s) {
        const Operand& op = m_operands[s];
        T* block = scratch + s * static_cast<std::size_t>(kBlock);
        if (!op.isBool && op.period == n)
            src[s] = static_cast<const T*>(data[s]) + start;
        else if (start == 0 || op.period != 1) { // a scalar is loaded once
            if (op.isBool)
                gather(block, static_cast<const bool*>(data[s]), op.period, start, len);
            else
                gather(block, static_cast<const T*>(data[s]), op.period, start, len);
            src[s] = block;
        }
    }
}

template <class T>
void FusedKernel::runTyped(std::span<const Tensor> inputs, std::span<Tensor> outputs) const
{
    std::vector<T> scratch(m_slotCount * static_cast<std::size_t>(kBlock));
    std::vector<const T*> src(m_slotCount, nullptr);
    std::vector<T*> dst(m_slotCount, nullptr);
    auto block = [&](std::size_t slot) {
        return scratch.data() + slot * static_cast<std::size_t>(kBlock);
    };
    std::vector<const void*> data(m_operands.size());
    for (std::size_t s = 0; s < m_operands.size(); ++s) {
        const Operand& op = m_operands[s];
        data[s] =
            (op.input < 0 ? op.constant : inputs[static_cast<std::size_t>(op.input)]).rawData();
    }
    for (std::int64_t start = 0, n = m_shape.numel(); start < n; start += kBlock) {
        const std::int64_t len = std::min(kBlock, n - start);
        loadOperands<T>(data, start, len, scratch.data(), src);
        for (std::size_t s = m_operands.size(); s < m_slotCount; ++s)
            dst[s] = block(s);
        for (std::size_t o = 0; o < m_outputSlots.size(); ++o)
            if (!m_outputIsBool[o])
                dst[m_outputSlots[o]] = static_cast<T*>(outputs[o].rawData()) + start;
        for (const Instruction& ins : m_instructions) {
            execute(ins, len, dst[ins.dst], src[ins.a], src[ins.b], src[ins.c]);
            src[ins.dst] = dst[ins.dst];
        }
        // Comparison results live in registers as 0 or 1; a Bool output is converted on the way
        // out.
        for (std::size_t o = 0; o < m_outputSlots.size(); ++o)
            if (m_outputIsBool[o])
                for (std::int64_t j = 0; j < len; ++j)
                    static_cast<bool*>(outputs[o].rawData())[start + j] =
                        block(m_outputSlots[o])[j] != T(0);
    }
}

void FusedKernel::run(std::span<const Tensor> inputs, std::span<Tensor> outputs) const
{
    if (m_dtype == DType::Float64)
        runTyped<double>(inputs, outputs);
    else
        runTyped<float>(inputs, outputs);
}

} // namespace gradstep
