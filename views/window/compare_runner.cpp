// SPDX-License-Identifier: MIT
#include "views/window/compare_runner.h"

#include "session/compare_processes.h"

#include <QMetaObject>
#include <exception>
#include <system_error>

namespace gradstep::views {

CompareRunner::CompareRunner(QObject* parent) : QObject(parent)
{
    std::error_code error;
    m_sideExecutable = std::filesystem::read_symlink("/proc/self/exe", error);
}

CompareRunner::~CompareRunner()
{
    cancel();
    if (m_worker.joinable())
        m_worker.join();
}

bool CompareRunner::start(const std::filesystem::path& script, session::CompareWhat what,
                          session::CompareOptions options)
{
    if (m_running)
        return false;
    if (m_worker.joinable())
        m_worker.join();
    m_running = true;
    m_label.clear();
    m_run = 0;
    const bool inProcesses = session::comparesInProcesses(what, options) && !m_sideExecutable.empty();
    m_runs = inProcesses ? 1 : (options.warmUp ? 3 : 2);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const auto cancelFlag = m_cancel;
    options.cancelled = [cancelFlag] { return cancelFlag->load(); };
    // The worker is joined before this object dies, so `this` outlives every queued call; the
    // calls target `this`, so Qt drops those still queued when it is deleted.
    CompareRunner* self = this;
    options.runStarted = [self](const std::string& label, int run, int runs) {
        const QString text = QString::fromStdString(label);
        QMetaObject::invokeMethod(
            self, [self, text, run, runs] {
                self->m_label = text;
                self->m_run = run;
                self->m_runs = runs;
                emit self->progress(text, run, runs);
            },
            Qt::QueuedConnection);
    };
    m_worker = std::thread([self, script, what, inProcesses, executable = m_sideExecutable,
                            options = std::move(options)] {
        auto result = std::make_shared<session::Comparison>();
        try {
            if (inProcesses) {
                const auto [a, b] = session::settingSides(script, what, options);
                *result = session::compareInChildProcesses(a, b, what, options, executable);
            } else {
                *result = session::compare(script, what, options);
            }
        } catch (const std::exception& e) {
            result->what = what;
            result->a.error = result->b.error = std::string(e.what());
        }
        QMetaObject::invokeMethod(
            self, [self, result] { self->deliver(result); }, Qt::QueuedConnection);
    });
    return true;
}

void CompareRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void CompareRunner::deliver(std::shared_ptr<const session::Comparison> comparison)
{
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    emit finished(std::move(comparison));
}

} // namespace gradstep::views
