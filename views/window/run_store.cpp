// Saved runs (Note [saved runs]). SPDX-License-Identifier: MIT
#include "views/window/run_store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <cmath>
#include <optional>

namespace gradstep::views {

namespace {

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

double numberOf(const QJsonValue& v)
{
    return v.isDouble() ? v.toDouble() : std::nan("");
}

QJsonArray stepsJson(const std::vector<debug::StepSummary>& steps)
{
    QJsonArray out;
    for (const debug::StepSummary& s : steps) {
        QJsonArray params;
        for (const debug::ParameterSummary& p : s.parameters)
            params.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(p.name)},
                                      {QStringLiteral("grad_norm"), number(p.gradientNorm)},
                                      {QStringLiteral("value_norm"), number(p.weightNorm)}});
        out.append(QJsonObject{{QStringLiteral("step"), double(s.step)},
                               {QStringLiteral("loss"), number(s.loss)},
                               {QStringLiteral("learning_rate"), number(s.learningRate)},
                               {QStringLiteral("params"), params}});
    }
    return out;
}

std::vector<debug::StepSummary> stepsOf(const QJsonArray& steps)
{
    std::vector<debug::StepSummary> out;
    for (const QJsonValue& v : steps) {
        const QJsonObject o = v.toObject();
        debug::StepSummary s;
        s.step = std::int64_t(o.value(QStringLiteral("step")).toDouble());
        s.finished = true;
        s.loss = numberOf(o.value(QStringLiteral("loss")));
        s.learningRate = numberOf(o.value(QStringLiteral("learning_rate")));
        for (const QJsonValue& pv : o.value(QStringLiteral("params")).toArray()) {
            const QJsonObject po = pv.toObject();
            debug::ParameterSummary p;
            p.name = po.value(QStringLiteral("name")).toString().toStdString();
            p.gradientNorm = numberOf(po.value(QStringLiteral("grad_norm")));
            p.weightNorm = numberOf(po.value(QStringLiteral("value_norm")));
            s.parameters.push_back(std::move(p));
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::optional<QJsonObject> readObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isObject())
        return std::nullopt;
    return doc.object();
}

bool writeObject(const QString& path, const QJsonObject& object)
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(QJsonDocument(object).toJson()) >= 0 && file.commit();
}

} // namespace

RunStore::RunStore(QString folder) : m_folder(std::move(folder))
{
    if (m_folder.isEmpty())
        m_folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs");
}

// One folder per script, named by a hash of its absolute path (paths make poor folder names).
QString RunStore::scriptFolder(const QString& script) const
{
    const QByteArray hash = QCryptographicHash::hash(script.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return m_folder + QLatin1Char('/') + QString::fromLatin1(hash);
}

std::vector<SavedRun> RunStore::runsOf(const QString& script) const
{
    std::vector<SavedRun> runs;
    const QDir dir(scriptFolder(script));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name | QDir::Reversed)) {
        const QString path = dir.filePath(name);
        const std::optional<QJsonObject> o = readObject(path);
        if (!o || o->value(QStringLiteral("script")).toString() != script)
            continue;
        SavedRun run;
        run.path = path;
        run.label = o->value(QStringLiteral("label")).toString();
        run.settings = o->value(QStringLiteral("settings")).toString();
        run.savedAt = QDateTime::fromString(o->value(QStringLiteral("saved_at")).toString(), Qt::ISODateWithMs);
        run.run = ChartRun{run.label, stepsOf(o->value(QStringLiteral("steps")).toArray())};
        runs.push_back(std::move(run));
    }
    return runs;
}

QString RunStore::save(const QString& script, const QString& settings, const QString& mode, const QString& api,
                       const std::vector<debug::StepSummary>& steps)
{
    const QString folder = scriptFolder(script);
    if (!QDir().mkpath(folder))
        return QObject::tr("cannot create %1").arg(folder);
    const QDateTime now = QDateTime::currentDateTime();
    QString base = now.toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    QString path = folder + QLatin1Char('/') + base + QStringLiteral(".json");
    for (int n = 2; QFile::exists(path); ++n) // two runs in the same millisecond
        path = folder + QLatin1Char('/') + base + QStringLiteral("-%1.json").arg(n);
    const QString label = QStringLiteral("%1 (%2)").arg(now.toString(QStringLiteral("MM-dd HH:mm:ss")), settings);
    const QJsonObject object{{QStringLiteral("script"), script},
                             {QStringLiteral("label"), label},
                             {QStringLiteral("settings"), settings},
                             {QStringLiteral("saved_at"), now.toString(Qt::ISODateWithMs)},
                             {QStringLiteral("mode"), mode},
                             {QStringLiteral("api"), api},
                             {QStringLiteral("steps"), stepsJson(steps)}};
    if (!writeObject(path, object))
        return QObject::tr("cannot write %1").arg(path);
    const std::vector<SavedRun> runs = runsOf(script);
    for (std::size_t i = kRunsPerScript; i < runs.size(); ++i)
        QFile::remove(runs[i].path);
    return {};
}

bool RunStore::rename(const SavedRun& run, const QString& label) const
{
    std::optional<QJsonObject> o = readObject(run.path);
    if (!o)
        return false;
    o->insert(QStringLiteral("label"), label);
    return writeObject(run.path, *o);
}

bool RunStore::remove(const SavedRun& run) const
{
    return QFile::remove(run.path);
}

} // namespace gradstep::views
