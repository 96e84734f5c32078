"""The widgets: a screen, a stack of screens, a layer, the window. They draw what navd said and never decide."""
import unicodedata

from gi.repository import Adw, Gdk, GLib, Gtk

TYPES = {"string": ("s", str), "int": ("x", int), "double": ("d", float), "bool": ("b", ["false", "true"].index)}


def shown(value):
    """Anything from the bus as text to show: controls and format characters (bidi overrides) escaped, never acting."""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return "".join(f"\\u{{{ord(c):x}}}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)


def label(text, *classes, **properties):
    return Gtk.Label(label=shown(text), css_classes=list(classes), wrap=True, max_width_chars=60, **properties)


def paint(widget, colour):
    """Paints a route's `color` hint, parsed as a colour (never pasted into CSS as it came)."""
    rgba = Gdk.RGBA()
    if isinstance(colour, str) and rgba.parse(colour):
        ink = "black" if 0.299 * rgba.red + 0.587 * rgba.green + 0.114 * rgba.blue > 0.55 else "white"
        css = Gtk.CssProvider()
        css.load_from_data(f"* {{ background: {rgba.to_string()}; color: {ink}; }}".encode())
        widget.get_style_context().add_provider(css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)


class ScreenPage(Gtk.Box):
    """One screen: its route's title and hints, its params, its flow; on top of the path, its events."""

    def __init__(self, entry, route, last_index, flow, window):
        super().__init__(orientation=Gtk.Orientation.VERTICAL)
        self.id, self.route, self.window, self.buttons, self.fields = entry[0], entry[1], window, [], {}
        self.title = label(route.get("title") or entry[1], "title-1")
        self.flow = label(f"flow {flow}", "caption-heading", visible=bool(flow))
        self.events = Gtk.FlowBox(selection_mode=Gtk.SelectionMode.NONE, halign=Gtk.Align.CENTER, margin_top=24)
        body = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, vexpand=True, valign=Gtk.Align.CENTER)
        parts = [self.title, label(f"{entry[1]}  ·  {entry[0]}", "dim-label")]
        parts += [label(f"{key}: {shown(value)}", "title-4") for key, value in sorted(entry[3].items())]
        if isinstance(route.get("index"), int) and last_index:  # how far along the rainbow
            parts.append(label("●" * (route["index"] + 1) + "○" * (last_index - route["index"]), "title-3"))
        for part in parts + [self.flow, self.events]:
            body.append(part)
        self.append(body)
        paint(self, route.get("color"))

    def show_events(self, events):
        """A button per event (key N for the Nth) with an entry per param its handler reads, typed as it says."""
        while self.events.get_first_child():
            self.events.remove(self.events.get_first_child())
        self.buttons, self.fields = [], {}
        self.events.set_min_children_per_line(max(1, min(len(events), 3)))
        for number, (event, _scope, params) in enumerate(events[:9], start=1):
            box, button = Gtk.Box(spacing=4), Gtk.Button(label=f"{number}  {shown(event)}")
            entries = {name: Gtk.Entry(placeholder_text=f"{shown(name)} ({shown(kind)})", width_chars=12)
                       for name, kind in params.items()}
            for name, entry in entries.items():
                entry.connect("activate", lambda _entry, button=button: button.emit("clicked"))
                box.append(entry)
                self.fields[f"{event}.{name}"] = entry
            button.event = event
            button.connect("clicked", lambda _, event=event, params=params, entries=entries:
                           self._send(event, params, entries))
            box.append(button)
            self.events.append(box)
            self.buttons.append(button)

    def _send(self, event, params, entries):
        values = {}
        for name, kind in params.items():
            signature, convert = TYPES.get(kind, TYPES["string"])
            try:
                values[name] = GLib.Variant(signature, convert(entries[name].get_text()))
            except (ValueError, KeyError, OverflowError):  # the event is not sent: navd never sees bad input
                return self.window.toast(f"'{event}' needs {name} as {kind}, not '{entries[name].get_text()}'")
        # From this screen, not "" (the top): a click that arrives after navd moved on is StaleSource.
        self.window.report.call("Send", "(ssa{sv}t)", self.id, event, values, 0)


class StackView(Gtk.Stack):
    """One stack of screens as pages: a push slides in from the right, a pop back from the left."""

    def __init__(self):
        super().__init__(hexpand=True, vexpand=True)
        self.ids = []
        self.connect("notify::transition-running", lambda *_: self._prune())

    def pages(self):
        return [page.get_child() for page in self.get_pages()]

    def show_screens(self, entries, make_page):
        for entry in entries:
            if self.get_child_by_name(entry[0]) is None:
                self.add_named(make_page(entry), entry[0])
        grown, T = len(entries) - len(self.ids), Gtk.StackTransitionType
        self.set_transition_type(T.NONE if not self.ids else T.SLIDE_LEFT if grown > 0 else
                                 T.SLIDE_RIGHT if grown < 0 else T.CROSSFADE)
        self.ids = [entry[0] for entry in entries]
        self.set_visible_child_name(self.ids[-1])
        self._prune()

    def _prune(self):
        """Removes the pages of screens that left, once they have slid out."""
        for page in self.pages() if not self.get_transition_running() else []:
            if page.id not in self.ids:
                self.remove(page)


class Layer(Gtk.Box):
    """A presented layer: a sheet (a modal window of its own) or a cover (over the whole window below)."""

    def __init__(self, style, root_id, host, view):
        super().__init__(orientation=Gtk.Orientation.VERTICAL, css_classes=["background"])
        self.style, self.root_id, self.stack = style, root_id, StackView()
        self.back = Gtk.Button(icon_name="go-previous-symbolic", tooltip_text="Back (Escape)")
        self.back.connect("clicked", lambda _: view.report.call("Back"))
        self.close = Gtk.Button(label="Close")
        self.close.connect("clicked", lambda _: view.report.call("Dismiss"))
        self.heading = Adw.WindowTitle(subtitle=style)
        header = Adw.HeaderBar(show_start_title_buttons=False, show_end_title_buttons=False, title_widget=self.heading)
        header.pack_start(self.back)
        header.pack_end(self.close)
        self.append(header)
        self.append(self.stack)
        if style == "sheet":
            self.overlay = Gtk.Overlay(child=self)
            self.window = Adw.Window(modal=True, transient_for=host.window, default_width=480, default_height=360,
                                     content=self.overlay, title=style)
            self.window.connect("close-request", lambda _: view.report.call("Dismiss") or True)  # navd closes it
            view.listen(self.window)
            self.window.present()
            self.close_layer = self.window.destroy
        else:
            self.overlay, self.window = host.overlay, host.window
            self.overlay.add_overlay(self)
            self.close_layer = lambda: self.overlay.remove_overlay(self)

    def show_screens(self, entries, make_page):
        self.stack.show_screens(entries, make_page)
        self.heading.set_title(self.stack.get_visible_child().title.get_label())


class NavigatorWindow(Adw.ApplicationWindow):
    def __init__(self, app, name):
        super().__init__(application=app, title=f"navd: {shown(name)}", default_width=720, default_height=480)
        self.report, self.window = None, self  # report: follow.Navigator, set once the window exists
        self.rendered = self.toasted = lambda *_: None  # what --log-renders hooks (render_log.py)
        self.layers, self.top, self.tab_views, self.shown_tab = [], None, {}, None
        self.back = Gtk.Button(icon_name="go-previous-symbolic", tooltip_text="Back (Escape)", sensitive=False)
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
        with self.tabs.handler_block(self.switched):
            self.tabs.set_visible_child_name(self.shown_tab)
        self.report.call("SelectTab", "(s)", chosen)

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
        with self.tabs.handler_block(self.switched):
            self.tabs.set_visible_child_name(self.shown_tab)
        self.content.set_visible_child_name("app")
        self.title.set_subtitle(f"revision {state['revision']}")
        self._show_layers(stacks[1:], make)
        self._show_back(state["back"], routes)
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

    def _show_back(self, target, routes):
        """The top stack's back button names the screen Back would leave on top (navd's BackTarget); none: insensitive."""
        top = self.layers[-1].back if self.layers else self.back
        for button in [self.back] + [layer.back for layer in self.layers]:
            button.set_sensitive(button is top and bool(target[0]))
            button.set_tooltip_text("Back (Escape)")
        if target[0]:
            top.set_tooltip_text(f"Back to {shown(routes.get(target[1], {}).get('title') or target[1])} (Escape)")

    def _show_events(self, view, events):
        """Only the screen on top offers its events; navd's name gone, none does."""
        if self.top:
            self.top.show_events([])
        self.top = view.get_visible_child() if view else None
        if self.top:
            self.top.show_events(events)
        self.rendered()

    def show_gone(self):
        self._show_layers([], None)
        self.content.set_visible_child_name("gone")
        self._show_events(None, [])

    def toast(self, text):
        """A refusal (navd's message) or a form's complaint; a plain label, so no markup from the bus."""
        message = Gtk.Label(label=shown(text), wrap=True, width_chars=min(len(text), 60), max_width_chars=60)
        self.toasts.add_toast(Adw.Toast(custom_title=message, priority=Adw.ToastPriority.HIGH))
        self.toasted(message.get_label())
