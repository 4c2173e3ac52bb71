// SPDX-License-Identifier: MIT
#include "views/window/session_bridge.h"

#include <QMetaObject>
#include <exception>

namespace gradstep::views {

SessionBridge::SessionBridge(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const debug::SessionState>>();
}

SessionBridge::~SessionBridge()
{
    close();
}

void SessionBridge::close()
{
    ++m_generation;
    m_session.reset(); // cancels the script and waits for its worker
    m_state.reset();
}

bool SessionBridge::busy() const
{
    return m_session && m_session->status() == debug::SessionStatus::Running;
}

void SessionBridge::open(debug::SessionOptions options, std::optional<std::pair<std::int64_t, std::uint64_t>> at)
{
    close();
    const std::uint64_t generation = m_generation;
    // The session and its threads end in close() before this object does, so `this` outlives
    // every callback; the generation drops what a replaced session posted late.
    SessionBridge* self = this;
    options.output = [self, generation](run::OutputStream stream, std::string_view text) {
        const QString copy = QString::fromUtf8(text.data(), qsizetype(text.size()));
        const bool isError = stream == run::OutputStream::Stderr;
        QMetaObject::invokeMethod(
            self, [self, generation, copy, isError] {
                if (self->m_generation == generation)
                    emit self->output(copy, isError);
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
        if (at)
            m_session->loadAt(at->first, at->second);
        else
            m_session->load();
        emit opened();
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
