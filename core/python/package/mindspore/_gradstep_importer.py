"""Serves the Python modules of gradstep's `mindspore` package from the sources compiled into the
binary (package_loader.cpp exec()s this file first, by hand, and calls install()).

Their file names start with '<gradstep>/', which is never a path of the user's files: diagnostics,
breakpoints and the source lines of recorded nodes skip their frames and point at the user's code.
"""
import importlib
import importlib.machinery
import os
import sys

ORIGIN = "<gradstep>/"


class EmbeddedModules:
    """A meta path finder and loader over {module: (path, is_package, source)}."""

    def __init__(self, sources):
        self._sources = sources

    def find_spec(self, fullname, path=None, target=None):
        entry = self._sources.get(fullname)
        if entry is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self, origin=ORIGIN + entry[0],
                                              is_package=entry[1])
        spec.has_location = True
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        path, _, source = self._sources[module.__spec__.name]
        exec(compile(source, ORIGIN + path, "exec", dont_inherit=True), module.__dict__)

    # linecache and inspect read the source of a frame through these.
    def get_source(self, fullname):
        return self._sources[fullname][2]

    def is_package(self, fullname):
        return self._sources[fullname][1]

    def get_filename(self, fullname):
        return ORIGIN + self._sources[fullname][0]

    def names(self):
        return sorted(self._sources)


_modules = None


def sources_in(directory):
    """{module: (path, is_package, source)} of the .py files under directory, named as
    embed_package.cmake names them."""
    sources = {}
    for root, _, files in os.walk(directory):
        for file in files:
            if not file.endswith(".py"):
                continue
            path = os.path.relpath(os.path.join(root, file), directory).replace(os.sep, "/")
            module = path[:-3]
            package = module.endswith("/__init__")
            if package:
                module = module[: -len("/__init__")]
            with open(os.path.join(root, file), encoding="utf-8") as f:
                sources[module.replace("/", ".")] = (path, package, f.read())
    sources.pop(__name__, None)
    return sources


def install(sources):
    """Puts the finder before the path finders (so no installed MindSpore shadows a module),
    makes every C++ module of the package a package (Python submodules then import beside C++
    ones) and imports every embedded module once.

    GRADSTEP_PACKAGE_DIR (for gradstep's developers) names a checkout's core/python/package to
    read the modules from instead of the copies compiled in, so they can be edited without a
    rebuild."""
    global _modules
    override = os.environ.get("GRADSTEP_PACKAGE_DIR")
    if override:
        sources = sources_in(override)
    _modules = EmbeddedModules(sources)
    position = next((i for i, finder in enumerate(sys.meta_path)
                     if finder is importlib.machinery.PathFinder), len(sys.meta_path))
    sys.meta_path.insert(position, _modules)
    for name, module in list(sys.modules.items()):
        if (name == "mindspore" or name.startswith("mindspore.")) and not hasattr(module, "__path__"):
            module.__path__ = []
    for name in _modules.names():
        importlib.import_module(name)


def reset_for_run():
    """Before each run: every embedded module that keeps settings (logging level, ...) puts its
    defaults back, so nothing one script set leaks into the next."""
    for name in _modules.names():
        reset = getattr(sys.modules.get(name), "_gradstep_reset", None)
        if reset is not None:
            reset()
