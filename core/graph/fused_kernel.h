// The kernel of a FusedElementwise node: its member ops compiled to a short instruction list that
// one loop runs over blocks of elements, so intermediate values never reach memory.
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <cstdint>
#include <vector>

namespace gradstep {

/// Whether the fused kernel has an instruction for this op (in Float32 and Float64).
bool isFusibleOp(const OpDef& op);
/// Whether a value of `shape` can feed a fused kernel computing `outShape`: same shape, or a
/// shape that repeats along the leading axes (a bias [C] under [N, C], a scalar), read modulo its
/// size.
bool isFusibleOperandShape(const Shape& shape, const Shape& outShape);

class FusedKernel {
public:
    /// Compiles the member graph of a fused node; ValueError when a member cannot be fused.
    explicit FusedKernel(const Graph& members);
    /// inputs: one per member-graph input; outputs: preallocated, one per member-graph output.
    void run(std::span<const Tensor> inputs, std::span<Tensor> outputs) const;
    std::size_t instructionCount() const { return m_instructions.size(); }

    // Note [Fused kernel slots]: slots 0..k-1 are the member graph's inputs and constants (read
    // from memory), the rest are registers, one per member node, each a block of the group's
    // element type. Comparison results are registers holding 0 or 1.
    enum class Opcode : std::uint8_t {
        Add,
        Sub,
        Mul,
        Div,
        Maximum,
        Minimum,
        Neg,
        Square,
        Abs,
        Sign,
        Exp,
        Log,
        Sqrt,
        Rsqrt,
        Sin,
        Cos,
        Erf,
        Tanh,
        Sigmoid,
        Softplus,
        ReLU,
        LeakyReLU,
        Greater,
        GreaterEqual,
        Less,
        LessEqual,
        Equal,
        NotEqual,
        Select
    };
    struct Instruction {
        Opcode opcode;
        std::uint16_t dst, a, b, c;
        double immediate; ///< LeakyReLU's alpha
    };
    struct Operand {
        int input = -1;      ///< position among the member graph's inputs; -1 for a constant
        Tensor constant;     ///< a constant of the member graph
        std::int64_t period; ///< element i reads element i % period
        bool isBool = false; ///< a Bool condition, read as 0 or 1
    };

private:
    std::uint16_t newSlot();
    void chooseType(const Graph& members);
    std::uint16_t operandSlot(const Graph& members, ValueId id, std::vector<int>& slotOf);
    void addInstruction(const Graph& members, const GraphNode& node, std::vector<int>& slotOf);
    void addOutputs(const Graph& members, const std::vector<int>& slotOf);
    template <class T>
    void loadOperands(std::span<const void* const> data, std::int64_t start, std::int64_t len,
                      T* scratch, std::vector<const T*>& src) const;
    template <class T>
    void runTyped(std::span<const Tensor> inputs, std::span<Tensor> outputs) const;

    Shape m_shape;
    DType m_dtype = DType::Float32;
    std::vector<Operand> m_operands; ///< slots 0..k-1
    std::vector<Instruction> m_instructions;
    std::vector<std::uint16_t> m_outputSlots;
    std::vector<bool> m_outputIsBool;
    std::size_t m_slotCount = 0;
};

} // namespace gradstep
