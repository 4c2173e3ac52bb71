// The C++ side of TrainOneStepWithLossScaleCell (nn/_loss_scale.py): whether a step's gradients
// overflowed, read straight from their storage (one pass, no ops: the check is the framework's
// bookkeeping, not part of the network), and the step's loss-scale decision sent to the debugger
// (ExecutionObserver::lossScaleReported), as the learning rate of an update is.
// SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "tensor/dtype_storage.h"

#include <cmath>
#include <type_traits>

namespace py = pybind11;

namespace gradstep::python {

namespace {

bool holdsNonFinite(const Tensor& t)
{
    if (!isFloating(t.dtype()))
        return false; // integer gradients cannot overflow to inf
    return visitStorageDType(t.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (kIsFloatStorage<T>) {
            const T* p = t.data<T>();
            for (std::int64_t i = 0, n = t.numel(); i < n; ++i) {
                if constexpr (kIsHalfFloat<T>) {
                    if (!std::isfinite(static_cast<float>(p[i])))
                        return true;
                } else if (!std::isfinite(p[i])) {
                    return true;
                }
            }
        }
        return false;
    });
}

/// True when any Tensor in `gradients` (a tuple or list of them) holds inf or NaN.
bool gradientsOverflow(const py::iterable& gradients)
{
    for (py::handle g : gradients)
        if (const Tensor* t = asTensor(g); t && holdsNonFinite(*t))
            return true;
    return false;
}

void reportLossScale(double lossScale, double nextLossScale, bool overflow, bool updateSkipped)
{
    if (ExecutionObserver* observer = executionContext().observer)
        observer->lossScaleReported(LossScaleEvent{lossScale, nextLossScale, overflow, updateSkipped});
}

} // namespace

void bindLossScale(py::module_& nn)
{
    nn.def("_gradients_overflow", &gradientsOverflow, py::arg("gradients"),
           "gradstep: True when a gradient holds inf or NaN (TrainOneStepWithLossScaleCell's check).");
    nn.def("_report_loss_scale", &reportLossScale, py::arg("loss_scale"), py::arg("next_loss_scale"),
           py::arg("overflow"), py::arg("update_skipped"),
           "gradstep: a loss-scaled step's scale and overflow decision, for the debugger.");
}

} // namespace gradstep::python
