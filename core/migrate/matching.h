// Which MindSpore Parameter and Cell stands for which PyTorch parameter, buffer and module: by
// path with the known renamings, then by order and shape; a user's map overrides both, and what
// stays unmatched is listed. SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gradstep::migrate {

/// One entry of a capture's "params" (or a module of its "modules": then attr is empty).
struct ParamInfo {
    std::string name;   ///< "features.0.weight"
    std::string module; ///< "features.0"
    std::string attr;   ///< "weight"
    std::string moduleClass;
    std::vector<std::int64_t> shape;
    bool buffer = false; ///< a PyTorch buffer / a MindSpore Parameter the optimizer does not train
};

struct ParamPair {
    std::string torch, mindspore;
    /// MindSpore holds the 2-D tensor transposed (a MatMul weight written as (in, out))
    bool transpose = false;
};

struct ModulePair {
    std::string torch, mindspore;
};

struct Matching {
    std::vector<ParamPair> params;
    std::vector<ModulePair> modules;
    std::vector<std::string> unmatchedTorch, unmatchedMindspore; ///< parameters and modules
};

/// A capture's parameters and buffers, each with its module's class (from "modules").
std::vector<ParamInfo> paramInfos(const Json& params, const Json& modules);

/// PyTorch's name for MindSpore's parameter attribute in a module of this PyTorch class
/// ("running_mean" for BatchNorm's "moving_mean"); the attribute itself when nothing is renamed.
std::string torchAttributeFor(const std::string& torchClass, const std::string& msAttr);

/// Pairs parameters: the user's map first ({"torch name": "mindspore name"}), then the same path
/// after renaming, then the remaining ones in order when their shapes agree (or are transposed).
std::vector<ParamPair> matchParameters(const std::vector<ParamInfo>& torch, const std::vector<ParamInfo>& ms,
                                       const std::map<std::string, std::string>& userMap);

/// Pairs modules: the user's map, the same path, the owners of paired parameters, then the
/// remaining ones in execution order when their classes correspond (Linear and Dense, ...).
/// torchOrder / msOrder: module paths in the order their forward outputs were recorded.
std::vector<ModulePair> matchModules(const Json& torchModules, const Json& msModules,
                                     const std::vector<std::string>& torchOrder,
                                     const std::vector<std::string>& msOrder,
                                     const std::vector<ParamInfo>& torchParams, const std::vector<ParamInfo>& msParams,
                                     const std::vector<ParamPair>& params,
                                     const std::map<std::string, std::string>& userMap);

/// The JSON the MindSpore side's capture asks for when it finds the network ({"params": [...]}
/// in, {"pairs": [...]} out): matchParameters over PyTorch's capture and the network's structure.
std::string answerMatchRequest(const Json& torchDoc, const std::string& request,
                               const std::map<std::string, std::string>& userMap);

/// Reads a --map file: a JSON object of strings; ValueError naming the file otherwise.
std::map<std::string, std::string> readUserMap(const std::string& path);

} // namespace gradstep::migrate
