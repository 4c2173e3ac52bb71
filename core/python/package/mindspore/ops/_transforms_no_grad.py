"""mindspore._no_grad (also mindspore.common.api._no_grad): a region in which no op is recorded
for differentiation, as a context manager (`with _no_grad():`) or a decorator. Inside it a
gradient function raises "In no_grad context, you can not calculate gradient", as in MindSpore.
Both forms use the core's no-grad depth (mindspore._no_grad_enter / _no_grad_exit, C++)."""
import contextlib

import mindspore

__all__ = ["_no_grad"]


class _no_grad(contextlib.ContextDecorator):
    """Disables gradient recording in its block (or in the decorated function)."""

    def __init__(self):
        self.prev_state = False

    def __enter__(self):
        mindspore._no_grad_enter()
        return None

    def __exit__(self, exc_type, exc_val, exc_tb):
        mindspore._no_grad_exit()
        return False


mindspore._no_grad = _no_grad
import mindspore.common.api as _api  # noqa: E402  (MindSpore keeps it there)

_api._no_grad = _no_grad
