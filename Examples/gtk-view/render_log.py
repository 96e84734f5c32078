"""--log-renders, for tests: one JSON line per render, read back from the window's widgets once painted."""
import json

from gi.repository import GdkX11, Gtk  # noqa: F401 (GdkX11: X11 window ids, for xdotool)


def place(widget):
    """Where a widget's centre is: its window's X11 id and the point in that window."""
    native = widget.get_native()
    x, y = widget.translate_coordinates(native, widget.get_width() / 2, widget.get_height() / 2)
    dx, dy = native.get_surface_transform()
    return {"window": getattr(native.get_surface(), "get_xid", lambda: 0)(), "x": round(x + dx), "y": round(y + dy)}


def toggles(widget):
    """The toggle buttons inside `widget`, in order: the view switcher's, one per tab."""
    found, child = [], widget.get_first_child()
    while child:
        found += [child] if isinstance(child, Gtk.ToggleButton) else toggles(child)
        child = child.get_next_sibling()
    return found


class RenderLog:
    """Hooked into the window: its `rendered` and `toasted` print instead of doing nothing."""

    def __init__(self, window):
        self.window, self.pending = window, False
        window.rendered, window.toasted = self.rendered, self.toasted

    def toasted(self, text):
        print(json.dumps({"toast": text}), flush=True)

    def rendered(self):
        """Prints the line after the next paint of the window on top (several renders before it: one line)."""
        window = self.window.layers[-1].window if self.window.layers else self.window
        clock = window.get_frame_clock()
        if not self.pending and clock:
            def painted(_clock):
                clock.disconnect(handler)
                self.pending = False
                print(json.dumps(self.describe()), flush=True)
            self.pending, handler = True, clock.connect("after-paint", painted)
            window.queue_draw()

    def describe(self):
        w = self.window
        if w.content.get_visible_child_name() == "gone":
            return {"gone": True}
        views = [("root", w.tabs.get_visible_child())] + [(layer.style, layer.stack) for layer in w.layers]
        back = w.layers[-1].back if w.layers else w.back
        tabs = [page.get_name() for page in w.tabs.get_pages()]
        return {"revision": int(w.title.get_subtitle().split()[-1]), "tab": w.tabs.get_visible_child_name(),
                "tabs": {name: place(button) for name, button in zip(tabs, toggles(w.title)) if button.get_mapped()},
                "stacks": [{"style": style, "routes": [page.route for page in view.pages()],
                            "visible": view.get_visible_child().title.get_label()} for style, view in views],
                "flows": [page.flow.get_label() for _, v in views for page in v.pages() if page.flow.get_mapped()],
                "events": [dict(event=button.event, **place(button)) for button in w.top.buttons],
                "fields": {name: place(entry) for name, entry in w.top.fields.items()},
                "back": dict(place(back), tooltip=back.get_tooltip_text(), sensitive=back.get_sensitive()),
                "close": place(w.layers[-1].close) if w.layers else None}
