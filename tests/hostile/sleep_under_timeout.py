# A script blocked in time.sleep is still stopped by --timeout.
# args: --timeout 2
# expect-exit: 1
# expect-output: timed out after 2 s
# max-seconds: 30
import time
print("sleeping", flush=True)
time.sleep(600)
