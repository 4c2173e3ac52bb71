# A script blocked reading a pipe nobody writes to is still stopped by --timeout.
# args: --timeout 2
# expect-exit: 1
# expect-output: timed out after 2 s
# max-seconds: 30
import os
r, w = os.pipe()
os.read(r, 1)
