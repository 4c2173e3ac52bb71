// Runs a comparison on its own worker thread, so the window stays responsive: which run is under
// way and the result arrive as signals on the GUI thread; cancel() stops the run within about
// 100 ms (compare polls its cancelled hook). Over several steps the two sides run at the same
// time in two child processes, as on the command line (Note [both sides at once] in
// session/compare_processes.h); cancel() then interrupts both. SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>

namespace gradstep::views {

class CompareRunner : public QObject {
    Q_OBJECT
public:
    explicit CompareRunner(QObject* parent = nullptr);
    /// Cancels a running comparison and waits for it.
    ~CompareRunner() override;

    /// Starts comparing `script`; false (nothing started) while another comparison runs.
    /// options.cancelled and options.runStarted are the runner's own.
    bool start(const std::filesystem::path& script, session::CompareWhat what,
               session::CompareOptions options);
    void cancel();
    bool running() const { return m_running; }
    /// The program a side's child process runs (`gradstep compare --side-request`): this
    /// program by default; a test, which is another program, points it at gradstep.
    void setSideExecutable(std::filesystem::path executable) { m_sideExecutable = std::move(executable); }
    /// The run under way: "has_aux on", its number from 1 and the number of runs.
    QString runLabel() const { return m_label; }
    int run() const { return m_run; }
    int runs() const { return m_runs; }

signals:
    void progress(const QString& label, int run, int runs);
    void finished(std::shared_ptr<const gradstep::session::Comparison> comparison);

private:
    void deliver(std::shared_ptr<const session::Comparison> comparison);

    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    QString m_label;
    int m_run = 0;
    int m_runs = 0;
    std::filesystem::path m_sideExecutable;
};

} // namespace gradstep::views
