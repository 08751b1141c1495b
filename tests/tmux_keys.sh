#!/usr/bin/env bash
# The keys roguelike players bring (issue 27), in a real terminal. First the
# numpad in live play: tmux sends KP1..KP9 as plain digits (what NumLock
# gives, delve asking for no keypad mode), and Home, PgUp, End, PgDn; each
# steps the player to its place on the pad, as the map shows. With
# --mouse a click travels (tmux passes an xterm mouse report typed into
# the pane through as the terminal's own), `M` turns it off. Ctrl-P opens
# the message history over the game and q closes it. Then Ctrl-Z: the shell
# (bash, with job control) says delve stopped and has its terminal back
# (cooked mode, the main screen, the cursor shown), `fg` brings the game
# back on the alternate screen, drawn, and its keys work; the same for a
# `kill -TSTP` from outside, and for the lab, where a drag draws walls.
#
# Usage: tests/tmux_keys.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"

screen() { t capture-pane -p -t keys; }
fail() {
    echo "tmux_keys: $*; the pane shows:" >&2
    screen >&2
    exit 1
}

# Columns are counted in characters (the borders are multibyte).
export LC_ALL=C.UTF-8

# The row and column (from 1, as a terminal's mouse reports them) of the
# first glyph $1 in the left $2 columns of the top $3 rows.
find_glyph() {
    local glyph=$1 width=$2 rows=$3 row=0 line left
    while IFS= read -r line; do
        row=$((row + 1))
        ((row <= rows)) || break
        left=${line:0:width}
        if [[ $left == *"$glyph"* ]]; then
            left=${left%%"$glyph"*}
            echo "$row $((${#left} + 1))"
            return
        fi
    done < <(screen)
}

# The row and column of the player's `@` on the map.
at() { find_glyph @ 60 36; }

# A mouse event as an xterm reports it (SGR): button code $1 at column $2,
# row $3, pressed or dragged ($4 = M) or released ($4 = m).
mouse() { t send-keys -t keys -l $'\e'"[<$1;$2;$3$4"; }

# Presses tmux key $1 and waits until the `@` has moved by $2 columns and
# $3 rows.
step() {
    local key=$1 dx=$2 dy=$3 before now deadline=$((SECONDS + 10))
    read -r row col <<<"$(at)"
    t send-keys -t keys "$key"
    until read -r now_row now_col <<<"$(at)" && ((now_col == col + dx && now_row == row + dy)); do
        ((SECONDS < deadline)) || fail "$key did not step by $dx,$dy from row $row column $col"
        sleep 0.1
    done
}

# Checks the shell has its terminal as it should: cooked mode (from the
# `stty -a` written to $dir/stty), the main screen, the cursor shown.
restored() {
    for flag in icanon echo; do
        grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty" || fail "$1: the terminal was left without $flag"
    done
    [[ $(t display -p -t keys '#{alternate_on}') == 0 ]] || fail "$1: left on the alternate screen"
    [[ $(t display -p -t keys '#{cursor_flag}') == 1 ]] || fail "$1: left the cursor hidden"
}

# Suspends delve by $2 (`key`: Ctrl-Z; `kill`: SIGTSTP from outside),
# checks the shell's prompt and terminal, then `fg` and waits for $3 on
# the screen again.
suspend() {
    local what=$1 how=$2 back=$3
    if [[ $how == key ]]; then
        t send-keys -t keys C-z
    else
        kill -s TSTP "$(cat "$dir/pid")"
    fi
    wait_for "Stopped"
    rm -f "$dir/stty"
    t send-keys -t keys "stty -a > '$dir/stty'; echo \"sus\"\"pended-$what\"" Enter
    wait_for "suspended-$what"
    restored "$what ($how)"
    t send-keys -t keys "fg" Enter
    wait_for "$back"
    [[ $(t display -p -t keys '#{alternate_on}') == 1 ]] || fail "$what: not back on the alternate screen after fg"
}

# Once delve $1 has quit: its exit status must be 0, and the terminal the
# shell's.
exited() {
    wait_for "$ "
    t send-keys -t keys "echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-$1\"" Enter
    wait_for "finished-$1"
    grep -qF "exit=0" <<<"$(screen)" || fail "$1 did not exit with 0 after its suspensions"
    restored "$1 after quitting"
}

printf 'name: pad\n###########\n#.........#\n#.........#\n#....@....#\n#.........#\n#.........#\n###########\n' >"$dir/pad.txt"
t new-session -d -s keys -x 120 -y 40 "env PS1='$ ' bash --norc --noprofile -i"
# Each program runs alone on its command line: a job stopped in a list
# would let the shell run the rest of the list.
t send-keys -t keys "sh -c 'echo \$\$ > \"$dir/pid\"; exec \"\$0\" \"\$@\"' '$bin' play '$dir/pad.txt' --turns --mouse" Enter
wait_for "World: pad"
wait_for "turn mode"

for move in "KP7 -1 -1" "KP9 1 -1" "KP3 1 1" "KP1 -1 1" "KP8 0 -1" "KP2 0 1" "KP4 -1 0" "KP6 1 0" \
    "Home -1 -1" "PPage 1 -1" "NPage 1 1" "End -1 1"; do
    # shellcheck disable=SC2086
    step $move
done
# The middle key (5 with NumLock) waits: the world's tick moves on by a
# wait's 4, the player not.
sleep 0.3
tick=$(screen | grep -o "Tick [0-9]* *turn mode" | grep -o "[0-9]*")
read -r row col <<<"$(at)"
t send-keys -t keys KP5
wait_for "Tick $((tick + 4)) "
[[ $(at) == "$row $col" ]] || fail "KP5 moved the player"

# The mouse (--mouse): a click three cells west of the player travels
# there; with M it is off, and a click does nothing.
read -r row col <<<"$(at)"
mouse 0 $((col - 3)) "$row" M
mouse 0 $((col - 3)) "$row" m
deadline=$((SECONDS + 10))
until [[ $(at) == "$row $((col - 3))" ]]; do
    ((SECONDS < deadline)) || fail "a click did not travel to row $row column $((col - 3))"
    sleep 0.1
done
t send-keys -t keys M
wait_for "mouse off"
mouse 0 $((col - 1)) "$row" M
mouse 0 $((col - 1)) "$row" m
sleep 0.5
[[ $(at) == "$row $((col - 3))" ]] || fail "a click travelled with the mouse off"

# The message history: the whole log, over the game; q closes it.
t send-keys -t keys C-p
wait_for "Messages: "
wait_for "Esc q ^P close"
t send-keys -t keys q
wait_for "World: pad"
screen | grep -qF "Messages: " && fail "q did not close the history"

# Ctrl-Z, then fg: the game is back and takes keys.
suspend game key "World: pad"
step l 1 0
suspend game kill "World: pad"
step h -1 0
t send-keys -t keys q q
exited game

# The lab: Ctrl-Z, fg, and its keys work (. steps, ? opens its help).
t send-keys -t keys "clear" Enter "'$bin' lab '$dir/pad.txt' --mouse" Enter
wait_for "1: astar octile fifo 8n"
wait_for "step 0/"
suspend lab key "step 0/"
t send-keys -t keys .
wait_for "step 1/"
# A drag from two cells east of the start to four draws three walls.
read -r row col <<<"$(find_glyph S 60 36)"
mouse 0 $((col + 2)) "$row" M
mouse 32 $((col + 3)) "$row" M
mouse 32 $((col + 4)) "$row" M
mouse 0 $((col + 4)) "$row" m
deadline=$((SECONDS + 10))
until line=$(screen | sed -n "${row}p") && [[ ${line:col+1:3} == "###" ]]; do
    ((SECONDS < deadline)) || fail "the drag drew no walls east of the start (row $row)"
    sleep 0.1
done
t send-keys -t keys "?"
wait_for "Lab keys"
# Apart: Escape and q at once read as Alt-q.
t send-keys -t keys Escape
sleep 0.3
t send-keys -t keys q
exited lab
echo "tmux_keys: ok"
