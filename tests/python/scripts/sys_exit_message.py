# expect error: 4:1: SystemExit: missing --data argument
import sys

sys.exit("missing --data argument")
