# A SIGALRM watchdog whose handler raises, a SIGTERM checkpoint handler and SIG_IGN, as under python3.
# expect-exit: 0
# expect-output: ^alarm raised in script$
# expect-output: ^\[.checkpoint.\]$
# expect-output: ^ignored ok$
import os, signal, time
class Alarm(Exception):
    pass
def on_alarm(signum, frame):
    raise Alarm()
signal.signal(signal.SIGALRM, on_alarm)
signal.setitimer(signal.ITIMER_REAL, 0.2)
try:
    for _ in range(1000):
        time.sleep(0.01)
    print("no alarm")
except Alarm:
    print("alarm raised in script")
print(signal.getsignal(signal.SIGALRM) is on_alarm)
saved = []
signal.signal(signal.SIGTERM, lambda s, f: saved.append("checkpoint"))
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(0.2)
print(saved)
signal.signal(signal.SIGUSR2, signal.SIG_IGN)
os.kill(os.getpid(), signal.SIGUSR2)
print("ignored ok")
