// Loading and calling an aot custom op's function. SPDX-License-Identifier: MIT
#include "ops/custom/aot_function.h"

#include "ops/dispatch.h"

#include <dlfcn.h>

#include <vector>

namespace gradstep {

AotFunction::AotFunction(std::string library, std::string symbol)
    : m_library(std::move(library)), m_symbol(std::move(symbol))
{
    // RTLD_LOCAL: two users' libraries may define the same symbol names without clashing.
    m_handle = dlopen(m_library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!m_handle) {
        const char* why = dlerror();
        throw ValueError("For 'Custom' on CPU, dlopen file '" + m_library
                         + "' should be successful, but error occurs! Error message is: "
                         + std::string(why ? why : "unknown"));
    }
    dlerror();
    m_entry = reinterpret_cast<Entry>(dlsym(m_handle, m_symbol.c_str()));
    if (!m_entry) {
        const char* why = dlerror();
        const std::string message = "For 'Custom' on CPU, error occurs when fetching function '" + m_symbol
                                    + "' from '" + m_library + "'. Error info: " + std::string(why ? why : "null symbol");
        dlclose(m_handle);
        throw ValueError(message);
    }
}

AotFunction::~AotFunction()
{
    if (m_handle)
        dlclose(m_handle);
}

void AotFunction::run(const OpCall& call, std::span<Tensor> outputs) const
{
    const std::size_t count = call.inputs.size() + outputs.size();
    std::vector<void*> params;
    std::vector<int> ndims;
    std::vector<std::vector<std::int64_t>> shapeStore;
    std::vector<const char*> dtypes;
    params.reserve(count);
    shapeStore.reserve(count);
    auto add = [&](const Tensor& t, void* data) {
        params.push_back(data);
        ndims.push_back(t.rank());
        shapeStore.push_back(t.shape().toVector());
        dtypes.push_back(dtypeLowerName(t.dtype()).data()); // literals: NUL-terminated
    };
    // The function reads its inputs through void*, as MindSpore passes them; it must not write them.
    for (const Tensor& t : call.inputs)
        add(t, const_cast<void*>(t.rawData()));
    for (Tensor& t : outputs)
        add(t, t.rawData());
    std::vector<std::int64_t*> shapes;
    for (auto& s : shapeStore)
        shapes.push_back(s.data());
    const int code = m_entry(static_cast<int>(count), params.data(), ndims.data(), shapes.data(), dtypes.data(),
                             nullptr, nullptr);
    if (code != 0)
        throwValueError(call, "the return value from CPU AOT kernel(" + m_library + ")'s function(" + m_symbol
                                  + ") is " + std::to_string(code)
                                  + "; any return value not equal to 0 is treated as a user defined error code "
                                    "and execution stops");
}

} // namespace gradstep
