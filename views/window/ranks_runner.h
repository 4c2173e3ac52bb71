// Drives a session::RankController on a worker thread, so the window stays responsive while the
// ranks start, step or run: commands queue up and run one after another; what the ranks answer
// arrives as signals on the GUI thread. SPDX-License-Identifier: MIT
#pragma once

#include "session/rank_controller.h"

#include <QObject>
#include <QString>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace gradstep::views {

class RanksRunner : public QObject {
    Q_OBJECT
public:
    explicit RanksRunner(QObject* parent = nullptr);
    /// shutdown().
    ~RanksRunner() override;

    /// Starts the ranks (ending ranks started before); `paused` follows once all of them paused,
    /// or with rankZeroHere `launched` once the others connected (then joinRankZero).
    void start(session::RankControllerOptions options);
    /// rankZeroHere: rank 0 (this process's session) serves on the socket now; `paused` follows.
    void joinRankZero();
    void step();
    void stepOver();
    void stepOut();
    void continueRun();
    /// Pauses the run command under way (RankController::requestPause); at once, any thread.
    void requestPause();
    void requestTensor(int rank, const std::string& name);
    void requestGradients();
    /// Ends the ranks; returns at once (a command under way ends too); `ended` follows.
    void stop();
    /// Ends the ranks and waits until mpirun and every rank are gone.
    void shutdown();

    /// Started, and not ended yet.
    bool running() const { return m_controller != nullptr && !m_ended; }
    /// A command is under way or queued.
    bool busy() const { return m_busy; }
    /// mpirun's process id while it runs (0 otherwise).
    pid_t launcherPid() const;

signals:
    /// rankZeroHere: the relay's connection (the receiver owns it) and the socket rank 0 serves on.
    void launched(int relayFd, const QString& socketPath);
    void paused(const std::vector<gradstep::session::RankPause>& pauses);
    void tensorArrived(const gradstep::session::RankTensor& tensor);
    void gradientsArrived(const std::vector<std::vector<gradstep::session::RankGradient>>& gradients);
    /// The ranks ended: stopped, or a rank failed or died (the reason says which and why).
    void ended(const QString& reason);
    void busyChanged(bool busy);

private:
    using Job = std::function<void(session::RankController&)>;
    void enqueue(Job job);
    void work(std::shared_ptr<session::RankController> controller);
    /// Runs `deliver` on the GUI thread, unless this runner is gone by then.
    void post(std::function<void()> deliver);
    void setBusy(bool busy);

    std::shared_ptr<session::RankController> m_controller;
    std::thread m_worker;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_jobs;
    bool m_quit = false;
    int m_pending = 0; ///< jobs queued or running (GUI thread)
    bool m_busy = false;
    bool m_ended = false;
};

} // namespace gradstep::views
