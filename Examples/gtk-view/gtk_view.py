#!/usr/bin/python3
"""navd's GTK view: it draws whatever navd says and only reports what the user did (--help: the options)."""
import argparse
import re
import signal
import sys

import gi

for namespace, version in (("Gtk", "4.0"), ("GdkX11", "4.0"), ("Adw", "1")):
    gi.require_version(namespace, version)
from gi.repository import Adw, Gio, GLib  # noqa: E402
from follow import Navigator  # noqa: E402
from render_log import RenderLog  # noqa: E402
from view import NavigatorWindow  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="A GTK window that renders navd's state and reports events.")
    parser.add_argument("--address", help="the bus at ADDRESS (default: the session bus)")
    parser.add_argument("--app", help="follow the app NAME (default: the default navigator)")
    parser.add_argument("--log-renders", action="store_true", help="print a JSON line per render (for tests)")
    args = parser.parse_args()
    if args.app is not None and not re.fullmatch(r"[A-Za-z0-9_]{1,64}", args.app):
        parser.error(f"the app name {args.app!r} is not 1-64 letters A-Z and a-z, digits and '_'")
    try:
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(args.address, flags, None, None) if args.address \
            else Gio.bus_get_sync(Gio.BusType.SESSION, None)
    except GLib.Error as error:
        sys.exit(f"gtk_view: the bus is not reachable: {error.message}")
    connection.set_exit_on_close(False)
    app = Adw.Application(flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(app):
        window = NavigatorWindow(app, args.app or "navd")
        if args.log_renders:
            RenderLog(window)
        window.report = Navigator(connection, args.app, window.show_state, window.show_gone, window.toast)
        window.present()
        window.report.resync()  # after subscribing: a change made meanwhile is in this state, or signalled

    app.connect("activate", activate)
    connection.connect("closed", lambda *_: app.quit())
    for number in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, app.quit)
    status = app.run([sys.argv[0]])
    return "gtk_view: the bus went away" if connection.is_closed() else status


if __name__ == "__main__":
    sys.exit(main())
