#!/usr/bin/env bash
# Plays delve in a real terminal: tmux runs the binary in a 120x40 pane,
# recording the session, the script reads the panel with capture-pane,
# presses E and R and checks the settings change (and the log says so),
# walks a few steps, shrinks the window and checks the too-small message,
# quits with q and q again, and checks the shell got its terminal back in cooked
# mode. Then the recording must verify headless, hold the setting changes
# and the moves, and play back in the terminal, where E changes nothing.
# Last, a small level with a monster next to the player: the game plays
# into a catch, the log says so, the second catch loses the game, the end
# screen shows, takes no key for a moment (the guard: a tapped r is
# swallowed), then r retries (recorded beside the first), and q quits
# without a question; the lost session replays to its end screen. Then retries
# whose recording names are taken: each goes to the next free name, and
# says which.
#
# Usage: tests/tmux_play.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"
record="$dir/session.jsonl"

screen() { t capture-pane -p -t play; }

# The line the shell prints when the current delve run has exited; typed
# command lines spell it in two halves so as not to match themselves.
done_marker="finished-$$"


# A plain shell in a fixed-size pane; delve runs in it as a user would run it.
t new-session -d -s play -x 120 -y 40 "env PS1='$ ' sh"
t send-keys -t play "'$bin' play --seed 7 --record '$record'; echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-$$\"" Enter

wait_for "E  Heuristic  octile"
wait_for "R  Repath     timer+threshold"
wait_for "World: dungeon"

wait_for "goal: reach G · lives 2"
t send-keys -t play E
wait_for "E  Heuristic  chebyshev"
wait_for "heuristic: chebyshev"
t send-keys -t play R
wait_for "R  Repath     incremental"
for key in l l j; do
    t send-keys -t play "$key"
    sleep 0.1
done

t resize-window -t play -x 50 -y 15
wait_for "terminal too small (need 60x20, have 50x15)"
t resize-window -t play -x 120 -y 40
wait_for "R  Repath     incremental"

t send-keys -t play q
wait_for "Quit this game?"
t send-keys -t play q
wait_for "$done_marker"
after=$(screen)
grep -qF "exit=0" <<<"$after" || { echo "tmux_play: delve did not exit with 0:" >&2; echo "$after" >&2; exit 1; }
# The settings as the shell saw them after delve, read from a file rather
# than the pane (whose typed command line spells "echo" too). A flag must
# stand alone: "-echo" or "-icanon" means it is off.
for flag in icanon echo; do
    if ! grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty"; then
        echo "tmux_play: the terminal was left without $flag:" >&2
        cat "$dir/stty" >&2
        exit 1
    fi
done
# What was played verifies headless...
verdict=$("$bin" replay "$record" --verify) || { echo "tmux_play: the recording does not verify: $verdict" >&2; exit 1; }
grep -q "^ok: " <<<"$verdict" || { echo "tmux_play: unexpected verdict: $verdict" >&2; exit 1; }
grep -q '"setting":"heuristic","value":"chebyshev"' "$record" || { echo "tmux_play: E was not recorded" >&2; exit 1; }
grep -qF '"cmd":"move"' "$record" || { echo "tmux_play: no move was recorded" >&2; exit 1; }

# ...and plays back in the terminal, where world keys are ignored.
t send-keys -t play "clear; '$bin' replay '$record' --speed 8; echo \"replayed=\$?\"; echo \"re\"\"played-$$\"" Enter
done_marker="replayed-$$"
wait_for "REPLAY"
wait_for "E  Heuristic  chebyshev"
# E must change nothing here. Keys are read in order, so once O has turned
# the paths overlay on, E has been handled and a frame drawn since.
t send-keys -t play E
t send-keys -t play O
wait_for "paths overlay"
grep -qF "E  Heuristic  chebyshev" <<<"$(screen)" || { echo "tmux_play: E changed the heuristic in replay:" >&2; screen >&2; exit 1; }
# A replay quits without a question.
t send-keys -t play q
wait_for "$done_marker"
grep -qF "replayed=0" <<<"$(screen)" || { echo "tmux_play: the replay did not exit with 0:" >&2; screen >&2; exit 1; }

# Caught: a monster three cells away sees the player, who stands still.
cat >"$dir/trap.txt" <<'LEVEL'
name: trap
description: A corridor with a monster in it.
lives: 2
##########
#@...M..G#
##########
LEVEL
t send-keys -t play "clear; '$bin' play '$dir/trap.txt' --record '$dir/trap.jsonl'; echo \"trapped=\$?\"; echo \"tra\"\"pped-$$\"" Enter
done_marker="trapped-$$"
wait_for "World: trap"
wait_for "M 1 caught you: 1 life left"
wait_for "M 1 caught you: no lives left"
wait_for "You lost"
# Pressed at once, r is swallowed by the end screen's guard...
t send-keys -t play r
sleep 0.3
grep -qF "goal: reach G · lives 2" <<<"$(screen)" && { echo "tmux_play: r was taken during the guard" >&2; exit 1; }
# ...and taken once the guard (1 s) is over.
sleep "$end_guard"
t send-keys -t play r
wait_for "goal: reach G · lives 2"
t send-keys -t play q
wait_for "Quit this game?"
# A move key plays on (y was the old confirmation).
t send-keys -t play y
sleep 0.3
grep -qF "$done_marker" <<<"$(screen)" && { echo "tmux_play: y did not keep the game going" >&2; exit 1; }
wait_for "You lost"
sleep "$end_guard"
t send-keys -t play q
wait_for "$done_marker"
grep -qF "trapped=0" <<<"$(screen)" || { echo "tmux_play: the trap level did not exit with 0:" >&2; screen >&2; exit 1; }
# Both sessions were recorded (the retry beside the first), verify, and
# the lost one replays to its end screen, where q quits.
for f in trap.jsonl trap-2.jsonl; do
    "$bin" replay "$dir/$f" --verify | grep -q "^ok: " || { echo "tmux_play: $f does not verify" >&2; exit 1; }
done
t send-keys -t play "clear; '$bin' replay '$dir/trap.jsonl' --speed 8; echo \"re\"\"trapped-$$\"" Enter
done_marker="retrapped-$$"
wait_for "You lost: caught with no life left"
wait_for "q quit"
t send-keys -t play q
wait_for "$done_marker"

# Retries whose names are taken: the second session's FILE-2 holds
# something precious, so it is recorded to FILE-3 (and the third to
# FILE-4), the log and stderr saying so; FILE-2 is left alone.
printf 'name: quick\nlives: 1\n@M......\n........\n' >"$dir/quick.txt"
echo precious >"$dir/taken-2.jsonl"
t send-keys -t play "clear; '$bin' play '$dir/quick.txt' --record '$dir/taken.jsonl' 2> '$dir/taken.err'; echo \"quick=\$?\"; echo \"qui\"\"ck-$$\"" Enter
done_marker="quick-$$"
wait_for "You lost"
sleep "$end_guard"
t send-keys -t play r
# (The log wraps the line; stderr has it whole.)
wait_for "this session is recorded to"
wait_for "You lost"
sleep "$end_guard"
t send-keys -t play r
sleep 0.5
wait_for "You lost"
sleep "$end_guard"
t send-keys -t play q
wait_for "$done_marker"
grep -qF "quick=0" <<<"$(screen)" || { echo "tmux_play: the retries did not exit with 0:" >&2; screen >&2; exit 1; }
[[ $(cat "$dir/taken-2.jsonl") == precious ]] || { echo "tmux_play: taken-2.jsonl was overwritten" >&2; exit 1; }
expected="delve: this session is recorded to $dir/taken-3.jsonl ($dir/taken-2.jsonl is taken)"
[[ $(cat "$dir/taken.err") == "$expected" ]] || { echo "tmux_play: stderr said: $(cat "$dir/taken.err")" >&2; exit 1; }
for f in taken.jsonl taken-3.jsonl taken-4.jsonl; do
    "$bin" replay "$dir/$f" --verify | grep -q "^ok: " || { echo "tmux_play: $f does not verify" >&2; exit 1; }
done
echo "tmux_play: ok"
