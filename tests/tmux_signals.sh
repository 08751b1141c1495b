#!/usr/bin/env bash
# Signals in a real terminal: tmux runs `delve play --record` in a pane,
# and for each of TERM, INT, HUP and QUIT the script sends the signal once
# the game is drawn, then checks that delve exited with 128 + the signal's
# number, that the shell got its terminal back (cooked mode, main screen,
# cursor shown), that the message names the partial file, and that the
# partial file verifies as an interrupted recording. Then the same for a
# replay played in the terminal, and for the lab.
#
# Usage: tests/tmux_signals.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"

screen() { t capture-pane -p -t sig; }
fail() {
    echo "tmux_signals: $*; the pane shows:" >&2
    screen >&2
    exit 1
}


# Runs delve with the arguments $2... in the pane, sends it signal $1 once
# it has drawn the game, and checks the exit status and the terminal.
# Leaves what delve printed on stderr in $dir/err.
interrupt() {
    local signal=$1 status
    shift
    status=$((128 + $(kill -l "$signal")))
    rm -f "$dir/pid" "$dir/err" "$dir/stty"
    t send-keys -t sig "clear; sh -c 'echo \$\$ > \"$dir/pid\"; exec \"\$0\" \"\$@\"' '$bin' $* 2> '$dir/err'; echo \"exit=\$?\"; stty -a > '$dir/stty'; echo \"fini\"\"shed-$signal\"" Enter
    wait_for "${drawn:-World: dungeon}"
    kill -s "$signal" "$(cat "$dir/pid")"
    wait_for "finished-$signal"
    screen | grep -qF "exit=$status" || fail "SIG$signal: delve did not exit with $status"
    # A flag must stand alone: "-echo" or "-icanon" means it is off.
    for flag in icanon echo; do
        grep -qE "(^|[[:space:];])$flag([[:space:];]|$)" "$dir/stty" ||
            fail "SIG$signal: the terminal was left without $flag: $(cat "$dir/stty")"
    done
    [[ $(t display -p -t sig '#{alternate_on}') == 0 ]] || fail "SIG$signal: left on the alternate screen"
    [[ $(t display -p -t sig '#{cursor_flag}') == 1 ]] || fail "SIG$signal: left the cursor hidden"
}

t new-session -d -s sig -x 120 -y 40 "env PS1='$ ' sh"

for signal in TERM INT HUP QUIT; do
    record="$dir/$signal.jsonl"
    interrupt "$signal" play --seed 3 --record "'$record'"
    err=$(cat "$dir/err")
    partial=$(sed -n 's/^delve: interrupted by SIG[A-Z]*; the recording so far is in \(.*\) (`delve replay .* --verify` checks it)$/\1/p' <<<"$err")
    [[ -n $partial && -f $partial && ! -e $record ]] || fail "SIG$signal: no partial file named in: $err"
    [[ $(tail -c 1 "$partial" | od -An -c | tr -d ' ') == '\n' ]] || fail "SIG$signal: $partial ends in a cut line"
    verdict=$("$bin" replay "$partial" --verify) || fail "SIG$signal: $partial does not verify: $verdict"
    grep -qF "incomplete: no end record (the recording was interrupted)" <<<"$verdict" ||
        fail "SIG$signal: unexpected verdict for $partial: $verdict"
done

# A replay in the terminal: restored too, and nothing to keep.
"$bin" sim --ticks 300 --record "$dir/played.jsonl" >/dev/null
interrupt TERM replay "'$dir/played.jsonl'"
[[ $(cat "$dir/err") == "delve: interrupted by SIGTERM" ]] || fail "replay: unexpected message: $(cat "$dir/err")"

# The lab: restored too.
cp "$(dirname "$0")/../levels/dungeon.txt" "$dir/room.txt"
drawn="1: astar octile fifo 8n"
for signal in TERM INT; do
    interrupt "$signal" lab "'$dir/room.txt'"
    [[ $(cat "$dir/err") == "delve: interrupted by SIG$signal" ]] || fail "lab: unexpected message: $(cat "$dir/err")"
done
echo "tmux_signals: ok"
