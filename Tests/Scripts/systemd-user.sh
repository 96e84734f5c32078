# Shared by activation-test.sh and deb-test.sh (sourced; each defines `fail`).

# wait_for_user_manager WHAT COMMAND… — waits up to 10 s for the systemd --user manager reached by
# running `COMMAND… systemctl --user` to be up (running, or degraded); otherwise fails with
# "WHAT did not come up" and the state it was in.
wait_for_user_manager() {
    local what=$1 state=""
    shift
    for _ in $(seq 100); do
        state=$("$@" systemctl --user is-system-running 2>/dev/null)
        [[ "$state" == running || "$state" == degraded ]] && return 0
        sleep 0.1
    done
    fail "$what did not come up (state: ${state:-none})"
}
