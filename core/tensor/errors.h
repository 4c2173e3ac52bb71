// Typed errors thrown by the core; the Python layer maps each to the exception users expect.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace gradstep {

/// Base of every error the core throws on bad input; never an abort.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
/// Incompatible or invalid shapes (Python: ValueError).
class ShapeError : public Error { public: using Error::Error; };
/// Wrong dtype for an op (Python: TypeError).
class DTypeError : public Error { public: using Error::Error; };
/// Bad argument or attribute value (Python: ValueError).
class ValueError : public Error { public: using Error::Error; };
/// Wrong argument kind or arity (Python: TypeError).
class TypeError : public Error { public: using Error::Error; };
/// Index out of range (Python: IndexError).
class IndexError : public Error { public: using Error::Error; };
/// A backward rule broke the engine's contract (Python: RuntimeError).
class AutodiffError : public Error { public: using Error::Error; };
/// Anything else that is the caller's fault at run time (Python: RuntimeError).
class RuntimeError : public Error { public: using Error::Error; };
/// Memory for a tensor could not be had (Python's MemoryError), with its size, shape and dtype.
class AllocationError : public Error { public: using Error::Error; };

} // namespace gradstep
