# Imported by helper_raises_on_import.py.

raise ImportError("the helper refuses to load")
