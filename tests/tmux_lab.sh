#!/usr/bin/env bash
# The search lab in a real terminal: tmux runs `delve lab LEVEL` on a copy
# of the built-in level in a 150x40 pane (two panes side by side, each
# showing the whole level); the script steps the search,
# runs it to the end, reads g/h/f under the cursor, draws a wall, writes
# the level (refused once, then overwritten) and the picture, quits with
# q, and checks the shell got its terminal back in cooked mode and that
# the saved level and picture are what they should be.
#
# Usage: tests/tmux_lab.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"
level="$dir/room.txt"
cp "$(dirname "$0")/../levels/dungeon.txt" "$level"

screen() { t capture-pane -p -t lab; }
done_marker="finished-$$"


t new-session -d -s lab -x 150 -y 40 "env PS1='$ ' sh"
t send-keys -t lab "cd '$dir' && '$bin' lab '$level'; echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-$$\"" Enter

wait_for "1: astar octile fifo 8n"
wait_for "2: greedy octile fifo 8n"
wait_for "step 0/"
for _ in 1 2 3; do t send-keys -t lab .; done
wait_for "step 3/"
# The start itself: expanded first.
wait_for "g 0.00 h 71.94 f 71.94 parent - expanded #1"
t send-keys -t lab Enter
wait_for "done"
wait_for "cost 77.80 steps 72"
t send-keys -t lab l l w
wait_for "step 0/"
t send-keys -t lab W
wait_for "room.txt exists: press the key again"
t send-keys -t lab W
wait_for "wrote $level"
t send-keys -t lab Enter p
wait_for "wrote $dir/room.svg"
t send-keys -t lab '?'
wait_for "Lab keys"
# Esc alone: an Esc followed at once by q reads as Alt-q.
t send-keys -t lab Escape
for _ in $(seq 150); do screen | grep -qF "Lab keys" || break; sleep 0.2; done
t send-keys -t lab q
wait_for "$done_marker"
after=$(screen)
grep -qF "exit=0" <<<"$after" || { echo "tmux_lab: delve did not exit with 0:" >&2; echo "$after" >&2; exit 1; }
for flag in icanon echo; do
    if ! grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty"; then
        echo "tmux_lab: the terminal was left without $flag:" >&2
        cat "$dir/stty" >&2
        exit 1
    fi
done
# The wall drawn two cells right of the start is in the saved level.
row=$(grep -E '^#+\.S' "$level")
grep -qF 'S.#' <<<"$row" || { echo "tmux_lab: the wall is not in the saved level: $row" >&2; exit 1; }
"$bin" path "$level" --json > /dev/null || { echo "tmux_lab: the saved level does not load" >&2; exit 1; }
grep -qF 'class="closed"' "$dir/room.svg" || { echo "tmux_lab: the picture has no closed cells" >&2; exit 1; }
echo "tmux_lab: ok"
