// Helpers of the window tests: a MainWindow with a script open, waits that keep the event loop
// running, menu lookups and picture checks. SPDX-License-Identifier: MIT
#pragma once

#include "python/host/host.h"
#include "views/window/main_window.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QImage>
#include <QMenuBar>
#include <QSet>
#include <functional>
#include <memory>

namespace gradstep::views::test {

inline QString sample(const char* name)
{
    return QStringLiteral(GRADSTEP_SOURCE_DIR "/samples/") + QLatin1String(name);
}

/// Processes events until the window showed a state after `shownBefore` that is not Running.
inline std::shared_ptr<const debug::SessionState> waitForStop(MainWindow& window, std::uint64_t shownBefore,
                                                              int timeoutMs = 180000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const auto state = window.bridge().state();
        if (window.statesShown() > shownBefore && state && state->status != debug::SessionStatus::Running)
            return state;
    }
    return nullptr;
}

/// Steps into `times` nodes, waiting for each pause; the last state (null on a timeout).
inline std::shared_ptr<const debug::SessionState> stepInto(MainWindow& window, int times = 1)
{
    std::shared_ptr<const debug::SessionState> state;
    for (int i = 0; i < times; ++i) {
        const std::uint64_t shown = window.statesShown();
        window.stepInto();
        state = waitForStop(window, shown);
    }
    return state;
}

/// A window with `script` open and paused after its first node.
inline std::unique_ptr<MainWindow> openWindow(const QString& script)
{
    python::Host::start();
    auto window = std::make_unique<MainWindow>(false);
    // A comparison's side processes run gradstep, which this test program is not.
    window->setCompareExecutable(GRADSTEP_BINARY);
    window->resize(1400, 900);
    window->show();
    window->openScript(script);
    REQUIRE(waitForStop(*window, 0));
    return window;
}

/// Processes events until `done`; false after the timeout.
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 180000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (done())
            return true;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return done();
}

/// Processes events for `ms` milliseconds.
inline void spin(int ms)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

inline QAction* menuAction(MainWindow& window, const QString& menu, const QString& text)
{
    for (QAction* m : window.menuBar()->actions())
        if (m->menu() && m->text() == menu)
            for (QAction* a : m->menu()->actions())
                if (a->text() == text)
                    return a;
    return nullptr;
}

/// Colours seen on a 3-pixel grid: a blank or flat picture has one or two.
inline int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace gradstep::views::test
