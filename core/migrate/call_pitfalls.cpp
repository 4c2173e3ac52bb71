// SPDX-License-Identifier: MIT
#include "migrate/call_pitfalls.h"

#include "migrate/arguments.h"
#include "migrate/call_text.h"

#include "io/number_format.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace gradstep::migrate {

namespace {

enum class CallKind { Split, Norm, Normalize, Clamp, LeakyRelu, Gelu, Dropout, Softmax, LogSoftmax, Other };

CallKind kindOf(const Json& call)
{
    const std::string f = callFunction(call);
    if (f == "split" || f == "chunk" || f == "tensor_split" || f == "Split")
        return CallKind::Split;
    if (f == "norm" || f == "vector_norm" || f == "lp_norm" || f == "LpNorm")
        return CallKind::Norm;
    if (f == "normalize" || f == "l2_normalize" || f == "L2Normalize")
        return CallKind::Normalize;
    if (f == "clamp" || f == "clip" || f == "clip_by_value" || f == "ClipByValue")
        return CallKind::Clamp;
    if (f == "leaky_relu" || f == "LeakyReLU")
        return CallKind::LeakyRelu;
    if (f == "gelu" || f == "GeLU")
        return CallKind::Gelu;
    if (f == "dropout" || f == "Dropout")
        return CallKind::Dropout;
    if (f == "softmax" || f == "Softmax")
        return CallKind::Softmax;
    if (f == "log_softmax" || f == "LogSoftmax")
        return CallKind::LogSoftmax;
    return CallKind::Other;
}

/// A setting of one side's call: its value as text and whether the call left it at the default.
struct Setting {
    std::string text;
    std::optional<double> number;
    bool isDefault = false;
};

Setting setting(const Json& call, std::size_t position, const std::string& name, const std::string& fallback)
{
    if (const Json* v = callArgument(call, position, name); v && !v->isNull()) {
        // a primitive keeps a one-element axis as a list ([0])
        const Json& value = v->isArray() && v->size() == 1 ? (*v)[0] : *v;
        return {callValueText(value), callNumber(&value), false};
    }
    return {fallback, numberOf(fallback), true};
}

std::string named(const std::string& name, const Setting& s, const char* framework)
{
    return name + "=" + s.text + (s.isDefault ? std::string(" (") + framework + "'s default)" : "");
}

/// An int argument as written ("8") or, when not given, `fallback`.
std::string given(const Json& call, std::size_t position, const std::string& name, const std::string& fallback)
{
    const Json* v = callArgument(call, position, name);
    return v && !v->isNull() ? callValueText(*v) : fallback;
}

bool differ(const Setting& a, const Setting& b)
{
    if (a.number && b.number)
        return std::abs(*a.number - *b.number) > 1e-12 * std::max(1.0, std::abs(*a.number));
    return a.text != b.text;
}

std::vector<std::int64_t> shapeOf(const Json& value)
{
    std::vector<std::int64_t> shape;
    if (value.isObject() && value.find("tensor"))
        for (const Json& d : value["tensor"].asArray())
            shape.push_back(d.asInt());
    else if (value.isArray())
        for (const Json& d : value.asArray())
            shape.push_back(d.asInt());
    return shape;
}

std::int64_t inputRank(const Json& call)
{
    const Json& args = call["args"];
    return args.size() > 0 ? static_cast<std::int64_t>(shapeOf(args[0]).size()) : 0;
}

/// An axis as a non-negative index (-1 of a 2-D input is 1); nullopt for None or a tuple.
std::optional<std::int64_t> axisOf(const Setting& s, std::int64_t rank)
{
    if (!s.number)
        return std::nullopt;
    const auto a = static_cast<std::int64_t>(*s.number);
    return a < 0 ? a + rank : a;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

// --- split ----------------------------------------------------------------------------------

/// "2 pieces of size 4 along axis 1", "pieces of sizes 3, 3, 2 along axis 0", or what it raised.
std::string pieces(const Json& call)
{
    if (const Json* error = call.find("error"))
        return "nothing: it raises " + error->asString();
    const std::vector<std::int64_t> input = shapeOf(call["args"][0]);
    const Json& outputs = call["outputs"];
    if (outputs.size() == 0)
        return "no pieces";
    std::size_t axis = 0;
    const std::vector<std::int64_t> first = shapeOf(outputs[0]);
    while (axis < input.size() && axis < first.size() && input[axis] == first[axis])
        ++axis;
    if (axis >= first.size())
        return "1 piece, the whole " + shapeText(input);
    std::vector<std::int64_t> sizes;
    for (const Json& out : outputs.asArray())
        sizes.push_back(shapeOf(out)[axis]);
    const bool equal = std::all_of(sizes.begin(), sizes.end(), [&](std::int64_t s) { return s == sizes[0]; });
    std::string text = std::to_string(sizes.size()) + (sizes.size() == 1 ? " piece" : " pieces");
    if (equal)
        return text + " of size " + std::to_string(sizes[0]) + " along axis " + std::to_string(axis);
    text += " of sizes ";
    for (std::size_t i = 0; i < sizes.size(); ++i)
        text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + " along axis " + std::to_string(axis);
}

std::string splitHint(const Json& t, const Json& m)
{
    const std::string tf = callFunction(t), mf = callFunction(m);
    if (mf == "Split" && tf == "split")
        return ": Split's output_num is the number of pieces, torch.split's split_size_or_sections the size of each "
               "(write ops.split(x, " + given(t, 1, "split_size_or_sections", given(t, 1, "split_size", "size"))
               + ", axis=" + given(t, 2, "dim", "0") + "))";
    if (tf == "chunk" && mf == "split")
        return ": torch.chunk's chunks is the number of pieces, ops.split's split_size_or_sections the size of each "
               "(write ops.chunk)";
    if (tf == "split" && mf == "chunk")
        return ": torch.split's split_size is the size of each piece, ops.chunk's chunks the number of pieces (write "
               "ops.split)";
    return "";
}

void split(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const std::string tp = pieces(t), mp = pieces(m);
    if (tp != mp)
        out.push_back(callText(t) + " makes " + tp + "; " + callText(m) + " makes " + mp + splitHint(t, m));
}

// --- norms ----------------------------------------------------------------------------------

/// The norm's order as a number: 'fro' and None are the 2-norm of the flattened values.
Setting order(const Json& call, bool torch)
{
    const std::string f = callFunction(call);
    Setting p = f == "LpNorm" ? setting(call, 99, "p", "2")
                : torch && f == "norm" && call["function"].asString() != "torch.linalg.norm"
                    ? setting(call, 1, "p", "'fro'")
                    : setting(call, 1, f == "lp_norm" ? "p" : "ord", f == "vector_norm" ? "2" : "None");
    if (p.text == "'fro'" || p.text == "None")
        p.number = 2.0;
    return p;
}

void norm(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const Setting tp = order(t, true), mp = order(m, false);
    const std::string tn = callFunction(t) == "norm" && t["function"].asString() != "torch.linalg.norm" ? "p" : "ord";
    const std::string mn = callFunction(m) == "LpNorm" || callFunction(m) == "lp_norm" ? "p" : "ord";
    if (tp.number && mp.number && std::abs(*tp.number - *mp.number) > 1e-12)
        out.push_back(callText(t) + " is the " + formatNumber(*tp.number) + "-norm, " + named(tn, tp, "PyTorch")
                      + "; " + callText(m) + " the " + formatNumber(*mp.number) + "-norm, "
                      + named(mn, mp, "MindSpore"));
    const Json& to = t["outputs"];
    const Json& mo = m["outputs"];
    if (to.size() > 0 && mo.size() > 0 && shapeOf(to[0]) != shapeOf(mo[0]))
        out.push_back(callText(t) + " gives shape " + shapeText(shapeOf(to[0])) + "; " + callText(m) + " gives "
                      + shapeText(shapeOf(mo[0])) + ": the reduced dims or keepdim differ (" + named("dim", setting(t, 2, "dim", "None"), "PyTorch")
                      + " vs " + named(callFunction(m) == "LpNorm" ? "axis" : "dim",
                                       setting(m, 2, callFunction(m) == "LpNorm" ? "axis" : "dim", "None"), "MindSpore")
                      + ")");
}

/// F.normalize(p=2, dim=1, eps=1e-12) against ops.L2Normalize(axis=0, epsilon=1e-4), whose
/// epsilon bounds the sum of squares (so the norm by sqrt(epsilon)), or ops.normalize.
void normalize(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const bool l2 = callFunction(m) != "normalize";
    const Setting tp = setting(t, 1, "p", "2"), mp = l2 ? Setting{"2", 2.0, true} : setting(m, 1, "p", "2");
    const Setting td = setting(t, 2, "dim", "1"), md = l2 ? setting(m, 1, "axis", "0") : setting(m, 2, "dim", "1");
    const Setting te = setting(t, 3, "eps", "1e-12"), me = l2 ? setting(m, 2, "epsilon", "0.0001") : setting(m, 3, "eps", "1e-12");
    const std::string what = callText(t) + " vs " + callText(m) + ": ";
    if (!l2 && differ(tp, mp))
        out.push_back(what + named("p", tp, "PyTorch") + " vs " + named("p", mp, "MindSpore"));
    else if (l2 && tp.number && *tp.number != 2.0)
        out.push_back(what + named("p", tp, "PyTorch") + " vs the 2-norm, the only one " + callFunction(m) + " takes");
    const std::int64_t rank = inputRank(t);
    if (axisOf(td, rank) != axisOf(md, rank)) {
        out.push_back(what + "normalises along " + named("dim", td, "PyTorch") + " vs " + named(l2 ? "axis" : "dim", md, "MindSpore"));
        return;
    }
    if (!out.empty() || !te.number || !me.number)
        return;
    const double floorT = *te.number, floorM = l2 ? std::sqrt(*me.number) : *me.number;
    if (std::abs(floorT - floorM) > 1e-12 * std::max(1.0, floorT))
        out.push_back(what + named("eps", te, "PyTorch") + " bounds the norm below by " + formatNumber(floorT) + ", "
                      + named(l2 ? "epsilon" : "eps", me, "MindSpore") + (l2 ? " bounds the sum of squares, so the norm by " : " bounds it by ")
                      + formatNumber(floorM) + ": vectors with a smaller norm are scaled differently");
}

// --- clamp ----------------------------------------------------------------------------------

struct Bounds {
    Setting low, high;
};

Bounds bounds(const Json& call, bool torch)
{
    const std::string f = callFunction(call);
    if (!torch && (f == "clip_by_value" || f == "ClipByValue"))
        return {setting(call, 1, "clip_value_min", "None"), setting(call, 2, "clip_value_max", "None")};
    return {setting(call, 1, "min", "None"), setting(call, 2, "max", "None")};
}

/// "keeps the values in [-1, 1]", or what a lower bound above the upper one does.
std::string effect(const Bounds& b)
{
    if (b.low.number && b.high.number && *b.low.number > *b.high.number)
        return "sets every element to " + b.high.text + " (its lower bound " + b.low.text + " exceeds its upper bound "
               + b.high.text + ")";
    return "keeps the values in " + std::string(b.low.number ? "[" + b.low.text : "(-inf") + ", "
           + (b.high.number ? b.high.text + "]" : "inf)");
}

void clamp(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const Bounds tb = bounds(t, true), mb = bounds(m, false);
    if (!differ(tb.low, mb.low) && !differ(tb.high, mb.high))
        return;
    std::string text = callText(t) + " " + effect(tb) + "; " + callText(m) + " " + effect(mb);
    const std::string mf = callFunction(m);
    const std::string lowName = mf == "clip_by_value" ? "clip_value_min" : "min";
    if (!tb.low.number && tb.high.number && mb.low.number && !mb.high.number)
        text += ": " + lowName + " is " + m["function"].asString() + "'s second argument (write "
                + (mf == "clip_by_value" ? "clip_value_max=" : "max=") + mb.low.text + ")";
    else if (tb.low.number && tb.high.number && mb.low.number && mb.high.number
             && *mb.low.number == *tb.high.number && *mb.high.number == *tb.low.number)
        text += ": the bounds are swapped (" + lowName + " comes first)";
    out.push_back(text);
}

// --- activations and dropout ----------------------------------------------------------------

void leakyRelu(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const Setting ts = setting(t, 1, "negative_slope", "0.01"), ms = setting(m, 1, "alpha", "0.2");
    if (differ(ts, ms))
        out.push_back(named("negative_slope", ts, "PyTorch") + " in " + callText(t) + " vs " + named("alpha", ms, "MindSpore")
                      + " in " + callText(m));
}

void gelu(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const Setting ta = setting(t, 1, "approximate", "'none'");
    const Setting ma = callFunction(m) == "GeLU" ? Setting{"'tanh'", std::nullopt, true} : setting(m, 1, "approximate", "'none'");
    if (differ(ta, ma))
        out.push_back(named("approximate", ta, "PyTorch") + " in " + callText(t) + " vs "
                      + (callFunction(m) == "GeLU" ? "the tanh approximation of " + callText(m)
                                                   : named("approximate", ma, "MindSpore") + " in " + callText(m)));
}

void dropout(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const Setting tp = setting(t, 1, "p", "0.5");
    if (callFunction(m) == "Dropout") {
        const Setting keep = setting(m, 99, "keep_prob", "0.5");
        if (tp.number && keep.number && std::abs(*tp.number - (1.0 - *keep.number)) > 1e-9)
            out.push_back(named("p", tp, "PyTorch") + " in " + callText(t) + " vs " + named("keep_prob", keep, "MindSpore")
                          + " in " + callText(m) + ": keep_prob is the probability of keeping an element, 1 - p");
        return;
    }
    const Setting mp = setting(m, 1, "p", "0.5");
    if (differ(tp, mp))
        out.push_back(named("p", tp, "PyTorch") + " in " + callText(t) + " vs " + named("p", mp, "MindSpore") + " in " + callText(m));
    const Setting tt = setting(t, 2, "training", "True"), mt = setting(m, 2, "training", "True");
    if (differ(tt, mt))
        out.push_back(named("training", tt, "PyTorch") + " in " + callText(t) + " vs " + named("training", mt, "MindSpore")
                      + " in " + callText(m) + " (pass the Cell's self.training)");
}

void softmax(std::vector<std::string>& out, const Json& t, const Json& m)
{
    const std::int64_t rank = inputRank(t);
    Setting td = setting(t, 1, "dim", "None");
    if (!td.number) // PyTorch's implicit dim (deprecated): 0 for 0-, 1- and 3-D inputs, else 1
        td.number = rank == 0 || rank == 1 || rank == 3 ? 0.0 : 1.0;
    const Setting md = setting(m, 1, "axis", "-1");
    if (axisOf(td, rank) != axisOf(md, rank))
        out.push_back(callText(t) + " normalises along " + named("dim", td, "PyTorch") + " (axis "
                      + std::to_string(*axisOf(td, rank)) + "); " + callText(m) + " along " + named("axis", md, "MindSpore")
                      + (md.number ? " (axis " + std::to_string(*axisOf(md, rank)) + ")" : ""));
}

void comparePair(std::vector<std::string>& out, CallKind kind, const Json& t, const Json& m)
{
    switch (kind) {
    case CallKind::Split: split(out, t, m); break;
    case CallKind::Norm: norm(out, t, m); break;
    case CallKind::Normalize: normalize(out, t, m); break;
    case CallKind::Clamp: clamp(out, t, m); break;
    case CallKind::LeakyRelu: leakyRelu(out, t, m); break;
    case CallKind::Gelu: gelu(out, t, m); break;
    case CallKind::Dropout: dropout(out, t, m); break;
    case CallKind::Softmax:
    case CallKind::LogSoftmax: softmax(out, t, m); break;
    case CallKind::Other: break;
    }
}

/// Whether `path`'s code runs around `module`'s: the module itself or a container of it.
bool encloses(const std::string& path, const std::string& module)
{
    return path.empty() || path == module || module.rfind(path + ".", 0) == 0;
}

} // namespace

std::vector<const Json*> callsBefore(const Capture& c, std::int64_t step, const std::string& module,
                                     std::optional<std::int64_t> before)
{
    std::vector<const Json*> out;
    const Json* calls = c.doc().find("calls");
    if (!calls || !calls->isArray())
        return out;
    for (const Json& call : calls->asArray())
        if (call["step"].asInt() == step && encloses(call["module"].asString(), module)
            && (!before || call["position"].asInt() <= *before))
            out.push_back(&call);
    return out;
}

std::vector<std::string> callPitfalls(const std::vector<const Json*>& torchCalls, const std::vector<const Json*>& msCalls,
                                      const std::string& layer)
{
    // Each sentence keyed by its PyTorch call's place in execution order: the first is the cause.
    std::vector<std::pair<std::size_t, std::string>> found;
    for (CallKind kind : {CallKind::Split, CallKind::Norm, CallKind::Normalize, CallKind::Clamp, CallKind::LeakyRelu,
                          CallKind::Gelu, CallKind::Dropout, CallKind::Softmax, CallKind::LogSoftmax}) {
        std::vector<const Json*> t, m;
        for (const Json* c : torchCalls)
            if (kindOf(*c) == kind)
                t.push_back(c);
        for (const Json* c : msCalls)
            if (kindOf(*c) == kind)
                m.push_back(c);
        for (std::size_t i = 0; i < t.size() && i < m.size(); ++i) {
            std::vector<std::string> sentences;
            comparePair(sentences, kind, *t[i], *m[i]);
            const auto order = static_cast<std::size_t>(
                std::find(torchCalls.begin(), torchCalls.end(), t[i]) - torchCalls.begin());
            const std::string& module = (*t[i])["module"].asString();
            const std::string where = module == layer ? std::string()
                                      : module.empty() ? "in the model's own code: "
                                                       : "in " + module + "'s own code: ";
            for (std::string& s : sentences)
                found.emplace_back(order, where + s);
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (auto& [order, sentence] : found)
        out.push_back(std::move(sentence));
    return out;
}

} // namespace gradstep::migrate
