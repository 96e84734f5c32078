#!/usr/bin/python3
"""What the kept revisions cost (NEWS, Performance: the kept revisions; the method in docs/performance.md): the state file and navd's RSS after a
run of changes on 128-screen stacks, with max-history 1,000 and max-undo 100 (route-file limits).

    scripts/kept-state-cost.py [--changes N] [--callers N] NAVD [NAVD...]

Each NAVD (a navd executable; give several to compare builds, e.g. this build and an older one built in a
worktree of its own) runs on a private dbus-daemon of its own with a fresh state directory. The run: each of two
tabs set to 127 screens, then N changes from CALLERS connections in turn: Push/Pop on the selected tab's stack
(so it holds 127 or 128 screens), a Replace every 50th change, a SetStack of 127 new screens every 500th, a
SelectTab every 1,000th. Then it prints, per navd: the state file (database + WAL, after navd stopped and a
TRUNCATE checkpoint), navd's RSS at the end of the run and after a restart (VmRSS and RssAnon, MiB).
Everything started is stopped by pid; the state directories are removed.
"""
import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import dbus

ROUTES = """\
tabs:
  - name: main
    root: home
  - name: other
    root: home
selected-tab: main
routes:
  home: { title: Home }
  a: { title: A }
  b: { title: B }
  c: { title: C }
limits:
  max-path-depth: 200
  max-stack-depth: 200
  max-undo: 100
  max-history: 1000
"""
NAME, PATH, IFACE = "org.navd.Navigator1", "/org/navd/Navigator1", "org.navd.Navigator1"
DEPTH = 127


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                values[key] = int(rest.split()[0]) / 1024
    return values


def start_bus(directory):
    config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "private-bus.conf")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--config-file", config, "--nofork", "--print-address=1", "--nopidfile"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = daemon.stdout.readline().strip()
    if not address:
        daemon.kill()
        sys.exit("dbus-daemon gave no address")
    return daemon, address


def start_navd(executable, address, state, routes, log):
    navd = subprocess.Popen(
        [executable, "--address", address, "--state-dir", state, "--routes", routes],
        stdout=subprocess.DEVNULL, stderr=log)
    connection = dbus.bus.BusConnection(address)
    deadline = time.monotonic() + 60
    while True:
        try:
            connection.call_blocking(NAME, PATH, IFACE, "GetTree", "", [], timeout=5)
            return navd, connection
        except dbus.DBusException:
            if navd.poll() is not None or time.monotonic() > deadline:
                log.flush()
                with open(log.name) as text:
                    sys.exit(f"{executable} did not start: {text.read()[-2000:]}")
            time.sleep(0.05)


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def call(connection, method, signature="", arguments=()):
    return connection.call_blocking(NAME, PATH, IFACE, method, signature, list(arguments), timeout=60)


def set_stack(connection, count, route):
    screens = [("home", {})] + [(route, {})] * (count - 1)
    call(connection, "SetStack", "a(sa{sv})", [dbus.Array(screens, signature="(sa{sv})")])


def run(executable, changes, callers):
    work = tempfile.mkdtemp(prefix="navd-kept-cost-")
    routes = os.path.join(work, "routes.yaml")
    with open(routes, "w") as file:
        file.write(ROUTES)
    state = os.path.join(work, "state")
    os.mkdir(state)
    log = open(os.path.join(work, "navd.log"), "w")
    daemon, address = start_bus(work)
    navd = None
    try:
        navd, first = start_navd(executable, address, state, routes, log)
        connections = [first] + [dbus.bus.BusConnection(address) for _ in range(callers - 1)]
        for tab in ("other", "main"):
            call(first, "SelectTab", "s", [tab])
            set_stack(first, DEPTH, "a")
        depths, tab = {"main": DEPTH, "other": DEPTH}, "main"
        began = time.monotonic()
        for number in range(changes):
            connection = connections[number % callers]
            if number % 1000 == 999:
                tab = "other" if tab == "main" else "main"
                call(connection, "SelectTab", "s", [tab])
            elif number % 500 == 499:
                set_stack(connection, DEPTH, "b")
                depths[tab] = DEPTH
            elif number % 50 == 49:
                call(connection, "Replace", "sa{sv}", ["c", dbus.Dictionary({}, signature="sv")])
            elif depths[tab] == DEPTH:
                call(connection, "Push", "sa{sv}", [("a", "b", "c")[number % 3], dbus.Dictionary({}, signature="sv")])
                depths[tab] += 1
            else:
                call(connection, "Pop")
                depths[tab] -= 1
        seconds = time.monotonic() - began
        after_run = memory(navd.pid)
        stop(navd)
        database = os.path.join(state, "navd.sqlite3")
        checkpoint = sqlite3.connect(database)
        checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        checkpoint.close()
        size = sum(os.path.getsize(database + suffix) for suffix in ("", "-wal") if os.path.exists(database + suffix))
        navd, first = start_navd(executable, address, state, routes, log)
        time.sleep(0.5)
        after_restart = memory(navd.pid)
        return {"changes": changes, "seconds": seconds, "state_bytes": size, "run": after_run, "restart": after_restart}
    finally:
        if navd is not None:
            stop(navd)
        daemon.terminate()
        daemon.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=100_000)
    parser.add_argument("--callers", type=int, default=4)
    parser.add_argument("navd", nargs="+")
    options = parser.parse_args()
    for executable in options.navd:
        result = run(executable, options.changes, options.callers)
        print(
            f"{executable}: {result['changes']} changes in {result['seconds']:.0f} s; "
            f"state file {result['state_bytes'] / 1024:.0f} KiB; "
            f"RSS after the run {result['run']['VmRSS']:.1f} MiB (anon {result['run']['RssAnon']:.1f}), "
            f"after a restart {result['restart']['VmRSS']:.1f} MiB (anon {result['restart']['RssAnon']:.1f})",
            flush=True)


if __name__ == "__main__":
    main()
