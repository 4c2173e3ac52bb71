// A function in a user's shared library called with MindSpore's aot convention for CPU custom
// ops: int func(int nparam, void** params, int* ndims, int64_t** shapes, const char** dtypes,
// void* stream, void* extra), inputs first then outputs in params/ndims/shapes/dtypes.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <cstdint>
#include <string>

namespace gradstep {

class AotFunction {
public:
    /// Loads `library` (dlopen) and finds `symbol` in it. ValueError naming both when either is
    /// missing.
    AotFunction(std::string library, std::string symbol);
    ~AotFunction();
    AotFunction(const AotFunction&) = delete;
    AotFunction& operator=(const AotFunction&) = delete;

    /// Calls the function on the call's inputs and the preallocated outputs; a non-zero return
    /// is a RuntimeError naming the library, the function and the code.
    void run(const OpCall& call, std::span<Tensor> outputs) const;

private:
    using Entry = int (*)(int, void**, int*, std::int64_t**, const char**, void*, void*);
    std::string m_library;
    std::string m_symbol;
    void* m_handle = nullptr;
    Entry m_entry = nullptr;
};

} // namespace gradstep
