# sys.stdout / sys.stderr behave as python3's where scripts rely on them: faulthandler.enable()
# (needs fileno), bytes through .buffer (a UTF-8 character split across two writes arrives whole),
# reconfigure(...) as training scripts call it, and a closed stream refuses writes as python3's.
# expect-exit: 1
# expect-output: ^faulthandler True$
# expect-output: ^bytes: grün$
# expect-output: ^reconfigured utf-8 True$
# expect-output: ^unknown encoding: LookupError$
# expect-output: script_streams\.py:33:1: error: ValueError: I/O operation on closed file\.
# max-seconds: 60
import faulthandler
import sys

faulthandler.enable()
print("faulthandler", faulthandler.is_enabled(), flush=True)
faulthandler.disable()

word = "bytes: grün\n".encode()
split = word.index(b"\xc3") + 1
sys.stdout.buffer.write(word[:split])
sys.stdout.buffer.write(word[split:])
sys.stdout.buffer.flush()

sys.stdout.reconfigure(encoding="utf-8", line_buffering=True)
print("reconfigured", sys.stdout.encoding, sys.stdout.line_buffering)
try:
    sys.stdout.reconfigure(encoding="no-such-codec")
except LookupError as e:
    print("unknown encoding:", type(e).__name__)

sys.stdout.flush()
sys.stdout.close()
print("not shown")
