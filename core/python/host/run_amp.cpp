// SPDX-License-Identifier: MIT
#include "python/host/run_amp.h"

#include "python/host/run_context.h"

#include "autodiff/context.h"

namespace py = pybind11;

namespace gradstep::python {

// Note [The amp what-if]
// `compare --what amp` runs the first step at O0 against the script's own level, or O2 when the
// script has none, so a user sees what half precision costs the gradients. Every way a script
// asks for half precision ends in a Cell's compute dtype or output cast (to_float, amp's levels,
// custom lists, build_train_network's cast_model_type), plus O1's wrapped primitives, which ask
// mindspore._amp_override() themselves: under O0 those requests become float32, the rest of the
// script (loss scaling included, whose gradients are unscaled before they are compared) runs as
// written. Under O2 a script that asked for nothing gets amp.auto_mixed_precision's O2 on the
// first Cell it calls at top level that holds Parameters (the network; a loss Cell holds none),
// before that call. A tensor the script casts with ops.cast itself keeps its dtype either way.

std::optional<DType> runAmpDType(std::optional<DType> requested)
{
    const bool half = requested && (*requested == DType::Float16 || *requested == DType::BFloat16);
    if (!half)
        return requested;
    if (RunContext* run = activeRun()) {
        run->halfPrecisionAsked = true;
        if (run->overrides.amp == AmpOverride::O0)
            return DType::Float32;
    }
    return requested;
}

void applyRunAmpInto(const py::object& cell)
{
    const RunContext& run = currentRun();
    if (run.overrides.amp != AmpOverride::O2 || run.ampApplied || run.halfPrecisionAsked
        || executionContext().scope != nullptr)
        return;
    if (py::len(cell.attr("trainable_params")()) == 0)
        return;
    activeRun()->ampApplied = true;
    py::module_::import("mindspore.train.amp").attr("_apply_o2_in_place")(cell);
}

void bindAmpOverride(py::module_& m)
{
    m.def(
        "_amp_override",
        []() -> py::object {
            switch (currentRun().overrides.amp) {
            case AmpOverride::O0: return py::str("O0");
            case AmpOverride::O2: return py::str("O2");
            case AmpOverride::AsWritten: break;
            }
            return py::none();
        },
        "gradstep: the run's amp what-if: 'O0', 'O2' or None (as written).");
}

} // namespace gradstep::python
