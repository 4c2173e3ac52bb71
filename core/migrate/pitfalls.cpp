// SPDX-License-Identifier: MIT
#include "migrate/pitfalls.h"

#include "migrate/arguments.h"

#include "io/number_format.h"

#include <cmath>
#include <algorithm>
#include <optional>

namespace gradstep::migrate {

namespace {

std::string classOf(const Json* entry) { return entry && entry->find("class") ? (*entry)["class"].asString() : "?"; }

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

/// "NAME=VALUE in PyTorch's CLASS vs MSNAME=MSVALUE in MindSpore's MSCLASS" (+ "(MindSpore's default)").
std::string versus(const std::string& tName, const std::string& tValue, const Json* t, const std::string& mName,
                   const MsArgument& m, const Json* ms)
{
    return tName + "=" + tValue + " in PyTorch's " + classOf(t) + " vs " + mName + "=" + m.text + " in MindSpore's "
           + classOf(ms) + (m.isDefault ? " (MindSpore's default)" : "");
}

std::optional<double> torchNumber(const Json* t, const std::string& name)
{
    const Json* v = torchArgument(t, name);
    if (v && v->isNumber())
        return v->asNumber();
    if (v && v->isBool())
        return v->asBool() ? 1.0 : 0.0;
    return std::nullopt;
}

std::optional<double> msNumber(const std::optional<MsArgument>& m)
{
    if (!m)
        return std::nullopt;
    if (m->text == "True" || m->text == "False")
        return m->text == "True" ? 1.0 : 0.0;
    return numberOf(m->text);
}

bool differ(std::optional<double> a, std::optional<double> b)
{
    return a && b && std::abs(*a - *b) > 1e-12 * std::max(1.0, std::abs(*a));
}

/// The same number under a name on each side (eps and eps, bias and has_bias, lr and learning_rate).
void compareNumber(std::vector<std::string>& out, const Json* t, const std::string& tName, const Json* m,
                   const std::string& mName)
{
    const Json* tv = torchArgument(t, tName);
    const auto mv = msArgument(m, mName);
    if (tv && mv && differ(torchNumber(t, tName), msNumber(mv)))
        out.push_back(versus(tName, pythonText(*tv), t, mName, *mv, m));
}

void convolution(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const Json* padding = torchArgument(t, "padding");
    const auto padMode = msArgument(m, "pad_mode");
    if (padding && padMode) {
        const std::string p = pythonText(*padding);
        const std::string mode = padMode->text;
        if ((mode == "'same'" && p != "'same'") || (mode == "'valid'" && p != "0" && p != "'valid'"))
            out.push_back(versus("padding", p, t, "pad_mode", *padMode, m)
                          + (p == "0" ? ": write pad_mode='valid'" : ": write pad_mode='pad', padding=" + p));
        if (mode == "'pad'")
            if (const auto mp = msArgument(m, "padding"); mp && mp->text != p)
                out.push_back(versus("padding", p, t, "padding", *mp, m));
    }
    compareNumber(out, t, "bias", m, "has_bias");
    for (const auto& [tName, mName] : {std::pair{"stride", "stride"}, {"dilation", "dilation"}})
        if (const Json* tv = torchArgument(t, tName))
            if (const auto mv = msArgument(m, mName); mv && mv->text != pythonText(*tv))
                out.push_back(versus(tName, pythonText(*tv), t, mName, *mv, m));
    compareNumber(out, t, "groups", m, "group");
}

void pooling(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const Json* stride = torchArgument(t, "stride");
    const Json* kernel = torchArgument(t, "kernel_size");
    const auto mStride = msArgument(m, "stride");
    if (stride && mStride) {
        // PyTorch's stride defaults to the kernel size, MindSpore's to 1.
        const std::string ts = stride->isNull() && kernel ? pythonText(*kernel) : pythonText(*stride);
        if (ts != mStride->text)
            out.push_back(versus("stride", ts, t, "stride", *mStride, m)
                          + (stride->isNull() ? " (PyTorch's stride defaults to kernel_size)" : ""));
    }
    if (const Json* p = torchArgument(t, "padding"))
        if (const auto mode = msArgument(m, "pad_mode"); mode && pythonText(*p) == "0" && mode->text != "'valid'"
                                                          && mode->text != "'VALID'")
            out.push_back(versus("padding", "0", t, "pad_mode", *mode, m));
}

void batchNorm(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const auto tm = torchNumber(t, "momentum");
    const auto mm = msArgument(m, "momentum");
    if (tm && mm && msNumber(mm) && std::abs(*msNumber(mm) - (1.0 - *tm)) > 1e-9)
        out.push_back(versus("momentum", pythonText(*torchArgument(t, "momentum")), t, "momentum", *mm, m)
                      + ": MindSpore's momentum is the weight of the old running statistics, 1 - PyTorch's"
                        " (PyTorch's momentum=" + pythonText(*torchArgument(t, "momentum")) + " is MindSpore's momentum="
                      + formatNumber(1.0 - *tm) + ")");
    compareNumber(out, t, "eps", m, "eps");
    compareNumber(out, t, "affine", m, "affine");
}

void dropout(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const auto tp = torchNumber(t, "p");
    if (!tp)
        return;
    const auto p = msArgument(m, "p");
    const auto keep = msArgument(m, "keep_prob");
    if (p && !p->isDefault && msNumber(p)) {
        if (differ(tp, msNumber(p)))
            out.push_back(versus("p", pythonText(*torchArgument(t, "p")), t, "p", *p, m));
    } else if (keep && msNumber(keep) && differ(tp, 1.0 - *msNumber(keep))) {
        out.push_back(versus("p", pythonText(*torchArgument(t, "p")), t, "keep_prob", *keep, m)
                      + ": keep_prob is the probability of keeping an element, 1 - p (write p="
                      + pythonText(*torchArgument(t, "p")) + ")");
    }
}

/// A recurrent layer's layout and structure: batch_first left out reads a (batch, time, ...)
/// batch as (time, batch, ...) with no error where it happens.
void recurrent(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const std::size_t before = out.size();
    compareNumber(out, t, "batch_first", m, "batch_first");
    if (out.size() > before)
        out.back() += ": the input is read as (time, batch, features) on one side and (batch, time, features) on "
                      "the other";
    compareNumber(out, t, "bidirectional", m, "bidirectional");
    compareNumber(out, t, "num_layers", m, "num_layers");
    compareNumber(out, t, "bias", m, "has_bias");
    compareNumber(out, t, "dropout", m, "dropout");
}

void gelu(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const Json* ta = torchArgument(t, "approximate");
    const auto ma = msArgument(m, "approximate");
    if (!ta || !ma || !ta->isString())
        return;
    const bool torchTanh = ta->asString() == "tanh";
    const bool msTanh = ma->text == "True" || ma->text == "'tanh'";
    if (torchTanh != msTanh)
        out.push_back(versus("approximate", pythonText(*ta), t, "approximate", *ma, m)
                      + (msTanh ? ": MindSpore's GELU uses the tanh approximation unless approximate=False"
                                : ""));
}

void trainingMode(std::vector<std::string>& out, const Json* t, const Json* m)
{
    const std::string cls = classOf(t);
    if (!startsWith(cls, "BatchNorm") && !startsWith(cls, "Dropout"))
        return;
    const Json* tt = t->find("training");
    const Json* mt = m->find("training");
    if (!tt || !mt || !tt->isBool() || !mt->isBool() || tt->asBool() == mt->asBool())
        return;
    out.push_back(std::string("training=") + (tt->asBool() ? "True" : "False") + " in PyTorch's " + cls
                  + " vs training=" + (mt->asBool() ? "True" : "False") + " in MindSpore's " + classOf(m)
                  + (mt->asBool() ? "" : ": MindSpore's Cells start in evaluation mode, call net.set_train() as"
                                         " model.train() does in PyTorch"));
}

} // namespace

std::vector<std::string> modulePitfalls(const Json* t, const Json* m)
{
    std::vector<std::string> out;
    if (!t || !m)
        return out;
    const std::string cls = classOf(t);
    trainingMode(out, t, m);
    if (startsWith(cls, "Conv"))
        convolution(out, t, m);
    else if (cls == "Linear")
        compareNumber(out, t, "bias", m, "has_bias");
    else if (startsWith(cls, "MaxPool") || startsWith(cls, "AvgPool"))
        pooling(out, t, m);
    else if (startsWith(cls, "BatchNorm"))
        batchNorm(out, t, m);
    else if (cls == "LayerNorm")
        compareNumber(out, t, "eps", m, "epsilon");
    else if (startsWith(cls, "Dropout"))
        dropout(out, t, m);
    else if (cls == "LeakyReLU") {
        if (const Json* slope = torchArgument(t, "negative_slope"))
            if (const auto alpha = msArgument(m, "alpha"); alpha && differ(torchNumber(t, "negative_slope"), msNumber(alpha)))
                out.push_back(versus("negative_slope", pythonText(*slope), t, "alpha", *alpha, m));
    } else if (cls == "GELU")
        gelu(out, t, m);
    else if (cls == "ELU")
        compareNumber(out, t, "alpha", m, "alpha");
    else if (cls == "LSTM" || cls == "GRU" || cls == "RNN")
        recurrent(out, t, m);
    return out;
}

std::vector<std::string> lossPitfalls(const Json* t, const Json* m)
{
    std::vector<std::string> out;
    if (!t || !m || t->isNull() || m->isNull())
        return out;
    const Json* reduction = torchArgument(t, "reduction");
    const auto mReduction = msArgument(m, "reduction");
    const std::string tr = reduction ? pythonText(*reduction) : "'mean'"; // PyTorch's default everywhere
    if (mReduction && mReduction->text != tr)
        out.push_back(versus("reduction", tr, t, "reduction", *mReduction, m)
                      + (mReduction->text == "'none'" ? ": the loss is one value per sample, and its gradient is"
                                                        " that of their sum" : ""));
    if (classOf(m) == "SoftmaxCrossEntropyWithLogits")
        if (const auto sparse = msArgument(m, "sparse"); sparse && sparse->text == "False")
            out.push_back("class indices as targets in PyTorch's " + classOf(t) + " vs sparse=False in MindSpore's "
                          "SoftmaxCrossEntropyWithLogits" + (sparse->isDefault ? " (MindSpore's default)" : "")
                          + ": it then reads the labels as one-hot rows (write sparse=True)");
    compareNumber(out, t, "label_smoothing", m, "label_smoothing");
    return out;
}

std::vector<std::string> optimizerPitfalls(const Json* t, const Json* m)
{
    std::vector<std::string> out;
    if (!t || !m || t->isNull() || m->isNull())
        return out;
    const std::string tc = classOf(t), mc = classOf(m);
    compareNumber(out, t, "lr", m, "learning_rate");
    compareNumber(out, t, "weight_decay", m, "weight_decay");
    if (tc == "SGD") {
        const auto momentum = msArgument(m, "momentum");
        if (momentum)
            compareNumber(out, t, "momentum", m, "momentum");
        else if (differ(torchNumber(t, "momentum"), 0.0))
            out.push_back("momentum=" + pythonText(*torchArgument(t, "momentum")) + " in PyTorch's SGD vs no momentum in "
                          "MindSpore's " + mc);
        if (mc == "Momentum" && differ(torchNumber(t, "dampening"), 0.0))
            out.push_back("dampening=" + pythonText(*torchArgument(t, "dampening"))
                          + " in PyTorch's SGD vs MindSpore's Momentum, which has no dampening (use nn.SGD)");
        else
            compareNumber(out, t, "dampening", m, "dampening");
        compareNumber(out, t, "nesterov", m, mc == "Momentum" ? "use_nesterov" : "nesterov");
    }
    if (tc.rfind("Adam", 0) == 0) {
        if (const Json* betas = torchArgument(t, "betas"); betas && betas->isArray() && betas->size() == 2) {
            for (int i = 0; i < 2; ++i) {
                const auto mb = msArgument(m, i == 0 ? "beta1" : "beta2");
                if (mb && differ((*betas)[static_cast<std::size_t>(i)].asNumber(), msNumber(mb)))
                    out.push_back(versus("betas", pythonText(*betas), t, i == 0 ? "beta1" : "beta2", *mb, m));
            }
        }
        compareNumber(out, t, "eps", m, "eps");
        if (out.empty())
            out.push_back("PyTorch's " + tc + " adds eps to the bias-corrected sqrt(v), MindSpore's " + mc
                          + " adds it before the correction (eps acts as eps / sqrt(1 - beta2^t) of PyTorch's): "
                            "the updates differ where gradients are as small as eps");
    }
    // A different definition comes first: it is the cause, the argument defaults follow from it.
    if (tc == "AdamW" && mc == "Adam")
        out.insert(out.begin(), "PyTorch's AdamW decays the weights apart from the gradient; MindSpore's Adam adds "
                                "weight_decay * w to the gradient: use nn.AdamWeightDecay");
    if (tc == "Adam" && mc == "AdamWeightDecay")
        out.insert(out.begin(), "PyTorch's Adam adds weight_decay * w to the gradient; MindSpore's AdamWeightDecay "
                                "decays the weights apart from it (nn.Adam matches)");
    return out;
}

std::vector<std::string> inputPitfalls(const Json* inputs)
{
    std::vector<std::string> out;
    if (!inputs || !inputs->isArray())
        return out;
    for (const Json& input : inputs->asArray()) {
        const std::string dtype = input["dtype"].asString();
        if (dtype == "float64")
            out.push_back("float32 input in PyTorch vs float64 in MindSpore: NumPy's default dtype reached the "
                          "network (cast the batch with .astype(np.float32))");
        if (const Json* layout = input.find("layout"); layout && layout->isString() && layout->asString() == "NHWC")
            out.push_back("NCHW batch in PyTorch vs NHWC in MindSpore (shape " + pythonText(input["shape"])
                          + "): transpose the images to (N, C, H, W) as PyTorch's and MindSpore's Conv2d expect");
    }
    return out;
}

std::string torchInitialiser(const std::string& cls, const std::string& attr)
{
    if ((startsWith(cls, "Conv") || cls == "Linear") && attr == "weight")
        return "kaiming_uniform(a=sqrt(5))";
    if ((startsWith(cls, "Conv") || cls == "Linear") && attr == "bias")
        return "uniform(+-1/sqrt(fan_in))";
    if (startsWith(cls, "BatchNorm") || cls == "LayerNorm")
        return attr == "weight" || attr == "running_var" ? "ones" : "zeros";
    if (cls == "Embedding")
        return "normal(0, 1)";
    if (cls == "LSTM" || cls == "GRU" || cls == "RNN")
        return "uniform(+-1/sqrt(hidden_size))";
    return "?";
}

std::string msInitialiser(const Json* m, const std::string& attr)
{
    const std::string cls = classOf(m);
    const std::string argName = attr == "weight" ? "weight_init" : attr == "bias" ? "bias_init" : attr + "_init";
    if (const auto given = msArgument(m, argName); given && !given->isDefault && given->text != "None") {
        // an Initializer object is kept as its text ("HeUniform()"), a name as the string ('normal')
        const std::string& text = given->text;
        const bool object = text.size() > 2 && text.front() == '\'' && text.find('(') != std::string::npos;
        return object ? text.substr(1, text.size() - 2) : text;
    }
    if ((startsWith(cls, "Conv") || cls == "Dense") && attr == "weight")
        return "HeUniform(negative_slope=sqrt(5))";
    if ((startsWith(cls, "Conv") || cls == "Dense") && attr == "bias")
        return "Uniform(+-1/sqrt(fan_in))";
    if (startsWith(cls, "BatchNorm") || cls == "LayerNorm")
        return attr == "gamma" || attr == "moving_variance" ? "'ones'" : "'zeros'";
    if (cls == "Embedding")
        return "Normal(0.01)";
    return "?";
}

} // namespace gradstep::migrate
