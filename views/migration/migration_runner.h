// Runs `gradstep migrate`'s comparison (migrate::runMigration) on its own worker thread, so the
// window stays responsive while PyTorch starts in its child python3 and the port runs: the stage
// under way and the outcome arrive as signals on the GUI thread; cancel() kills the PyTorch child
// or stops the port within about 50 ms. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/migration.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace gradstep::views {

class MigrationRunner : public QObject {
    Q_OBJECT
public:
    explicit MigrationRunner(QObject* parent = nullptr);
    /// Cancels a running comparison and waits for it.
    ~MigrationRunner() override;

    /// Starts comparing; false (nothing started) while another comparison runs. The request's
    /// cancelled and stageStarted hooks are the runner's own. The embedded Python must be
    /// running and free (no other script running in it).
    bool start(migrate::MigrationRequest request);
    void cancel();
    bool running() const { return m_running; }
    /// The stage under way: "PyTorch side", "MindSpore side", "comparing".
    QString stage() const { return m_stage; }

signals:
    void stageStarted(const QString& stage);
    void finished(std::shared_ptr<const gradstep::migrate::MigrationOutcome> outcome);

private:
    void deliver(std::shared_ptr<const migrate::MigrationOutcome> outcome);

    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    QString m_stage;
};

} // namespace gradstep::views
