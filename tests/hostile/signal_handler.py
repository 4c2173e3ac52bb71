# Training scripts install signal handlers (checkpoint on SIGTERM): they work as under python3.
# expect-exit: 0
# expect-output: handled SIGUSR1
import os
import signal
import time

got = []
previous = signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(signum))
assert previous == signal.SIG_DFL, previous
os.kill(os.getpid(), signal.SIGUSR1)
for _ in range(100):
    if got:
        break
    time.sleep(0.01)
assert got == [signal.SIGUSR1], got
print("handled SIGUSR1")
