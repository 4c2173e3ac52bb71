# os._exit ends the process under python3; here the process is the debugger (a window, a comparison,
# the report), so it ends the run at the call, named, as sys.exit with that status would. A child
# the script forks still exits for real (its status reaches the parent), and os.abort ends the run
# the same way (Note [Process exits in a hosted script]).
# expect-exit: 1
# expect-output: ^child exited with 7$
# expect-output: os_exit\.py:18:1: error: SystemExit: os\._exit\(3\) ends the process under python3 \(exit status 3\); gradstep ended the run there
# max-seconds: 60
import os

pid = os.fork()
if pid == 0:
    os._exit(7)
_, status = os.waitpid(pid, 0)
print("child exited with", os.waitstatus_to_exitcode(status), flush=True)
if os.environ.get("NEVER_SET_BY_THE_TEST"):
    os.abort()
os._exit(3)
print("not reached")
