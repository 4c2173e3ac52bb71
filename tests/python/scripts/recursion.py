# Unbounded recursion: the repeated frame is shown once with a count.
# expect error: 4:12: RecursionError: maximum recursion depth exceeded
def depth(n):
    return depth(n + 1)


depth(0)
