// libFuzzer target over every op in the registry (new ops are fuzzed without changes here): the
// input decodes to tensors of any dtype, rank 0..4 and value (NaN, +-Inf, -0, denormals, extremes,
// empty and 0-D) and to op calls with arbitrary arity, inputs and attributes, run plainly, under a
// grad, or under grad of grad.
//
// The contract checked: an op call returns outputs matching its shape rule, or throws one of the
// typed gradstep errors (tensor/errors.h). Once every forward call of a program has run, its
// backward pass must succeed: a typed error there means a backward rule refuses what its forward
// accepted. Anything else (another exception, an abort, ASan/UBSan/LSan reports) is a bug.
// SPDX-License-Identifier: MIT
#include "tests/fuzz/fuzz_program.h"

#include "api/grad.h"
#include "ops/dispatch.h"
#include "tensor/errors.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <typeinfo>

using namespace gradstep;
using namespace gradstep::fuzz;

namespace {

// Where the run is, for the report when the contract breaks.
const FuzzProgram* g_program = nullptr;
const FuzzCall* g_call = nullptr;
const char* g_stage = "";

void printProgram(const FuzzProgram& program)
{
    std::fprintf(stderr, "  program:\n");
    for (std::size_t i = 0; i < program.inputs.size(); ++i)
        std::fprintf(stderr, "    %%%zu = input %s %s\n", i, program.inputs[i].shape().toString().c_str(),
                     std::string(dtypeName(program.inputs[i].dtype())).c_str());
    for (const FuzzCall& call : program.calls) {
        std::string in;
        for (std::uint32_t i : call.inputs)
            in += (in.empty() ? "" : ", ") + std::to_string(i);
        std::fprintf(stderr, "    %s(pool[%s mod size]) %s\n", std::string(call.op->name).c_str(), in.c_str(),
                     call.attrs.toString().c_str());
    }
}

[[noreturn]] void fail(const std::string& what)
{
    std::string where = g_stage;
    if (g_call)
        where += " of '" + std::string(g_call->op->name) + "' attrs " + g_call->attrs.toString();
    std::fprintf(stderr, "\ngradstep_ops_fuzz: %s\n  during %s\n", what.c_str(), where.c_str());
    if (g_program)
        printProgram(*g_program);
    std::abort();
}

bool withinBudget(const Shape& shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape) {
        if (d == 0)
            return true;
        if (d > kMaxElements || n * d > kMaxElements)
            return false;
        n *= d;
    }
    return true;
}

// Runs the shape rule first so that no call allocates past the budget. A rule that throws is
// left to callOp, which throws the same typed error again.
bool outputsWithinBudget(const OpCall& call, SpecList& specs)
{
    const int n = static_cast<int>(call.inputs.size());
    if (n < call.op.minInputs || (call.op.maxInputs >= 0 && n > call.op.maxInputs))
        return true;
    try {
        call.op.infer(call, specs);
    } catch (const Error&) {
        specs = SpecList();
        return true;
    }
    for (const TensorSpec& spec : specs)
        if (!withinBudget(spec.shape))
            return false;
    return true;
}

void checkOutputs(const SpecList& specs, const OutputList& outputs)
{
    if (specs.size() != outputs.size())
        fail("the op returned " + std::to_string(outputs.size()) + " outputs, its shape rule "
             + std::to_string(specs.size()));
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (!outputs[i].defined())
            fail("output " + std::to_string(i) + " is undefined");
        if (!(outputs[i].shape() == specs[i].shape) || outputs[i].dtype() != specs[i].dtype)
            fail("output " + std::to_string(i) + " is " + outputs[i].shape().toString() + " "
                 + std::string(dtypeName(outputs[i].dtype())) + ", the shape rule said "
                 + specs[i].shape.toString() + " " + std::string(dtypeName(specs[i].dtype)));
    }
}

// Runs one call on the pool; its outputs join the pool. Typed errors are expected results.
void runCall(const FuzzCall& fc, TensorList& pool)
{
    TensorList inputs;
    for (std::uint32_t i : fc.inputs)
        inputs.push_back(pool[i % pool.size()]);
    const OpCall call{*fc.op, inputs, fc.attrs};
    SpecList specs;
    g_call = &fc;
    if (!outputsWithinBudget(call, specs)) {
        g_call = nullptr;
        return;
    }
    try {
        const OutputList outputs = callOp(*fc.op, inputs, fc.attrs);
        checkOutputs(specs, outputs);
        for (const Tensor& t : outputs)
            pool.push_back(t);
    } catch (const AutodiffError&) {
        throw; // a backward rule ran inside a forward call (grad of grad): never expected
    } catch (const Error&) {
    }
    g_call = nullptr;
}

// The program as a function of its inputs; returns every output the calls produced.
Value runProgram(const FuzzProgram& program, const std::vector<Value>& args)
{
    TensorList pool;
    for (const Value& a : args)
        pool.push_back(a.tensor());
    const std::size_t first = pool.size();
    for (const FuzzCall& call : program.calls)
        runCall(call, pool);
    std::vector<Value> outputs(pool.begin() + static_cast<std::ptrdiff_t>(first), pool.end());
    return outputs.empty() ? Value(pool[0]) : Value::tuple(std::move(outputs));
}

void run(const FuzzProgram& program)
{
    const std::vector<Value> args(program.inputs.begin(), program.inputs.end());
    const Function f = [&](const std::vector<Value>& a) { return runProgram(program, a); };
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < args.size(); ++i)
        positions.push_back(static_cast<std::int64_t>(i));
    switch (program.mode) {
    case FuzzMode::Plain:
        g_stage = "a plain forward call";
        f(args);
        break;
    case FuzzMode::Grad:
        g_stage = "a forward call under grad, or the backward pass";
        grad(f, positions)(args);
        break;
    case FuzzMode::GradOfGrad:
        g_stage = "a forward call under grad of grad, or a backward pass";
        grad(grad(f, positions), positions)(args);
        break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const FuzzProgram program = decodeProgram(data, size);
    g_program = &program;
    g_call = nullptr;
    try {
        run(program);
    } catch (const Error& e) {
        fail(std::string("typed error ") + typeid(e).name() + " escaped the backward pass: " + e.what());
    } catch (const std::exception& e) {
        fail(std::string("untyped exception ") + typeid(e).name() + ": " + e.what());
    } catch (...) {
        fail("an exception that is not a std::exception");
    }
    g_program = nullptr;
    return 0;
}
