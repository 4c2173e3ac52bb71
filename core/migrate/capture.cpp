// SPDX-License-Identifier: MIT
#include "migrate/capture.h"

#include <fstream>

namespace gradstep::migrate {

Capture Capture::load(const std::string& directory, const std::string& side)
{
    const std::string jsonPath = directory + "/" + side + ".json";
    const std::string binPath = directory + "/" + side + ".bin";
    Json doc = Json::parseFile(jsonPath);
    std::ifstream in(binPath, std::ios::binary | std::ios::ate);
    if (!in)
        throw ValueError("cannot read " + binPath);
    const std::streamsize bytes = in.tellg();
    std::vector<double> blob(static_cast<std::size_t>(bytes) / sizeof(double));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(blob.data()), static_cast<std::streamsize>(blob.size() * sizeof(double)));
    Capture capture = fromParts(std::move(doc), std::move(blob));
    for (const auto& [key, entry] : capture.m_doc["tensors"].asObject())
        if (!capture.tensor(key))
            throw ValueError(jsonPath + ": the tensor '" + key + "' lies outside " + binPath);
    return capture;
}

Capture Capture::fromParts(Json doc, std::vector<double> blob)
{
    Capture capture;
    capture.m_doc = std::move(doc);
    capture.m_blob = std::move(blob);
    return capture;
}

std::optional<TensorView> Capture::tensor(const std::string& key) const
{
    const Json* tensors = m_doc.find("tensors");
    const Json* entry = tensors ? tensors->find(key) : nullptr;
    if (!entry)
        return std::nullopt;
    TensorView view;
    std::size_t count = 1;
    for (const Json& d : (*entry)["shape"].asArray()) {
        view.shape.push_back(d.asInt());
        count *= static_cast<std::size_t>(view.shape.back());
    }
    view.dtype = (*entry)["dtype"].asString();
    const std::size_t first = static_cast<std::size_t>((*entry)["offset"].asInt()) / sizeof(double);
    if (first + count > m_blob.size())
        return std::nullopt;
    view.values = std::span<const double>(m_blob.data() + first, count);
    return view;
}

bool Capture::addTensor(const std::string& key, const std::vector<std::int64_t>& shape, const std::string& dtype,
                        const std::vector<double>& values)
{
    if (m_doc["tensors"].find(key))
        return false;
    Json dims = Json::array();
    for (std::int64_t d : shape)
        dims.push_back(Json(d));
    m_doc["tensors"][key] = Json(Json::Object{{"offset", static_cast<double>(m_blob.size() * sizeof(double))},
                                              {"shape", dims}, {"dtype", dtype}});
    m_blob.insert(m_blob.end(), values.begin(), values.end());
    return true;
}

bool Capture::completed() const
{
    const Json* c = m_doc.find("completed");
    return c && c->isBool() && c->asBool();
}

std::int64_t Capture::steps() const
{
    const Json* s = m_doc.find("steps");
    return s && s->isNumber() ? s->asInt() : 0;
}

const Json* Capture::module(const std::string& path) const
{
    const Json* modules = m_doc.find("modules");
    if (!modules || !modules->isArray())
        return nullptr;
    for (const Json& m : modules->asArray())
        if (m["path"].asString() == path)
            return &m;
    return nullptr;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

} // namespace gradstep::migrate
