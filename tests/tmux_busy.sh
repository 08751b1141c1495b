#!/usr/bin/env bash
# Long work in a real terminal: nothing may hold the loop where q and
# signals cannot reach it.
#
# - A seek to the end of a long recording runs in slices with a bar: q
#   stops it where it got to (the replay goes on), and SIGTERM ends delve
#   at once (143), the terminal restored.
# - After a won replay's end screen, Home still seeks (back to 00:00).
# - A tick that builds HPA*'s abstraction of a 2048x2048 level (seconds of
#   work) leaves the screen drawn with a popup saying so; SIGTERM ends delve
#   at once (143) with the recording kept as an interrupted one, and q quits
#   at once (0), saying where the recording is. The lab opening that
#   level with HPA* in a pane shows the popup too, and q quits at once.
#
# "At once" is within a second here, where the work would take several.
#
# Usage: tests/tmux_busy.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"

screen() { t capture-pane -p -t busy; }
fail() {
    echo "tmux_busy: $*; the pane shows:" >&2
    screen >&2
    exit 1
}

# Runs delve with the arguments $1... in the pane, stderr to $dir/err, its
# pid in $dir/pid; the shell then prints the exit status, saves the
# terminal's settings and prints $done_marker.
start() {
    rm -f "$dir/pid" "$dir/err" "$dir/stty"
    t send-keys -t busy "clear; sh -c 'echo \$\$ > \"$dir/pid\"; exec \"\$0\" \"\$@\"' '$bin' $* 2> '$dir/err'; echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-\$\$\"" Enter
    done_marker="finished-$(t display -p -t busy '#{pane_pid}')"
}

# Waits up to a second for delve to have exited with status $1 and the
# shell to have its terminal back in cooked mode, on the main screen, with
# the cursor shown.
ends_at_once_with() {
    for _ in $(seq 10); do
        screen | grep -qF "$done_marker" && break
        sleep 0.1
    done
    screen | grep -qF "$done_marker" || fail "delve was still running a second later"
    screen | grep -qF "exit=$1" || fail "delve did not exit with $1"
    for flag in icanon echo; do
        grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty" || fail "the terminal was left without $flag"
    done
    [[ $(t display -p -t busy '#{alternate_on}') == 0 ]] || fail "left on the alternate screen"
    [[ $(t display -p -t busy '#{cursor_flag}') == 1 ]] || fail "left the cursor hidden"
}

t new-session -d -s busy -x 120 -y 40 "env PS1='$ ' sh"

# A long recording: its end is seconds of ticks away.
"$bin" sim "$(dirname "$0")/../levels/dungeon.txt" --ticks 300000 --record "$dir/long.jsonl" >/dev/null

# End, then q while the seek runs: it stops short, and the replay goes on.
start replay "'$dir/long.jsonl'"
wait_for "REPLAY"
t send-keys -t busy End
wait_for "Seeking to the end (250:00) · q or Esc stops here"
t send-keys -t busy q
for _ in $(seq 10); do screen | grep -qF "seek stopped at" && break; sleep 0.1; done
screen | grep -qF "seek stopped at" || fail "q did not stop the seek within a second"
screen | grep -qF "Seeking" && fail "the seek bar stayed after q"
screen | grep -qF "$done_marker" && fail "q during a seek quit the replay"
t send-keys -t busy q
ends_at_once_with 0

# End, then SIGTERM while the seek runs.
start replay "'$dir/long.jsonl'"
wait_for "REPLAY"
t send-keys -t busy End
wait_for "Seeking to the end"
kill -TERM "$(cat "$dir/pid")"
ends_at_once_with 143
[[ $(cat "$dir/err") == "delve: interrupted by SIGTERM" ]] || fail "unexpected message: $(cat "$dir/err")"

# The end screen of a won replay, then Home: back to the start.
start replay "'$(dirname "$0")/replays/dungeon-won.jsonl'"
wait_for "REPLAY"
t send-keys -t busy End
wait_for "You won"
t send-keys -t busy Home
wait_for "jumped to 00:00"
screen | grep -qF "You won" && fail "Home left the end screen up"
t send-keys -t busy q
ends_at_once_with 0

# A level of 2048x2048 cells, a monster in sight of the player: the first
# tick builds HPA*'s abstraction of all of it.
awk 'BEGIN {
    n = 2048; print "name: wide"; print "lives: 9"
    for (y = 0; y < n; y++) {
        row = ""
        for (x = 0; x < n; x++) {
            c = "."
            if (x % 4 == 2 && y % 4 == 2) c = "#"
            if (y == 1 && x == 1) c = "@"
            if (y == 1 && x == 12) c = "M"
            row = row c
        }
        print row
    }
}' >"$dir/wide.txt"

start play "'$dir/wide.txt'" --algo hpa --record "'$dir/busy.jsonl'"
wait_for "tick 0: the monsters plan with hpa"
wait_for "q, Esc or Ctrl-C quits without waiting"
# The frame under the popup is the game's.
screen | grep -qF "wide" || fail "the popup is not over the game's screen"
kill -TERM "$(cat "$dir/pid")"
ends_at_once_with 143
partial=$(sed -n 's/^delve: interrupted by SIGTERM; the recording so far is in \(.*\) (`delve replay .* --verify` checks it)$/\1/p' "$dir/err")
[[ -n $partial && -f $partial ]] || fail "no partial file named in: $(cat "$dir/err")"
"$bin" replay "$partial" --verify | grep -qF "incomplete: no end record" || fail "$partial does not verify as interrupted"
rm -f "$partial"

start play "'$dir/wide.txt'" --algo hpa --record "'$dir/busy.jsonl'"
wait_for "tick 0: the monsters plan with hpa"
t send-keys -t busy q
ends_at_once_with 0
grep -qF "delve: quit while a tick ran; the recording so far is in " "$dir/err" ||
    fail "q did not say where the recording is: $(cat "$dir/err")"

# The lab opening the same level with HPA* in a pane: the popup, and q
# quits at once.
start lab "'$dir/wide.txt'" --algo hpa
wait_for "opening wide: the panes search it"
t send-keys -t busy q
ends_at_once_with 0

echo "tmux_busy: ok"
