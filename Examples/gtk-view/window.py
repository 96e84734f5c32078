"""The window: draws each state navd announces (tabs, stacks, layers); reports clicks, tab switches and keys."""
from gi.repository import Adw, Gdk, Gtk
from widgets import Layer, ScreenPage, StackView, shown


class NavigatorWindow(Adw.ApplicationWindow):
    def __init__(self, app, name):
        super().__init__(application=app, title=f"navd: {shown(name)}", default_width=720, default_height=480)
        self.report, self.log, self.window = None, None, self  # report: follow.Navigator; log: render_log
        self.layers, self.top, self.tab_views, self.shown_tab = [], None, {}, None
        self.back = Gtk.Button(icon_name="go-previous-symbolic", tooltip_text="Back (Escape)", visible=False)
        self.back.connect("clicked", lambda _: self.report.call("Back"))
        self.tabs = Adw.ViewStack(vexpand=True)
        self.switched = self.tabs.connect("notify::visible-child-name", self._tab_switched)
        self.title = Adw.ViewSwitcherTitle(stack=self.tabs, title=shown(name))
        header = Adw.HeaderBar(title_widget=self.title)
        header.pack_start(self.back)
        main = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        main.append(header)
        main.append(self.tabs)
        self.content = Gtk.Stack()
        self.content.add_named(main, "app")
        self.content.add_named(Adw.StatusPage(icon_name="network-offline-symbolic", title="navd is not running",
                                              description="Waiting for org.navd.Navigator1 to come back"), "gone")
        self.overlay = Gtk.Overlay(child=self.content)  # covers go over everything, the header too
        self.toasts = Adw.ToastOverlay(child=self.overlay)
        self.set_content(self.toasts)
        self.listen(self)

    def listen(self, window):
        """Escape sends Back; key N clicks the top screen's Nth event button (a focused entry keeps its keys)."""
        keys = Gtk.EventControllerKey()
        keys.connect("key-pressed", self._key)
        window.add_controller(keys)

    def _key(self, _controller, keyval, _keycode, _modifiers):
        number = keyval - Gdk.KEY_1
        if keyval == Gdk.KEY_Escape:
            self.report.call("Back")
        elif self.top and 0 <= number < len(self.top.buttons):
            self.top.buttons[number].emit("clicked")
        else:
            return False
        return True

    def _tab_switched(self, *_):
        """The switcher was clicked: show navd's tab again, and ask navd for the chosen one."""
        chosen = self.tabs.get_visible_child_name()
        self._select(self.shown_tab)
        self.report.call("SelectTab", "(s)", chosen)

    def _select(self, name):
        with self.tabs.handler_block(self.switched):
            self.tabs.set_visible_child_name(name)

    def show_state(self, state):
        """Draws one state: the selected tab's stack, each layer over it, the top screen's events."""
        routes, flows = state["routes"], {first: flow for _id, flow, first, _params in state["flows"]}
        last = max([r["index"] for r in routes.values() if isinstance(r.get("index"), int)], default=0)
        make = lambda entry: ScreenPage(entry, routes.get(entry[1], {}), last, flows.get(entry[0]), self)  # noqa
        stacks = [("root", [])]
        for entry in state["path"]:  # a sheet or cover screen begins a layer's stack
            stacks += [(entry[2], [])] if entry[2] in ("sheet", "cover") else []
            stacks[-1][1].append(entry)
        if list(state["tabs"] or [""]) != list(self.tab_views):  # an app without tabs: one page, ""
            with self.tabs.handler_block(self.switched):
                for view in self.tab_views.values():
                    self.tabs.remove(view)
                self.tab_views = {name: StackView() for name in state["tabs"] or [""]}
                for name, view in self.tab_views.items():
                    self.tabs.add_titled_with_icon(view, name, shown(name).capitalize(), "view-paged-symbolic")
            self.title.set_view_switcher_enabled(bool(state["tabs"]))
        self.shown_tab = state["tab"]
        self.tab_views[self.shown_tab].show_screens(stacks[0][1], make)
        self._select(self.shown_tab)
        self.content.set_visible_child_name("app")
        self.title.set_subtitle(f"revision {state['revision']}")
        self.back.set_visible(len(stacks[0][1]) > 1)
        self._show_layers(stacks[1:], make)
        self._show_events((self.layers[-1].stack if self.layers else self.tab_views[self.shown_tab]), state["events"])

    def _show_layers(self, layers, make):
        """Keeps the layers still there (same root screen), closes the others, opens the new ones."""
        keep = 0
        while keep < min(len(self.layers), len(layers)) and self.layers[keep].root_id == layers[keep][1][0][0]:
            keep += 1
        for layer in reversed(self.layers[keep:]):
            layer.close_layer()
        del self.layers[keep:]
        for style, entries in layers[keep:]:
            self.layers.append(Layer(style, entries[0][0], self.layers[-1] if self.layers else self, self))
        for layer, (_style, entries) in zip(self.layers, layers):
            layer.show_screens(entries, make)

    def _show_events(self, view, events):
        """Only the screen on top offers its events; navd's name gone, none does."""
        if self.top:
            self.top.show_events([])
        self.top = view.get_visible_child() if view else None
        if self.top:
            self.top.show_events(events)
        if self.log:
            self.log.rendered()

    def show_gone(self):
        self._show_layers([], None)
        self.content.set_visible_child_name("gone")
        self._show_events(None, [])

    def toast(self, text):
        """A refusal (navd's message) or a form's complaint; a plain label, so no markup from the bus."""
        message = Gtk.Label(label=shown(text), wrap=True, width_chars=min(len(text), 60), max_width_chars=60)
        self.toasts.add_toast(Adw.Toast(custom_title=message, priority=Adw.ToastPriority.HIGH))
        if self.log:
            self.log.toasted(message.get_label())
