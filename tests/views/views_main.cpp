// Catch2 main for the view tests: the offscreen platform is set BEFORE the QApplication exists
// (catch_discover_tests runs this binary at build time, where there is no display), and the
// Python host starts once for the MainWindow tests. SPDX-License-Identifier: MIT
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <cstdio>
#include <cstdlib>

#ifdef GRADSTEP_HAVE_WINDOW
#include "python/host/host.h"
#endif

int main(int argc, char** argv)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int qtArgc = 1;
    QApplication app(qtArgc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("gradstep-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("gradstep-view-tests"));
    const int status = Catch::Session().run(argc, argv);
#ifdef GRADSTEP_HAVE_WINDOW
    gradstep::python::Host::shutdown();
    if (gradstep::python::Host::abandonedRuns()) {
        // A test gave up on a blocked script: its thread is still inside Python (Host::shutdown).
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(status);
    }
#endif
    return status;
}
