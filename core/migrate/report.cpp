// SPDX-License-Identifier: MIT
#include "migrate/report.h"

#include "io/number_format.h"

#include <cmath>
#include <cstdio>

namespace gradstep::migrate {

namespace {

Json number(const std::optional<double>& v)
{
    if (!v || !std::isfinite(*v))
        return nullptr;
    return Json(*v);
}

Json shapeJson(const std::vector<std::int64_t>& shape)
{
    Json out = Json::array();
    for (std::int64_t d : shape)
        out.push_back(Json(d));
    return out;
}

Json names(const std::vector<std::string>& items)
{
    Json out = Json::array();
    for (const std::string& s : items)
        out.push_back(Json(s));
    return out;
}

Json distribution(const Distribution& d)
{
    return Json(Json::Object{{"mean", d.mean}, {"std", d.std}, {"min", d.min}, {"max", d.max}});
}

std::string cell(const std::optional<double>& v)
{
    if (!v)
        return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", *v);
    return buffer;
}

/// "[1.0]" after a tuple output's module: which tensor of it the row is.
std::string elementSuffix(const std::string& element)
{
    return element.empty() ? std::string() : "[" + element + "]";
}

std::string padded(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

} // namespace

Json reportJson(const MigrationResult& r)
{
    Json out = Json::object();
    out["verdict"] = Json(r.diverges ? "diverges" : "equal");
    if (r.firstDivergence) {
        const Divergence& d = *r.firstDivergence;
        out["first_divergence"] = Json(Json::Object{{"torch", d.torch}, {"mindspore", d.mindspore},
                                                    {"kind", divergenceKindName(d.kind)},
                                                    {"step", Json(d.step)},
                                                    {"max_abs_diff", number(d.maxAbsDiff)},
                                                    {"rel_diff", number(d.relDiff)},
                                                    {"explanation", d.explanation}});
    } else {
        out["first_divergence"] = nullptr;
    }
    Json layers = Json::array();
    for (const LayerRow& l : r.layers) {
        Json row(Json::Object{{"torch", l.torch}, {"mindspore", l.mindspore},
                              {"forward_max_abs_diff", number(l.forwardMaxAbsDiff)},
                              {"shape_torch", shapeJson(l.shapeTorch)},
                              {"shape_mindspore", shapeJson(l.shapeMindspore)}});
        if (!l.element.empty()) // a tuple output: one row per tensor in it
            row["element"] = Json(l.element);
        layers.push_back(std::move(row));
    }
    out["layers"] = layers;
    Json params = Json::array();
    for (const ParamRow& p : r.params)
        params.push_back(Json(Json::Object{{"torch", p.torch}, {"mindspore", p.mindspore}, {"shape", shapeJson(p.shape)},
                                           {"grad_max_abs_diff", number(p.gradMaxAbsDiff)},
                                           {"update_max_abs_diff", number(p.updateMaxAbsDiff)}}));
    out["params"] = params;
    out["unmatched"] = Json(Json::Object{{"torch", names(r.unmatchedTorch)}, {"mindspore", names(r.unmatchedMindspore)}});
    if (!r.weightsCopied) {
        Json initial = Json::array();
        for (const InitialRow& i : r.initial)
            initial.push_back(Json(Json::Object{{"torch", i.torch}, {"mindspore", i.mindspore},
                                                {"torch_initialiser", i.torchInitialiser},
                                                {"mindspore_initialiser", i.msInitialiser},
                                                {"torch_stats", distribution(i.torchStats)},
                                                {"mindspore_stats", distribution(i.msStats)},
                                                {"differs", i.differs}}));
        out["initial"] = initial;
    }
    return out;
}

std::string reportText(const MigrationResult& r)
{
    std::string out;
    if (r.firstDivergence) {
        const Divergence& d = *r.firstDivergence;
        out += "verdict: diverges at step " + std::to_string(d.step) + ", " + divergenceKindName(d.kind) + " of '"
               + d.torch + "' (PyTorch) / '" + d.mindspore + "' (MindSpore)";
        if (d.maxAbsDiff)
            out += ": max abs diff " + formatNumber(*d.maxAbsDiff) + ", relative " + formatNumber(*d.relDiff);
        out += "\n  why: " + d.explanation + "\n";
    } else {
        out += "verdict: equal (" + std::to_string(r.steps) + " step" + (r.steps == 1 ? "" : "s")
               + ": every forward output, the loss, every gradient and update within tolerance)\n";
    }
    if (r.lossTorch || r.lossMindspore)
        out += "loss (step 1): PyTorch " + cell(r.lossTorch) + ", MindSpore " + cell(r.lossMindspore) + "\n";
    out += "\n" + padded("PyTorch module", 22) + padded("MindSpore cell", 22) + padded("shape (PyTorch)", 20)
           + padded("shape (MindSpore)", 20) + "max abs diff\n";
    for (const LayerRow& l : r.layers)
        out += padded((l.torch.empty() ? "(model)" : l.torch) + elementSuffix(l.element), 22)
               + padded((l.mindspore.empty() ? "(network)" : l.mindspore) + elementSuffix(l.element), 22)
               + padded(shapeText(l.shapeTorch), 20)
               + padded(l.shapeMindspore.empty() ? "-" : shapeText(l.shapeMindspore), 20)
               + cell(l.forwardMaxAbsDiff) + (l.diverges ? "  <- differs" : "") + "\n";
    out += "\n" + padded("PyTorch parameter", 28) + padded("MindSpore parameter", 28) + padded("grad diff", 12)
           + "update diff\n";
    for (const ParamRow& p : r.params)
        out += padded(p.torch, 28) + padded(p.mindspore, 28) + padded(cell(p.gradMaxAbsDiff), 12)
               + cell(p.updateMaxAbsDiff) + "\n";
    if (!r.weightsCopied) {
        out += "\ninitial values (weights not copied):\n";
        for (const InitialRow& i : r.initial)
            out += "  " + padded(i.torch, 20) + " " + i.torchInitialiser + " std " + cell(i.torchStats.std) + " vs "
                   + padded(i.mindspore, 20) + " " + i.msInitialiser + " std " + cell(i.msStats.std)
                   + (i.differs ? "  <- differs" : "") + "\n";
    }
    const auto list = [](const std::vector<std::string>& items) {
        std::string s;
        for (const std::string& i : items)
            s += (s.empty() ? "" : ", ") + i;
        return s.empty() ? std::string("none") : s;
    };
    out += "\nunmatched in PyTorch: " + list(r.unmatchedTorch) + "\nunmatched in MindSpore: "
           + list(r.unmatchedMindspore) + "\n";
    for (const std::string& n : r.notes)
        out += "note: " + n + "\n";
    return out;
}

} // namespace gradstep::migrate
