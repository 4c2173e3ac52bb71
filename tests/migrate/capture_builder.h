// Builds small migration captures in memory (Note [Migration capture]) for the comparison tests.
// SPDX-License-Identifier: MIT
#pragma once

#include "migrate/capture.h"

#include <string>
#include <vector>

namespace gradstep::test {

class CaptureBuilder {
public:
    explicit CaptureBuilder(const std::string& framework);
    /// A module (PyTorch: args as they are; MindSpore: args under "given").
    CaptureBuilder& module(const std::string& path, const std::string& cls, Json args = Json::object(),
                           bool training = true);
    CaptureBuilder& param(const std::string& name, std::vector<std::int64_t> shape, bool buffer = false);
    CaptureBuilder& tensor(const std::string& key, std::vector<std::int64_t> shape, std::vector<double> values,
                           const std::string& dtype = "float32");
    /// A forward output of step 1 (appended in execution order).
    CaptureBuilder& forward(const std::string& module, std::vector<std::int64_t> shape, std::vector<double> values,
                            std::int64_t step = 1);
    CaptureBuilder& set(const std::string& key, Json value);
    migrate::Capture build() const;

private:
    Json m_doc;
    std::vector<double> m_blob;
    int m_events = 0;
};

} // namespace gradstep::test
