#!/bin/bash
# Runs one hostile script under `gradstep run` and checks what its header comments expect:
#   # command: debug         the gradstep command instead of run
#   # args: ...              extra arguments after the script (e.g. --timeout 2)
#   # expect-exit: N         the exit status
#   # expect-output: REGEX   a line of stdout+stderr matches (extended regex; may repeat)
#   # max-seconds: N         the run ends within N seconds (default 120); a hang fails the test
# A crash (a signal) or a hang fails whatever the header says.
set -u
binary=$1
script=$2
header() { sed -n "s/^# $1: //p" "$script"; }
args=$(header args)
command=$(header command)
command=${command:-run}
expected_exit=$(header expect-exit)
max_seconds=$(header max-seconds)
max_seconds=${max_seconds:-120}
output=$(mktemp)
trap 'rm -f "$output"' EXIT
cd "$(dirname "$script")" || exit 1
# shellcheck disable=SC2086 # args are words
timeout --kill-after=5 "$max_seconds" "$binary" "$command" "$script" $args </dev/null >"$output" 2>&1
status=$?
fail() { echo "FAIL $(basename "$script"): $*"; echo "--- output (last 40 lines)"; tail -n 40 "$output"; exit 1; }
[ "$status" -eq 124 ] || [ "$status" -eq 137 ] && fail "still running after ${max_seconds} s"
[ "$status" -gt 128 ] && [ "$status" != "$expected_exit" ] && fail "killed by signal $((status - 128))"
[ -n "$expected_exit" ] && [ "$status" -ne "$expected_exit" ] && fail "exit status $status, expected $expected_exit"
while IFS= read -r pattern; do
    [ -z "$pattern" ] && continue
    grep -Eq -- "$pattern" "$output" || fail "no line matches /$pattern/"
done < <(header expect-output)
echo "ok $(basename "$script") (exit $status)"
