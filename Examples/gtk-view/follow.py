"""The D-Bus side: a Gio.DBusProxy on one navigator, the follow rules, and the calls that report.

The follow rules mirror the table of the Swift client's update reader (Sources/NavdClient):
  start                                      subscribe (making the proxy does), then GetState
  StackChanged, revision = last + 1          show it
  StackChanged, revision <= last             nothing (already shown)
  StackChanged, revision > last + 1          a signal was missed: GetState, show that
  StackChanged, cause start/restore, or gone navd (re)started: show it, the new baseline
  the name (or our app) goes                 the not-running page, once
  the name (or our app) comes back           wait 500 ms for its start-up signal, else GetState
Reads are synchronous (a local bus answers in a millisecond; the rules stay in order), reports asynchronous.
"""
from gi.repository import Gio, GLib

NAME, PATH = "org.navd.Navigator1", "/org/navd/Navigator1"
READ_TIMEOUT_MS, STARTUP_SIGNAL_WAIT_MS = 5000, 500


class Navigator:
    """Follows one navigator (the default one, or an app's): calls on_state(state), on_gone(), on_refusal(text)."""

    def __init__(self, connection, app, on_state, on_gone, on_refusal):
        self.path = f"{PATH}/apps/{app}" if app else PATH
        self.on_state, self.on_gone, self.on_refusal = on_state, on_gone, on_refusal
        self.last, self.gone, self.timer, self.routes, self.tabs = None, False, 0, None, []
        self.proxy = Gio.DBusProxy.new_sync(
            connection, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None, NAME, self.path, NAME, None)
        self.proxy.connect("g-signal", self._signal)
        self.proxy.connect("notify::g-name-owner", lambda proxy, _: self._owner(proxy.get_name_owner() is not None))
        if app:
            connection.signal_subscribe(NAME, "org.freedesktop.DBus.ObjectManager", None, PATH, None,
                                        Gio.DBusSignalFlags.NONE, self._apps_changed)

    def _read(self, method, signature=None, *args):
        arguments = GLib.Variant(signature, args) if signature else None
        return self.proxy.call_sync(method, arguments, Gio.DBusCallFlags.NONE, READ_TIMEOUT_MS, None).unpack()

    def resync(self):
        """GetState and show it (and read the routes again: a missed signal may have been a reload); else gone."""
        try:
            revision, tab, path = self._read("GetState")
        except GLib.Error:
            return self._owner(False)
        self._show(revision, tab, path, reread=True)

    def _signal(self, _proxy, _sender, signal, params):
        if signal == "StackChanged":  # (FlowFinished comes after a StackChanged that showed the change)
            revision, cause, tab, path = params.unpack()
            if cause in ("start", "restore") or self.last is None or self.gone:
                self._show(revision, tab, path, reread=True)  # a new baseline, maybe a new graph
            elif revision == self.last + 1:
                self._show(revision, tab, path, reread=cause == "reconcile")
            elif revision > self.last + 1:
                self.resync()

    def _apps_changed(self, _connection, _sender, _path, _interface, signal, params):
        if params[0] == self.path:  # an app comes and goes with its route file
            self._owner(signal == "InterfacesAdded")

    def _owner(self, present):
        """The name (or our app) came or went: wait for its start-up signal, or show the gone page once."""
        self._wait(present)
        if not present and not self.gone:
            self.gone = True
            self.on_gone()

    def _wait(self, waiting):
        """Waits for a new navd's start-up StackChanged (which stops the wait), else reads the state itself."""
        if self.timer:
            GLib.source_remove(self.timer)
        self.timer = GLib.timeout_add(STARTUP_SIGNAL_WAIT_MS, self.resync) if waiting else 0

    def _show(self, revision, tab, path, reread=False):
        """Reads what the view draws besides the path (titles, hints, tabs, flows, events, where Back goes), then hands it over."""
        self._wait(False)
        try:
            if reread or self.routes is None or (tab and tab not in self.tabs):
                self.routes = dict(self._read("GetRoutes")[0])
                self.tabs = self._read("org.freedesktop.DBus.Properties.Get", "(ss)", NAME, "Tabs")[0]
            flows = self._read("GetFlows")[0]
            # The events of the screen on top now: if a newer change came meanwhile, its StackChanged comes next.
            events = self._read("GetEventParams", "(s)", "")[0]
            back = self._read("org.freedesktop.DBus.Properties.Get", "(ss)", NAME, "BackTarget")[0]  # ("", "", "") at the root
        except GLib.Error:
            return self._owner(False)
        self.last, self.gone = revision, False
        self.on_state(dict(revision=revision, tab=tab, path=path, tabs=self.tabs, routes=self.routes,
                           flows=flows, events=events, back=back))

    def call(self, method, signature="()", *args):
        """Reports what the user did as the contract's method (Back, Dismiss, SelectTab, Send): navd decides."""
        def done(proxy, result):
            try:
                proxy.call_finish(result)
            except GLib.Error as error:  # "GDBus.Error:org.navd.Navigator1.Error.AtRoot: already at …": navd's words
                self.on_refusal(error.message.split(": ", 1)[-1])
        self.proxy.call(method, GLib.Variant(signature, args), Gio.DBusCallFlags.NONE, -1, None, done)
