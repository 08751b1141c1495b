# Sourced by the tests/tmux_*.sh scripts: the binary from $1, `t` for tmux
# on a server of the script's own, and a scratch directory $dir; both go
# away when the script exits.
bin=${1:?usage: $0 PATH/TO/delve}
socket="delve-test-$$"
t() { tmux -L "$socket" "$@"; }
dir=$(mktemp -d)
trap 't kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
