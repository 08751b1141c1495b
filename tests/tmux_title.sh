#!/usr/bin/env bash
# The title screen and the descent in a real terminal. `delve --seed 3
# --record FILE` (options the docs promise a bare `delve` takes) opens the
# title screen with seed 3; d starts the descent at depth 1; q asks (the
# descent ends there), q again says yes; back on the title the descent is
# on the high-score table, which is a file in $DELVE_DATA_DIR; a q pressed
# at once is swallowed (the keys of a game just left never quit delve),
# one pressed after the guard quits with status 0 and the terminal cooked.
# The depth's recording verifies against its generator. Last, a damaged
# table: the title says so, it is kept aside byte for byte, stderr says so
# at exit, and the next descent starts a new table.
#
# Usage: tests/tmux_title.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"
record="$dir/descent.jsonl"
table="$DELVE_DATA_DIR/scores.json"

screen() { t capture-pane -p -t title; }
fail() { echo "tmux_title: $*; the pane shows:" >&2; screen >&2; exit 1; }
done_marker="finished-$$"

t new-session -d -s title -x 120 -y 40 "env PS1='$ ' sh"
t send-keys -t title "'$bin' --seed 3 --record '$record' 2> '$dir/err'; echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-$$\"" Enter
wait_for "New descent  seed 3:"
wait_for "none yet"
# A move key opens nothing.
t send-keys -t title j
sleep 0.3
screen | grep -qF "New descent" || fail "j left the title screen"
t send-keys -t title d
wait_for "maze 3 (depth 1)"
wait_for "lives 3"
t send-keys -t title l
sleep 0.3
t send-keys -t title q
wait_for "Quit? The descent ends here."
t send-keys -t title q
wait_for "Your descent (seed 3): quit at depth 1"
[[ -f $table ]] || fail "no table in $table"
grep -qF '"end": "quit"' "$table" || fail "the table holds: $(cat "$table")"
# Pressed at once, q is swallowed; after the guard it quits.
t send-keys -t title q
sleep 0.3
screen | grep -qF "$done_marker" && fail "q was taken at once on the title screen"
sleep "$end_guard"
t send-keys -t title q
wait_for "$done_marker"
screen | grep -qF "exit=0" || fail "delve did not exit with 0 ($(cat "$dir/err"))"
for flag in icanon echo; do
    grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty" || { echo "tmux_title: the terminal was left without $flag" >&2; exit 1; }
done
grep -qF '"generator":{"style":"maze","seed":3,"depth":1' "$record" || { echo "tmux_title: no generator in the header" >&2; exit 1; }
verdict=$("$bin" replay "$record" --verify) || { echo "tmux_title: the depth does not verify: $verdict" >&2; exit 1; }
grep -q "^ok: " <<<"$verdict" || { echo "tmux_title: unexpected verdict: $verdict" >&2; exit 1; }

# A damaged table: said on the screen and on stderr, kept aside.
printf '{"delve_scores": 1, "scores": [' >"$table"
t send-keys -t title "clear; '$bin' --seed 3 2> '$dir/err'; echo \"again=\$?\"; echo \"aga\"\"in-$$\"" Enter
done_marker="again-$$"
wait_for "was damaged"
wait_for "none yet"
t send-keys -t title q
wait_for "$done_marker"
screen | grep -qF "again=0" || fail "delve did not exit with 0 on a damaged table"
[[ $(cat "$table.damaged") == '{"delve_scores": 1, "scores": [' ]] || { echo "tmux_title: the damaged table was not kept as it was" >&2; exit 1; }
grep -qF "delve: the high-score table $table was damaged" "$dir/err" || { echo "tmux_title: stderr said: $(cat "$dir/err")" >&2; exit 1; }
echo "tmux_title: ok"
