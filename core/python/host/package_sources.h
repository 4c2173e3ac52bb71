// The Python half of the embedded `mindspore` package: modules MindSpore itself writes in Python
// as thin glue (module aliases, composite helpers, logging, ...), kept as Python sources in
// core/python/package and compiled into the binary (embed_package.cmake), so an installed or moved
// gradstep needs no file beside it. package_loader.cpp serves them to Python's import system.
// SPDX-License-Identifier: MIT
#pragma once

#include <span>

namespace gradstep::python {

struct PackageSource {
    const char* module;  ///< dotted name: "mindspore.ops.composite"
    const char* path;    ///< relative to core/python/package: "mindspore/ops/composite.py"
    bool package;        ///< an __init__.py: the module gets a __path__
    const char* source;
};

std::span<const PackageSource> packageSources();

/// Puts the embedded modules' finder on sys.meta_path, marks the C++ modules as packages so their
/// Python submodules can be imported, and imports every embedded module (so each run sees the
/// same objects, restored by prepareMindsporeForRun like the C++ modules). GIL held; after the C++
/// `mindspore` module is imported.
void installPackage();
/// Before each run: embedded modules that keep settings put their defaults back.
void resetPackageForRun();

} // namespace gradstep::python
