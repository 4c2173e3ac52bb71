# The error is inside a helper module beside the script; the import is in the traceback.
# expect error: _helper_raises.py:3:1: ImportError: the helper refuses to load
# expect output:   helper_raises_on_import.py:4:1: in <module>
import _helper_raises  # noqa: F401
