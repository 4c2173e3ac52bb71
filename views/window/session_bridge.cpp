// SPDX-License-Identifier: MIT
#include "views/window/session_bridge.h"

#include <QMetaObject>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gradstep::views {

namespace {
/// The script's output not yet handed to the GUI thread: (is stderr, text) runs, in order.
struct PendingOutput {
    std::mutex mutex;
    std::vector<std::pair<bool, std::string>> chunks;
    bool posted = false; ///< a queued call will take the chunks
};
} // namespace

SessionBridge::SessionBridge(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const debug::SessionState>>();
}

SessionBridge::~SessionBridge()
{
    close();
    m_afterRetired.clear();
    for (auto& [id, thread] : m_retiring)
        thread.join(); // at most the few seconds a blocked script is given before it is given up on
}

void SessionBridge::close()
{
    if (m_session && m_beforeClose)
        m_beforeClose();
    ++m_generation;
    m_state.reset();
    if (!m_session)
        return;
    m_session->cancel();
    const std::uint64_t id = m_nextRetiring++;
    SessionBridge* self = this;
    // ~Session waits for the run to end; the thread's last act posts its own join.
    m_retiring.emplace(id, std::thread([self, id, session = std::move(m_session)]() mutable {
        session.reset();
        QMetaObject::invokeMethod(self, [self, id] { self->retired(id); }, Qt::QueuedConnection);
    }));
}

void SessionBridge::retired(std::uint64_t id)
{
    auto it = m_retiring.find(id);
    if (it == m_retiring.end())
        return;
    it->second.join();
    m_retiring.erase(it);
    if (!m_retiring.empty())
        return;
    std::vector<std::function<void()>> waiting;
    waiting.swap(m_afterRetired);
    for (auto& then : waiting)
        then();
}

void SessionBridge::afterRetired(std::function<void()> then)
{
    if (m_retiring.empty())
        then();
    else
        m_afterRetired.push_back(std::move(then));
}

bool SessionBridge::busy() const
{
    return m_session && m_session->status() == debug::SessionStatus::Running;
}

void SessionBridge::open(debug::SessionOptions options, std::optional<std::pair<std::int64_t, std::uint64_t>> at)
{
    close();
    const std::uint64_t generation = m_generation;
    // Every session ends before this object does (the destructor joins the retiring ones), so
    // `this` outlives every callback; the generation drops what a replaced session posted late.
    SessionBridge* self = this;
    // What the script prints is gathered here and handed over in one queued call per batch:
    // a queued call per print fell behind a script printing a million lines (Note [A bounded
    // console] in console_view.cpp).
    auto pending = std::make_shared<PendingOutput>();
    options.output = [self, generation, pending](run::OutputStream stream, std::string_view text) {
        const bool isError = stream == run::OutputStream::Stderr;
        {
            std::lock_guard lock(pending->mutex);
            if (!pending->chunks.empty() && pending->chunks.back().first == isError)
                pending->chunks.back().second.append(text);
            else
                pending->chunks.emplace_back(isError, std::string(text));
            if (pending->posted)
                return;
            pending->posted = true;
        }
        QMetaObject::invokeMethod(
            self, [self, generation, pending] {
                std::vector<std::pair<bool, std::string>> chunks;
                {
                    std::lock_guard lock(pending->mutex);
                    chunks.swap(pending->chunks);
                    pending->posted = false;
                }
                if (self->m_generation != generation)
                    return;
                for (const auto& [isError, text] : chunks)
                    emit self->output(QString::fromUtf8(text.data(), qsizetype(text.size())), isError);
            },
            Qt::QueuedConnection);
    };
    m_options = options;
    try {
        m_session = std::make_unique<debug::Session>(std::move(options));
        m_session->setListener([self, generation](const debug::SessionState& state) {
            auto copy = std::make_shared<const debug::SessionState>(state);
            QMetaObject::invokeMethod(
                self, [self, generation, copy] { self->deliver(copy, generation); },
                Qt::QueuedConnection);
        });
    } catch (const std::exception& e) {
        m_session.reset();
        emit failed(QString::fromUtf8(e.what()));
        return;
    }
    emit opened(); // breakpoints and watchpoints may be given to it before it loads
    afterRetired([this, generation, at, first = std::exchange(m_first, std::nullopt)] { load(generation, at, first); });
}

void SessionBridge::load(std::uint64_t generation, std::optional<std::pair<std::int64_t, std::uint64_t>> at,
                         std::optional<debug::RunCommand> first)
{
    if (generation != m_generation || !m_session)
        return; // replaced before it could start
    try {
        if (at)
            m_session->loadAt(at->first, at->second);
        else
            m_session->load(first.value_or(debug::RunCommand{}));
    } catch (const std::exception& e) {
        m_session.reset();
        emit failed(QString::fromUtf8(e.what()));
    }
}

void SessionBridge::deliver(std::shared_ptr<const debug::SessionState> state, std::uint64_t generation)
{
    if (generation != m_generation)
        return;
    m_state = std::move(state);
    emit stateChanged(m_state);
}

} // namespace gradstep::views
