// A run-time error about a place in the user's source that is not where Python is when it is
// raised (a compiled while loop that exceeds its bound is found while the graph runs, under the
// call of the compiled function): the Python layer makes that place the diagnostic's location.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/errors.h"

#include <string>
#include <utility>

namespace gradstep {

/// what() is "FILE:LINE:COL: message" for readers without diagnostics; message() is without it.
class LocatedRuntimeError : public RuntimeError {
public:
    LocatedRuntimeError(const std::string& message, std::string file, int line, int column)
        : RuntimeError(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
          m_message(message), m_file(std::move(file)), m_line(line), m_column(column)
    {
    }
    const std::string& message() const { return m_message; }
    const std::string& file() const { return m_file; }
    int line() const { return m_line; }
    int column() const { return m_column; }

private:
    std::string m_message;
    std::string m_file;
    int m_line;
    int m_column;
};

} // namespace gradstep
