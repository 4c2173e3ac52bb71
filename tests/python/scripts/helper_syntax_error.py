# expect error: _helper_syntax.py:2:10: SyntaxError: expected ':'
import _helper_syntax  # noqa: F401
