# Imported by helper_syntax_error.py.
def f(x) x
