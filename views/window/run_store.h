// Note [saved runs]: every run the window finishes is kept, so its curves can be drawn later
// beside another run's: one JSON file per run in the user's data folder, under a folder per
// script (the most recent kRunsPerScript of each). The file is a `gradstep run --report`
// document ({"script", "mode", "api", "steps": [{"step", "loss", "learning_rate", "params":
// [{"name", "grad_norm", "value_norm"}]}]}) with the run's "label", "settings" and "saved_at",
// so `gradstep compare SCRIPT --against FILE` reads it too. SPDX-License-Identifier: MIT
#pragma once

#include "views/charts_view.h"

#include <QDateTime>
#include <QString>
#include <vector>

namespace gradstep::views {

struct SavedRun {
    QString path; ///< its file
    QString label;
    QString settings; ///< "PyNative, has_aux as written, ..."
    QDateTime savedAt;
    ChartRun run; ///< run.label == label
};

class RunStore {
public:
    static constexpr int kRunsPerScript = 10;

    /// Runs under `folder`; empty: the user's data folder (QStandardPaths::AppDataLocation)/runs.
    explicit RunStore(QString folder = {});
    const QString& folder() const { return m_folder; }
    void setFolder(const QString& folder) { m_folder = folder; }

    /// The saved runs of `script` (an absolute path), newest first; unreadable files are skipped.
    std::vector<SavedRun> runsOf(const QString& script) const;
    /// Saves a finished run of `script` and drops the oldest beyond kRunsPerScript. An error
    /// message, empty on success.
    QString save(const QString& script, const QString& settings, const QString& mode, const QString& api,
                 const std::vector<debug::StepSummary>& steps);
    bool rename(const SavedRun& run, const QString& label) const;
    bool remove(const SavedRun& run) const;

private:
    QString scriptFolder(const QString& script) const;

    QString m_folder;
};

} // namespace gradstep::views
