// SPDX-License-Identifier: MIT
#include "migrate/matching.h"

#include "migrate/module_classes.h"

#include <algorithm>
#include <set>

namespace gradstep::migrate {

namespace {

std::vector<std::int64_t> shapeOf(const Json& shape)
{
    std::vector<std::int64_t> out;
    for (const Json& d : shape.asArray())
        out.push_back(d.asInt());
    return out;
}

bool transposed(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b)
{
    return a.size() == 2 && b.size() == 2 && a[0] == b[1] && a[1] == b[0] && a[0] != a[1];
}

} // namespace

std::vector<ParamInfo> paramInfos(const Json& params, const Json& modules)
{
    std::map<std::string, std::string> classes;
    if (modules.isArray())
        for (const Json& m : modules.asArray())
            classes[m["path"].asString()] = m["class"].asString();
    std::vector<ParamInfo> out;
    if (!params.isArray())
        return out;
    for (const Json& p : params.asArray()) {
        ParamInfo info;
        info.name = p["name"].asString();
        info.module = p["module"].asString();
        info.attr = p["attr"].asString();
        info.shape = shapeOf(p["shape"]);
        info.buffer = p["kind"].asString() == "buffer";
        info.moduleClass = classes[info.module];
        out.push_back(std::move(info));
    }
    return out;
}

std::string torchAttributeFor(const std::string& torchClass, const std::string& msAttr)
{
    // BatchNorm's and LayerNorm's scale and shift are gamma/beta in MindSpore, BatchNorm's running
    // statistics moving_mean/moving_variance, an Embedding's table embedding_table.
    static const std::map<std::string, std::string> norm = {
        {"gamma", "weight"}, {"beta", "bias"}, {"moving_mean", "running_mean"}, {"moving_variance", "running_var"}};
    if (isNormClass(torchClass)) {
        auto it = norm.find(msAttr);
        return it == norm.end() ? msAttr : it->second;
    }
    if (torchClass == "Embedding" && msAttr == "embedding_table")
        return "weight";
    return msAttr;
}

std::vector<ParamPair> matchParameters(const std::vector<ParamInfo>& torch, const std::vector<ParamInfo>& ms,
                                       const std::map<std::string, std::string>& userMap)
{
    std::vector<ParamPair> pairs;
    std::set<std::string> usedTorch, usedMs;
    const auto add = [&](const ParamInfo& t, const ParamInfo& m) {
        pairs.push_back({t.name, m.name, transposed(t.shape, m.shape)});
        usedTorch.insert(t.name);
        usedMs.insert(m.name);
    };
    const auto fits = [](const ParamInfo& t, const ParamInfo& m) {
        return t.shape == m.shape || transposed(t.shape, m.shape);
    };
    for (const ParamInfo& t : torch) {
        auto mapped = userMap.find(t.name);
        if (mapped == userMap.end())
            continue;
        for (const ParamInfo& m : ms)
            if (m.name == mapped->second && !usedMs.count(m.name))
                add(t, m);
    }
    // A module mapped by its path brings its parameters along, by attribute (weight with weight,
    // BatchNorm's weight with gamma).
    for (const ParamInfo& t : torch) {
        auto mapped = userMap.find(t.module);
        if (mapped == userMap.end() || usedTorch.count(t.name))
            continue;
        for (const ParamInfo& m : ms)
            if (m.module == mapped->second && !usedMs.count(m.name) && fits(t, m)
                && t.attr == torchAttributeFor(t.moduleClass, m.attr)) {
                add(t, m);
                break;
            }
    }
    for (const ParamInfo& m : ms) {
        if (usedMs.count(m.name))
            continue;
        for (const ParamInfo& t : torch) {
            if (usedTorch.count(t.name) || t.module != m.module || !fits(t, m))
                continue;
            if (t.attr == torchAttributeFor(t.moduleClass, m.attr)) {
                add(t, m);
                break;
            }
        }
    }
    // The rest in order: a port usually declares its layers in the same order under other names.
    // Parameters and buffers keep their own order (a BatchNorm lists its statistics before its
    // gamma and beta in one framework and after its weight and bias in the other).
    std::size_t next[2] = {0, 0};
    for (const ParamInfo& m : ms) {
        if (usedMs.count(m.name))
            continue;
        std::size_t& from = next[m.buffer ? 1 : 0];
        for (std::size_t i = from; i < torch.size(); ++i) {
            const ParamInfo& t = torch[i];
            if (usedTorch.count(t.name) || t.buffer != m.buffer || !fits(t, m))
                continue;
            add(t, m);
            from = i + 1;
            break;
        }
    }
    return pairs;
}

std::vector<ModulePair> matchModules(const Json& torchModules, const Json& msModules,
                                     const std::vector<std::string>& torchOrder,
                                     const std::vector<std::string>& msOrder,
                                     const std::vector<ParamInfo>& torchParams, const std::vector<ParamInfo>& msParams,
                                     const std::vector<ParamPair>& params,
                                     const std::map<std::string, std::string>& userMap)
{
    std::map<std::string, std::string> torchClass, msClass;
    for (const Json& m : torchModules.asArray())
        torchClass[m["path"].asString()] = m["class"].asString();
    for (const Json& m : msModules.asArray())
        msClass[m["path"].asString()] = m["class"].asString();
    std::vector<ModulePair> pairs;
    std::set<std::string> usedTorch, usedMs;
    const auto add = [&](const std::string& t, const std::string& m) {
        if (usedTorch.count(t) || usedMs.count(m) || !torchClass.count(t) || !msClass.count(m))
            return;
        pairs.push_back({t, m});
        usedTorch.insert(t);
        usedMs.insert(m);
    };
    for (const auto& [t, m] : userMap)
        add(t, m);
    add("", ""); // the two models
    for (const ParamPair& p : params) {
        auto owner = [](const std::vector<ParamInfo>& infos, const std::string& name) {
            for (const ParamInfo& i : infos)
                if (i.name == name)
                    return i.module;
            return std::string();
        };
        const std::string t = owner(torchParams, p.torch), m = owner(msParams, p.mindspore);
        if (!t.empty() && !m.empty())
            add(t, m);
    }
    for (const auto& [path, cls] : torchClass)
        if (msClass.count(path) && correspondingClasses(cls, msClass[path]))
            add(path, path);
    // The rest in execution order, each with the next corresponding unmatched Cell.
    std::size_t next = 0;
    for (const std::string& t : torchOrder) {
        if (usedTorch.count(t))
            continue;
        for (std::size_t i = next; i < msOrder.size(); ++i) {
            const std::string& m = msOrder[i];
            if (usedMs.count(m) || !correspondingClasses(torchClass[t], msClass[m]))
                continue;
            add(t, m);
            next = i + 1;
            break;
        }
    }
    return pairs;
}

std::string answerMatchRequest(const Json& torchDoc, const std::string& request,
                               const std::map<std::string, std::string>& userMap)
{
    const Json asked = Json::parse(request);
    const std::vector<ParamInfo> torch = paramInfos(torchDoc["params"], torchDoc["modules"]);
    const Json* modules = asked.find("modules");
    const std::vector<ParamInfo> ms = paramInfos(asked["params"], modules ? *modules : Json::array());
    Json pairs = Json::array();
    for (const ParamPair& p : matchParameters(torch, ms, userMap))
        pairs.push_back(Json(Json::Object{{"torch", p.torch}, {"mindspore", p.mindspore}, {"transpose", p.transpose}}));
    return Json(Json::Object{{"pairs", pairs}}).dump();
}

std::map<std::string, std::string> readUserMap(const std::string& path)
{
    const Json doc = Json::parseFile(path);
    if (!doc.isObject())
        throw ValueError(path + ": the map must be a JSON object {\"torch name\": \"mindspore name\"}, got "
                         + jsonKindName(doc.kind()));
    std::map<std::string, std::string> out;
    for (const auto& [key, value] : doc.asObject()) {
        if (!value.isString())
            throw ValueError(path + ": the value of '" + key + "' must be a string (a MindSpore name), got "
                             + jsonKindName(value.kind()));
        out[key] = value.asString();
    }
    return out;
}

} // namespace gradstep::migrate
