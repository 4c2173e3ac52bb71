# os._exit and os.abort from a thread the script started end the run (the script's thread stops at
# its next bytecode), naming the thread and its line; the thread itself ends silently.
# expect-exit: 1
# expect-output: error: SystemExit: os\.abort\(\) \(in thread 'worker' at os_exit_from_thread\.py:15\) aborts the process under python3 \(SIGABRT\); gradstep ended the run there
# max-seconds: 60
import os
import threading
import time

started = threading.Event()


def work():
    started.wait()
    os.abort()


threading.Thread(target=work, name="worker").start()
started.set()
for _ in range(200):
    time.sleep(0.05)
print("not reached")
