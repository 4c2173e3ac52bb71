// The what-if switches of a run: settings that override what the script itself says, so the same
// script can be re-run with has_aux flipped, with the grad-only fallback, from a fixed seed or in
// another mode. No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gradstep::run {

/// has_aux of every gradient function the script makes (grad / value_and_grad).
enum class HasAuxOverride { AsWritten, On, Off };

/// How the script's value_and_grad calls run. GradFallback runs them as users on MindSpore 1.x
/// write it when value_and_grad is missing: `value = fn(*args)`, then `grad(fn)(*args)`, so the
/// forward pass runs twice; the results are returned in value_and_grad's structure.
enum class GradApiOverride { AsWritten, ValueAndGrad, GradFallback };

/// Graph or PyNative regardless of set_context(mode=...).
enum class ModeOverride { AsWritten, PyNative, Graph };

/// Mixed precision (Note [The amp what-if] in python/host/run_amp.cpp). O0: nothing computes in
/// half precision, whatever amp level, to_float or custom list the script asks for (loss scaling
/// stays: it does not change the unscaled gradients). O2: the script's own level when it asks for
/// half precision, else amp's O2 applied to the network the script first calls.
enum class AmpOverride { AsWritten, O0, O2 };

struct RunOverrides {
    HasAuxOverride hasAux = HasAuxOverride::AsWritten;
    GradApiOverride gradApi = GradApiOverride::AsWritten;
    ModeOverride mode = ModeOverride::AsWritten;
    AmpOverride amp = AmpOverride::AsWritten;
    /// The global seed set before the script starts (mindspore.set_seed(seed)); a set_seed call in
    /// the script still applies, as in MindSpore.
    std::optional<std::uint64_t> seed;
    /// A MindSpore .ckpt loaded into the script's network when it is first called at top level
    /// (run_checkpoint.h): to debug a trained model with the script as written.
    std::optional<std::string> checkpoint;
};

} // namespace gradstep::run
