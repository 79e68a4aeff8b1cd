#!/usr/bin/env bash
# The suite's time as issue 42 (part 6) asks for it: runs ./test.sh -q (extra arguments go to pytest) and
# prints its wall time and the whole machine's CPU over the run from /proc/stat (the tests, the bot
# processes they start, Chromium and PostgreSQL alike), with the CPU a fixed Python loop takes first: the
# machine's own speed moves from hour to hour, so compare two trees run back to back. Linux only.
set -uo pipefail
cd "$(dirname "$0")/.."
loop=$(python3 -c 'import time
t = time.process_time()
s = 0
for i in range(20_000_000): s += i
print(f"{time.process_time() - t:.2f}")')
hz=$(getconf CLK_TCK)
read -r _ u1 n1 s1 i1 w1 q1 sq1 _ < <(head -1 /proc/stat)
start=$(date +%s.%N)
./test.sh -q "$@" | tail -1
status=${PIPESTATUS[0]}
end=$(date +%s.%N)
read -r _ u2 n2 s2 i2 w2 q2 sq2 _ < <(head -1 /proc/stat)
python3 - "$start" "$end" "$(( (u2 - u1 + n2 - n1) / hz ))" "$(( (s2 - s1 + q2 - q1 + sq2 - sq1) / hz ))" \
  "$(( (i2 - i1 + w2 - w1) / hz ))" "$loop" "$status" <<'PY'
import sys
start, end, user, system, idle, loop, status = sys.argv[1:]
wall = float(end) - float(start)
print(f"suite: {int(wall // 60)} min {wall % 60:.0f} s wall, machine CPU {user} s user + {system} s sys,"
      f" {idle} s idle; the fixed loop {loop} s; ./test.sh exit status {status}")
PY
exit "$status"
