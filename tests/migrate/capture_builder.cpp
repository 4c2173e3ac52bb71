// SPDX-License-Identifier: MIT
#include "tests/migrate/capture_builder.h"

namespace gradstep::test {

namespace {
Json shapeJson(const std::vector<std::int64_t>& shape)
{
    Json out = Json::array();
    for (std::int64_t d : shape)
        out.push_back(Json(d));
    return out;
}
} // namespace

CaptureBuilder::CaptureBuilder(const std::string& framework)
{
    m_doc["framework"] = Json(framework);
    m_doc["completed"] = Json(true);
    m_doc["steps"] = Json(1);
    m_doc["root"] = Json("Net");
    m_doc["modules"] = Json::array();
    m_doc["params"] = Json::array();
    m_doc["forward"] = Json::array();
    m_doc["tensors"] = Json::object();
    m_doc["error"] = nullptr;
    m_doc["loss"] = nullptr;
    m_doc["optimizer"] = nullptr;
}

CaptureBuilder& CaptureBuilder::module(const std::string& path, const std::string& cls, Json args, bool training)
{
    if (m_doc["framework"].asString() == "mindspore")
        args = Json(Json::Object{{"given", args}, {"defaults", Json::object()}});
    m_doc["modules"].push_back(Json(Json::Object{{"path", path}, {"class", cls}, {"training", training}, {"args", args}}));
    return *this;
}

CaptureBuilder& CaptureBuilder::param(const std::string& name, std::vector<std::int64_t> shape, bool buffer)
{
    const auto dot = name.rfind('.');
    const std::string module = dot == std::string::npos ? "" : name.substr(0, dot);
    const std::string attr = dot == std::string::npos ? name : name.substr(dot + 1);
    m_doc["params"].push_back(Json(Json::Object{{"name", name}, {"module", module}, {"attr", attr},
                                                {"shape", shapeJson(shape)},
                                                {"kind", buffer ? "buffer" : "parameter"}, {"dtype", "float32"}}));
    return *this;
}

CaptureBuilder& CaptureBuilder::tensor(const std::string& key, std::vector<std::int64_t> shape,
                                       std::vector<double> values, const std::string& dtype)
{
    m_doc["tensors"][key] = Json(Json::Object{{"offset", static_cast<double>(m_blob.size() * sizeof(double))},
                                              {"shape", shapeJson(shape)}, {"dtype", dtype}});
    m_blob.insert(m_blob.end(), values.begin(), values.end());
    return *this;
}

CaptureBuilder& CaptureBuilder::forward(const std::string& module, std::vector<std::int64_t> shape,
                                        std::vector<double> values, std::int64_t step)
{
    const std::string key = "fwd/" + std::to_string(step) + "/" + std::to_string(m_events++);
    tensor(key, shape, std::move(values));
    m_doc["forward"].push_back(Json(Json::Object{{"step", step}, {"module", module}, {"call", 1}, {"tensor", key}}));
    return *this;
}

CaptureBuilder& CaptureBuilder::set(const std::string& key, Json value)
{
    m_doc[key] = std::move(value);
    return *this;
}

migrate::Capture CaptureBuilder::build() const { return migrate::Capture::fromParts(m_doc, m_blob); }

} // namespace gradstep::test
