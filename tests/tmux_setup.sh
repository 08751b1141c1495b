# Sourced by the tests/tmux_*.sh scripts: the binary from $1, `t` for tmux
# on a server of the script's own, and a scratch directory $dir; both go
# away when the script exits.
bin=${1:?usage: $0 PATH/TO/delve}
socket="delve-test-$$"
t() { tmux -L "$socket" "$@"; }
dir=$(mktemp -d)
# Longer than the moment an end screen (and the title screen, back from a
# game) takes no key: END_GUARD in src/ui/app.rs.
end_guard=1.2
# The high-score table goes to the scratch directory, never the user's.
export DELVE_DATA_DIR="$dir/data"
trap 't kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT

# How long a script waits for the pane to show something before it gives
# up: long, because a loaded machine can take that long to start and draw
# delve, and waiting costs nothing when the text comes at once.
wait_secs=${DELVE_TMUX_WAIT:-60}

# Polls the pane (as the script's `screen` prints it) until it shows the
# fixed string $1, for up to $wait_secs; gives up at once if the script's
# $done_marker (the line the shell prints when delve has exited) shows
# first. On giving up, prints the pane.
wait_for() {
    local deadline=$((SECONDS + wait_secs)) shown
    until shown=$(screen) && grep -qF -- "$1" <<<"$shown"; do
        if ((SECONDS >= deadline)) || { [[ -n ${done_marker:-} && $1 != "$done_marker" ]] && grep -qF "$done_marker" <<<"$shown"; }; then
            echo "$(basename "$0" .sh): gave up waiting for '$1'; the pane shows:" >&2
            screen >&2
            exit 1
        fi
        sleep 0.2
    done
}
