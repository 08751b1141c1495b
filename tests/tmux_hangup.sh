#!/usr/bin/env bash
# A closed terminal, as it happens: tmux runs delve in a session of its
# own, the script waits for the screen, then kills the session (which
# closes the terminal under delve, as closing a window or dropping an ssh
# connection does) and checks that delve is gone within a second, that it
# said why on stderr (sent to a file, the terminal being gone), and that a
# recording is kept as an interrupted one that verifies.
#
# Each of play --record, replay and lab runs twice: as the session's own
# process, which the kernel sends SIGHUP when the terminal goes; and under
# a shell that ignores SIGHUP and outlives the terminal, so that delve gets
# no signal at all, only the end of its input (read(0) = 0), and the shell
# can report delve's exit status (129).
#
# Usage: tests/tmux_hangup.sh PATH/TO/delve   (cargo test runs it via tests/tmux.rs)
set -euo pipefail

source "$(dirname "$0")/tmux_setup.sh"

fail() {
    echo "tmux_hangup: $*" >&2
    exit 1
}

# Whether process $1 is still running: there, and not a zombie waiting to
# be reaped.
running() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    [[ $state != Z* ]]
}

# Runs delve with the arguments $3... in tmux session $1; `leader` ($2)
# makes delve the session's process, `ignoring` runs it under a shell that
# ignores SIGHUP and writes its exit status to $dir/$1.status. Waits until
# the pane shows the fixed string in $expect, then kills the session.
# Leaves delve's stderr in $dir/$1.err.
hang_up() {
    local name=$1 how=$2 pid
    shift 2
    rm -f "$dir/$name.pid" "$dir/$name.err" "$dir/$name.status"
    local launch="echo \$\$ > '$dir/$name.pid'; exec '$bin' $* 2> '$dir/$name.err'"
    if [[ $how == leader ]]; then
        t new-session -d -s "$name" -x 120 -y 40 "sh -c \"$launch\""
    else
        t new-session -d -s "$name" -x 120 -y 40 \
            "sh -c 'trap \"\" HUP; sh -c \"$launch\"; echo \$? > \"$dir/$name.status\"'"
    fi
    local deadline=$((SECONDS + wait_secs))
    until t capture-pane -p -t "$name" 2>/dev/null | grep -qF -- "$expect"; do
        ((SECONDS < deadline)) || fail "$name: gave up waiting for '$expect'; the pane shows: $(t capture-pane -p -t "$name")"
        sleep 0.2
    done
    pid=$(cat "$dir/$name.pid")
    t kill-session -t "$name"
    for _ in $(seq 10); do
        running "$pid" || break
        sleep 0.1
    done
    if running "$pid"; then
        ps -o pid,stat,pcpu,args -p "$pid" >&2 || true
        kill -KILL "$pid"
        fail "$name: delve ($how) was still running a second after its terminal closed"
    fi
    if [[ $how == ignoring ]]; then
        for _ in $(seq 20); do [[ -s $dir/$name.status ]] && break; sleep 0.1; done
        [[ $(cat "$dir/$name.status" 2>/dev/null) == 129 ]] ||
            fail "$name: exit status $(cat "$dir/$name.status" 2>/dev/null) after a hangup, not 129; stderr: $(cat "$dir/$name.err")"
    fi
}

# The partial file a stderr line names, which must end in a whole line and
# verify as an interrupted recording.
check_kept() {
    local name=$1 err partial verdict
    err=$(cat "$dir/$name.err")
    partial=$(sed -n 's/^delve: .*; the recording so far is in \(.*\) (`delve replay .* --verify` checks it)$/\1/p' <<<"$err")
    [[ -n $partial && -f $partial ]] || fail "$name: no partial file named in: $err"
    [[ $(tail -c 1 "$partial" | od -An -c | tr -d ' ') == '\n' ]] || fail "$name: $partial ends in a cut line"
    verdict=$("$bin" replay "$partial" --verify) || fail "$name: $partial does not verify: $verdict"
    grep -qF "incomplete: no end record (the recording was interrupted)" <<<"$verdict" ||
        fail "$name: unexpected verdict for $partial: $verdict"
}

# A session that stays, so that the tmux server outlives the ones killed.
t new-session -d -s keep "sleep 600"
"$bin" sim --ticks 300 --record "$dir/played.jsonl" >/dev/null
cp "$(dirname "$0")/../levels/dungeon.txt" "$dir/room.txt"

expect="World: dungeon"
hang_up play-leader leader play --seed 3 --record "'$dir/leader.jsonl'"
check_kept play-leader
grep -qE '^delve: (interrupted by SIGHUP|the terminal hung up); ' "$dir/play-leader.err" ||
    fail "play-leader: unexpected message: $(cat "$dir/play-leader.err")"

hang_up play-eof ignoring play --seed 3 --record "'$dir/eof.jsonl'"
check_kept play-eof
grep -qE '^delve: the terminal hung up; ' "$dir/play-eof.err" ||
    fail "play-eof: unexpected message: $(cat "$dir/play-eof.err")"

expect="REPLAY"
hang_up replay-leader leader replay "'$dir/played.jsonl'"
hang_up replay-eof ignoring replay "'$dir/played.jsonl'"
[[ $(cat "$dir/replay-eof.err") == "delve: the terminal hung up" ]] ||
    fail "replay-eof: unexpected message: $(cat "$dir/replay-eof.err")"

expect="1: astar octile fifo 8n"
hang_up lab-leader leader lab "'$dir/room.txt'"
hang_up lab-eof ignoring lab "'$dir/room.txt'"
[[ $(cat "$dir/lab-eof.err") == "delve: the terminal hung up" ]] ||
    fail "lab-eof: unexpected message: $(cat "$dir/lab-eof.err")"
cmp -s "$dir/room.txt" "$(dirname "$0")/../levels/dungeon.txt" || fail "the lab changed its level without W"

echo "tmux_hangup: ok"
