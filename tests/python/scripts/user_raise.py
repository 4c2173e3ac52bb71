# An exception the user raises inside a function: the innermost frame, then the traceback.
# expect error: 6:9: ValueError: learning rate must be positive, got -0.1
# expect output:   user_raise.py:10:1: in <module>
def check(lr):
    if lr <= 0:
        raise ValueError(f"learning rate must be positive, got {lr}")
    return lr


check(-0.1)
