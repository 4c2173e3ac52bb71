"""mindspore.log: MindSpore's logging API over Python's logging module.

As in MindSpore, the level comes from the GLOG_v environment variable (0 DEBUG, 1 INFO, 2 WARNING,
the default, 3 ERROR, 4 CRITICAL) and messages go to standard error as
`[LEVEL] ME(pid:thread,process):time [file:line] message`, naming the caller's file and line.
"""
import logging
import os
import sys
import threading
import time

__all__ = ["debug", "info", "warning", "error", "critical", "exception", "get_level",
           "get_log_config"]

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
           "4": logging.CRITICAL}
_DEFAULT_LEVEL = "2"


class _Formatter(logging.Formatter):
    def format(self, record):
        # MindSpore's timestamp: 2024-01-02-03:04:05.678
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(record.created))
        stamp += ".%03d" % record.msecs
        head = "[%s] ME(%d:%d,%s):%s [%s:%d] " % (record.levelname, record.process, threading.get_ident(),
                                                record.processName, stamp, record.pathname, record.lineno)
        text = head + record.getMessage()
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a message is logged (the runner redirects it)."""

    def __init__(self):
        super().__init__(sys.stderr)

    def emit(self, record):
        self.stream = sys.stderr
        super().emit(record)


_logger = logging.getLogger("mindspore")
_logger.propagate = False
_handler = _StderrHandler()
_handler.setFormatter(_Formatter())
_logger.addHandler(_handler)


def _level_setting():
    value = os.environ.get("GLOG_v", _DEFAULT_LEVEL)
    return value if value in _LEVELS else _DEFAULT_LEVEL


def _gradstep_reset():
    """Before each run: the level from this run's environment."""
    _logger.setLevel(_LEVELS[_level_setting()])


_gradstep_reset()


def _log(level, msg, args, kwargs):
    # stacklevel 3: the caller of debug()/info()/... is the location shown.
    kwargs.setdefault("stacklevel", 3)
    _logger.log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    """Logs msg (with %-style args) at DEBUG level."""
    _log(logging.DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    """Logs msg at INFO level."""
    _log(logging.INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    """Logs msg at WARNING level."""
    _log(logging.WARNING, msg, args, kwargs)


def error(msg, *args, **kwargs):
    """Logs msg at ERROR level."""
    _log(logging.ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    """Logs msg at CRITICAL level."""
    _log(logging.CRITICAL, msg, args, kwargs)


def exception(msg, *args, **kwargs):
    """Logs msg at ERROR level with the exception being handled."""
    kwargs.setdefault("exc_info", True)
    _log(logging.ERROR, msg, args, kwargs)


def get_level():
    """The level as MindSpore reports it: the GLOG_v digit as a string ('2' is WARNING)."""
    return _level_setting()


def get_log_config():
    """The logging settings in force, as a dict of MindSpore's GLOG_* names."""
    return {"GLOG_v": _level_setting(), "GLOG_logtostderr": os.environ.get("GLOG_logtostderr", "1")}
