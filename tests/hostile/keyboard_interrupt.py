# A KeyboardInterrupt nobody catches (raised by the script, or Ctrl-C) ends the run as python3 ends:
# with SIGINT's exit status, 130, and the place named.
# expect-exit: 130
# expect-output: keyboard_interrupt\.py:8:5: error: KeyboardInterrupt
# max-seconds: 60
def train():
    print("training", flush=True)
    raise KeyboardInterrupt


train()
