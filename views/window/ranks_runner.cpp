// SPDX-License-Identifier: MIT
#include "views/window/ranks_runner.h"

#include <QMetaObject>

namespace gradstep::views {

RanksRunner::RanksRunner(QObject* parent) : QObject(parent) {}

RanksRunner::~RanksRunner()
{
    shutdown();
}

pid_t RanksRunner::launcherPid() const
{
    return m_controller ? m_controller->launcherPid() : 0;
}

void RanksRunner::post(std::function<void()> deliver)
{
    QMetaObject::invokeMethod(this, std::move(deliver), Qt::QueuedConnection);
}

void RanksRunner::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void RanksRunner::start(session::RankControllerOptions options)
{
    shutdown();
    m_controller = std::make_shared<session::RankController>(std::move(options));
    m_quit = false;
    m_jobs.clear();
    m_pending = 0;
    m_ended = false;
    m_worker = std::thread([this, controller = m_controller] { work(controller); });
    enqueue([this](session::RankController& c) {
        auto pauses = c.start();
        if (!pauses.empty()) {
            post([this, pauses] { emit paused(pauses); });
            return;
        }
        const int relay = c.takeRelay();
        const QString socket = QString::fromStdString(c.socketPath());
        post([this, relay, socket] { emit launched(relay, socket); });
    });
}

void RanksRunner::joinRankZero()
{
    enqueue([this](session::RankController& c) {
        auto pauses = c.joinRankZero();
        post([this, pauses] { emit paused(pauses); });
    });
}

void RanksRunner::requestPause()
{
    if (m_controller)
        m_controller->requestPause();
}

void RanksRunner::enqueue(Job job)
{
    if (!running())
        return;
    ++m_pending;
    setBusy(true);
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void RanksRunner::work(std::shared_ptr<session::RankController> controller)
{
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_quit || !m_jobs.empty(); });
            if (m_quit)
                break;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        try {
            try {
                job(*controller);
            } catch (const session::RanksEnded&) {
                throw;
            } catch (const std::exception& e) { // a malformed answer: the ranks cannot go on
                controller->stop();
                throw session::RanksEnded(std::string("the ranks' answer could not be read: ") + e.what());
            }
        } catch (const session::RanksEnded& e) {
            const QString reason = QString::fromStdString(e.what());
            post([this, reason] {
                m_pending = 0;
                m_ended = true;
                setBusy(false);
                emit ended(reason);
            });
            std::lock_guard lock(m_mutex);
            m_jobs.clear();
            continue;
        }
        post([this] {
            if (m_pending > 0 && --m_pending == 0)
                setBusy(false);
        });
    }
    controller->stop(); // reaps mpirun, on this thread: the GUI does not wait for it
}

void RanksRunner::step()
{
    enqueue([this](session::RankController& c) {
        auto pauses = c.step();
        post([this, pauses] { emit paused(pauses); });
    });
}

void RanksRunner::stepOver()
{
    enqueue([this](session::RankController& c) {
        auto pauses = c.stepOver();
        post([this, pauses] { emit paused(pauses); });
    });
}

void RanksRunner::stepOut()
{
    enqueue([this](session::RankController& c) {
        auto pauses = c.stepOut();
        post([this, pauses] { emit paused(pauses); });
    });
}

void RanksRunner::continueRun()
{
    enqueue([this](session::RankController& c) {
        auto pauses = c.continueRun();
        post([this, pauses] { emit paused(pauses); });
    });
}

void RanksRunner::requestTensor(int rank, const std::string& name)
{
    enqueue([this, rank, name](session::RankController& c) {
        auto tensor = c.tensor(rank, name);
        post([this, tensor] { emit tensorArrived(tensor); });
    });
}

void RanksRunner::requestGradients()
{
    enqueue([this](session::RankController& c) {
        auto gradients = c.gradients();
        post([this, gradients] { emit gradientsArrived(gradients); });
    });
}

void RanksRunner::stop()
{
    if (!m_controller)
        return;
    m_controller->requestStop();
    enqueue([](session::RankController& c) {
        c.stop();
        throw session::RanksEnded(c.endReason());
    });
}

void RanksRunner::shutdown()
{
    if (!m_worker.joinable())
        return;
    m_controller->requestStop();
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_one();
    m_worker.join(); // the worker stops the controller: mpirun is reaped
    m_controller.reset();
    m_pending = 0;
    setBusy(false);
}

} // namespace gradstep::views
