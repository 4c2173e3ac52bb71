// SPDX-License-Identifier: MIT
#include "views/migration/migration_runner.h"

#include <QMetaObject>
#include <exception>

namespace gradstep::views {

MigrationRunner::MigrationRunner(QObject* parent) : QObject(parent) {}

MigrationRunner::~MigrationRunner()
{
    cancel();
    if (m_worker.joinable())
        m_worker.join();
}

bool MigrationRunner::start(migrate::MigrationRequest request)
{
    if (m_running)
        return false;
    if (m_worker.joinable())
        m_worker.join();
    m_running = true;
    m_stage.clear();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const auto cancelFlag = m_cancel;
    request.cancelled = [cancelFlag] { return cancelFlag->load(); };
    // The worker is joined before this object dies, so `this` outlives every queued call; the
    // calls target `this`, so Qt drops those still queued when it is deleted.
    MigrationRunner* self = this;
    request.stageStarted = [self](const std::string& stage) {
        const QString text = QString::fromStdString(stage);
        QMetaObject::invokeMethod(
            self, [self, text] {
                self->m_stage = text;
                emit self->stageStarted(text);
            },
            Qt::QueuedConnection);
    };
    m_worker = std::thread([self, request = std::move(request)] {
        auto outcome = std::make_shared<migrate::MigrationOutcome>();
        try {
            *outcome = migrate::runMigration(request);
        } catch (const std::exception& e) {
            // A capture that cannot be read, a temporary directory that cannot be made: said in
            // the view, as the command line says it.
            outcome->status = migrate::MigrationStatus::MindsporeFailed;
            outcome->message = e.what();
        }
        QMetaObject::invokeMethod(
            self, [self, outcome] { self->deliver(outcome); }, Qt::QueuedConnection);
    });
    return true;
}

void MigrationRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void MigrationRunner::deliver(std::shared_ptr<const migrate::MigrationOutcome> outcome)
{
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    emit finished(std::move(outcome));
}

} // namespace gradstep::views
