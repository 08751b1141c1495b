#!/usr/bin/env bash
# Turn mode in a real terminal (issue 25). `play --turns` on a corridor with
# the goal at its end: the panel says `turn mode` and the tick stands still
# until a key; one step advances the world by 4 ticks, a wait (`s`) by 4
# more; then Shift-run walks to the goal step by step and wins. Then a level with a monster a few cells away: in
# turn mode waits (`.`) let it come, it catches the player twice and the
# game is lost. Both recordings verify headless.
#
# Usage: tests/tmux_turns.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"

screen() { t capture-pane -p -t turns; }
done_marker="won-$$"

printf 'name: hall\n##########\n#@......G#\n##########\n' >"$dir/hall.txt"
t new-session -d -s turns -x 120 -y 40 "env PS1='$ ' sh"
t send-keys -t turns "'$bin' play '$dir/hall.txt' --turns --record '$dir/won.jsonl'; echo \"exit=\$?\"; echo \"w\"\"on-$$\"" Enter
wait_for "World: hall"
wait_for "Tick 0        turn mode"
# Time stands still while the player does nothing.
sleep 0.5
wait_for "Tick 0        turn mode"
t send-keys -t turns l
wait_for "Tick 4        turn mode"
t send-keys -t turns s
wait_for "Tick 8        turn mode"
sleep 0.3
wait_for "Tick 8        turn mode"
t send-keys -t turns L
wait_for "You won: you reached the goal"
# The end screen takes no key for a moment (ui::END_GUARD).
sleep "$end_guard"
t send-keys -t turns q
wait_for "$done_marker"
grep -qF "exit=0" <<<"$(screen)" || { echo "tmux_turns: the won game did not exit with 0:" >&2; screen >&2; exit 1; }

printf 'name: near\nlives: 2\n##########\n#@.....M.#\n##########\n' >"$dir/near.txt"
done_marker="lost-$$"
t send-keys -t turns "clear; '$bin' play '$dir/near.txt' --turns --record '$dir/lost.jsonl'; echo \"exit=\$?\"; echo \"lo\"\"st-$$\"" Enter
wait_for "World: near"
wait_for "turn mode"
for _ in $(seq 1 200); do
    grep -qF "You lost" <<<"$(screen)" && break
    t send-keys -t turns .
    sleep 0.05
done
wait_for "You lost"
sleep "$end_guard"
t send-keys -t turns q
wait_for "$done_marker"
grep -qF "exit=0" <<<"$(screen)" || { echo "tmux_turns: the lost game did not exit with 0:" >&2; screen >&2; exit 1; }

for f in won.jsonl lost.jsonl; do
    "$bin" replay "$dir/$f" --verify | grep -q "^ok: " || { echo "tmux_turns: $f does not verify" >&2; exit 1; }
done
echo "tmux_turns: ok"
