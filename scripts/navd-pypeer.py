#!/usr/bin/python3
"""navd-pypeer: the service a user might write instead of navd, for navd-bench to compare with.

dbus-python on a GLib main loop, answering org.navd.Navigator1's Push and Pop with the
contract's reply types and one StackChanged each; no state beyond a revision counter.
Usage: navd-pypeer.py --address ADDR [--name NAME]. Installed nowhere; used by navd-bench.
"""
import argparse
import signal

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "org.navd.Navigator1"


class Peer(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/navd/Navigator1")
        self.revision = 1

    def changed(self, cause, route):
        self.revision += 1
        screen = "#%d" % self.revision
        self.StackChanged(self.revision, cause, "rainbow", [("#1", "red", "root", {}), (screen, route, "push", {})])
        return screen

    @dbus.service.method(INTERFACE, in_signature="sa{sv}", out_signature="ts")
    def Push(self, route, params):
        return self.revision + 1, self.changed("push", route)

    @dbus.service.method(INTERFACE, in_signature="", out_signature="t")
    def Pop(self):
        self.changed("pop", "orange")
        return self.revision

    @dbus.service.signal(INTERFACE, signature="tssa(sssa{sv})")
    def StackChanged(self, revision, cause, tab, path):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True)
    parser.add_argument("--name", default=INTERFACE)
    options = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(options.address)
    name = dbus.service.BusName(options.name, bus, do_not_queue=True)
    peer = Peer(bus)
    loop = GLib.MainLoop()
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, loop.quit)
    loop.run()


if __name__ == "__main__":
    main()
