// What one side of a migration comparison recorded: the JSON index and the tensors of a capture
// directory (Note [Migration capture]). SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gradstep::migrate {

// Note [Migration capture]
// Each side of `gradstep migrate` runs the user's script unchanged with hooks of ours
// (capture/torch_capture.py under python3 with torch, mindspore/_migrate_capture.py in gradstep)
// and writes SIDE.json and SIDE.bin ("torch" or "mindspore") into one temporary directory. The
// .bin holds every recorded tensor as float64 little-endian, one after another; the JSON holds
// "tensors": {key: {"offset", "shape", "dtype"}} (dtype: the tensor's own, before widening) with
// the keys init/PARAM (before the first step; on the MindSpore side after PyTorch's values were
// copied in), fwd/STEP/N (the N-th module output of the step, described by "forward": [{"step",
// "module", "call", "tensor"}] in execution order; PyTorch's add "inputs": the N of the earlier outputs it
// was computed from, read off the autograd graph; a tuple or list output is one entry per tensor
// in it, each with its position as "element": "0", "1.0" for an LSTM's output and (h, c)), loss/STEP, grad/STEP/PARAM (what the optimizer
// received), after/STEP/PARAM (after the update, buffers included), input/I and target (PyTorch's
// batch). Besides: "completed" (N steps recorded), "steps", "root" (the model's class), "modules"
// [{"path", "class", "training", "args"}], "params" [{"name", "module", "attr", "shape", "kind":
// "parameter"|"buffer", "dtype"}], "loss" and "optimizer" ({"class", "args"}), "error" (null or
// {"module", "type", "message"}: the innermost module running when the script raised). PyTorch's
// "args" are the constructor's arguments as the module holds them; MindSpore's are {"given":
// {name: value}, "defaults": {name: default as Python text}}, as gradstep's Cells keep their
// constructor arguments. The MindSpore side adds "copied" (Parameters that received PyTorch's
// values), "inputs" and "target" ({"shape", "dtype", "substituted", "layout"}: what the port fed
// before PyTorch's batch replaced it), "parameter_names" ({Parameter.name: path}: a training wrapper's
// optimizer updates inside gradstep's C++, whose update events name Parameters by their own names). float64 keeps float32 values exact and integer labels too.

// Note [Functional calls]
// A pitfall can sit in a model's own forward code rather than in a module's arguments (torch.split
// ported as ops.Split, a clamp bound passed as clip_by_value's lower one). Each side records the
// functional calls of the pitfall table (core/migrate/call_pitfalls.h) that the user's code makes
// inside a module or Cell during a recorded step, as "calls": [{"framework", "step", "module" (the
// innermost running), "position" (how many forward outputs of the step were recorded before it),
// "function" ("torch.split", "Tensor.clamp", "torch.nn.functional.normalize", "ops.split",
// "ops.Split"), "args" (positional, a Tensor method's self first), "kwargs", "init" (a primitive's
// constructor attributes), "outputs" (the shapes returned), "error" (what it raised)}]; a tensor
// argument is {"tensor": shape} (and "value" when 0-d). Calls made by either library's own code
// (nn.LeakyReLU calling F.leaky_relu) are not recorded: the module's arguments stand for them.

/// A recorded tensor: its shape, its own dtype and its values widened to double.
struct TensorView {
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::span<const double> values;
};

class Capture {
public:
    /// Reads DIRECTORY/SIDE.json and SIDE.bin; gradstep::ValueError naming the file when either
    /// cannot be read or does not fit the other.
    static Capture load(const std::string& directory, const std::string& side);
    /// A capture from JSON and values held in memory (tests).
    static Capture fromParts(Json doc, std::vector<double> blob);

    const Json& doc() const { return m_doc; }
    std::optional<TensorView> tensor(const std::string& key) const;
    /// Adds a tensor under `key` (replacing none: false when the key exists).
    bool addTensor(const std::string& key, const std::vector<std::int64_t>& shape, const std::string& dtype,
                   const std::vector<double>& values);
    bool completed() const;
    std::int64_t steps() const;
    /// The module entry of "modules" at `path`; null when there is none.
    const Json* module(const std::string& path) const;

private:
    Json m_doc;
    std::vector<double> m_blob;
};

/// "[16, 1, 28, 28]"
std::string shapeText(const std::vector<std::int64_t>& shape);

} // namespace gradstep::migrate
