# A non-daemon thread that never ends keeps python3 alive forever; --timeout ends the run anyway.
# args: --timeout 3
# expect-exit: 1
# expect-output: timed out after 3 s
# max-seconds: 30
import threading
import time
threading.Thread(target=lambda: time.sleep(600)).start()
print("main part done", flush=True)
