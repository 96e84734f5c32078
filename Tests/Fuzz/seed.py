#!/usr/bin/env python3
"""Writes the seed inputs of navd's fuzz targets (docs/reliability.md#fuzzing) into OUT/<target>/.

usage: seed.py OUT [RECORDING.json ...] [STATE.sqlite3 ...]

Seeds: the route files of Tests/Fixtures and the YAML blocks of docs/ and man/src/; the recordings given
(made with `navctl export`), their start states and the snapshots and journal rows of the state files given
(written by navd's store); batch files; one D-Bus call body per method with typical arguments; `access:`
lists. `make fuzz-seed` runs it; the corpus checked in is its output merged with libFuzzer's (-merge=1).
"""
import base64, glob, json, os, re, sqlite3, struct, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = sys.argv[1]
given = sys.argv[2:]
seeds = {}

def add(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    seeds.setdefault(target, {})[name] = data

# Route files: the fixtures, and every YAML block of the documentation.
for path in sorted(glob.glob(ROOT + "/Tests/Fixtures/*/*.yaml")) + sorted(glob.glob(ROOT + "/Examples/gtk-view/*.yaml")):
    add("route-file", os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path), open(path, "rb").read())
for path in sorted(glob.glob(ROOT + "/docs/*.md")) + [ROOT + "/README.md"]:
    for index, block in enumerate(re.findall(r"```yaml\n(.*?)```", open(path).read(), re.S)):
        add("route-file", "doc-%s-%d.yaml" % (os.path.basename(path)[:-3], index), block)

# Recordings, their start states; state files' snapshots and journal rows.
for path in given:
    name = os.path.basename(path)
    if path.endswith(".json"):
        text = open(path, "rb").read()
        add("recording", name, text)
        add("json", name, text)
        document = json.loads(text)
        add("snapshot", name + ".start", base64.b64decode(document["start"]["state"]))
    else:
        db = sqlite3.connect(path)
        for (document,) in db.execute("select document from snapshot"):
            add("snapshot", name + ".snapshot", document)
        # Schema 4: the kept steps written beside the snapshot, one segment per snapshot (the same format).
        if db.execute("select 1 from sqlite_master where name = 'history_segment'").fetchone():
            for newest, document in db.execute("select newest, document from history_segment"):
                add("snapshot", "%s.segment.%d" % (name, newest), document)
        for revision, payload in db.execute("select revision, payload from journal"):
            add("journal", "%s.%d" % (name, revision), payload)

# Batch files (navctl apply) and JSON.
batches = {
    "ops.json": '[{"op": "push", "route": "detail", "params": {"id": 3, "zoom": 1.5, "pinned": true}}, {"op": "pop"}]',
    "object.json": '{"ops": [{"op": "push", "route": "red"}], "expect": 0}',
    "screens.json": '[{"op": "setstack", "screens": ["home", {"route": "list", "params": {"filter": "a", "page": 2}}]}]',
    "every.json": json.dumps({"expect": 7, "ops": [
        {"op": "present", "route": "editor", "params": {"id": 4}, "style": "sheet"}, {"op": "dismiss"},
        {"op": "dismissall"}, {"op": "back"}, {"op": "popto", "target": "#1"}, {"op": "poptoroot"},
        {"op": "replace", "route": "list"}, {"op": "selecttab", "tab": "cart"}, {"op": "open", "target": "/items/3"},
        {"op": "send", "event": "buy", "source": "#2", "params": {"order": 7}}, {"op": "start", "flow": "checkout"},
        {"op": "finish", "output": "paid", "params": {"receipt": "r"}},
        {"op": "setfacts", "facts": {"signed-in": True, "count": 2, "name": "x", "ratio": 0.5}},
        {"op": "revert", "revision": 3}]}),
}
for name, text in batches.items():
    add("batch", name, text)
    add("json", "batch-" + name, text)
for index, text in enumerate(['{"a": [1, -2, 3.5e10, true, false, null, "\\u00e9\\ud83d\\ude00\\n"]}', "[]", '"\\u0000"',
                              "18446744073709551615", "-9223372036854775808", "1e400", '{"a":{"a":{"a":[[[]]]}}}']):
    add("json", "value-%d.json" % index, text)

# D-Bus call bodies: the first byte is the method (NavigatorMethod's order), the rest its body, little-endian.
class Body:
    def __init__(self): self.b = bytearray()
    def align(self, n): self.b += b"\0" * (-len(self.b) % n)
    def s(self, text, sig=False):
        data = text.encode()
        if sig: self.b += bytes([len(data)]) + data + b"\0"
        else: self.align(4); self.b += struct.pack("<I", len(data)) + data + b"\0"
    def u(self, v): self.align(4); self.b += struct.pack("<I", v)
    def t(self, v): self.align(8); self.b += struct.pack("<Q", v)
    def array(self, align, write):
        self.align(4); at = len(self.b); self.b += b"\0\0\0\0"; self.align(align); start = len(self.b)
        write(); struct.pack_into("<I", self.b, at, len(self.b) - start)
    def params(self, items):
        def entries():
            for key, (sig, value) in items:
                self.align(8); self.s(key); self.s(sig, sig=True)
                {"s": self.s, "u": self.u, "t": self.t, "b": lambda v: self.u(1 if v else 0),
                 "x": lambda v: self.t(v & 0xFFFFFFFFFFFFFFFF), "d": lambda v: (self.align(8), self.b.extend(struct.pack("<d", v))),
                 "i": lambda v: self.u(v & 0xFFFFFFFF)}[sig](value)
        self.array(8, entries)
    def screens(self, items):
        def structs():
            for route, params in items:
                self.align(8); self.s(route); self.params(params)
        self.array(8, structs)

methods = ["Push", "Pop", "PopTo", "PopToRoot", "Replace", "SetStack", "Present", "Dismiss", "DismissAll", "Back",
           "SelectTab", "Open", "Apply", "Undo", "Redo", "GetState", "GetTree", "GetRoutes", "History", "Send", "Start",
           "Finish", "SetFacts", "GetFlows", "GetEvents", "Resolve", "Reload", "GetEventParams", "GetTreeAt", "Revert",
           "GetChanges", "Export", "GetLimits"]
params = [("id", ("x", 3)), ("zoom", ("d", 1.5)), ("pinned", ("b", True)), ("name", ("s", "x"))]
calls = {
    "Push": lambda b: (b.s("detail"), b.params(params)), "PopTo": lambda b: b.s("#1"),
    "Replace": lambda b: (b.s("list"), b.params([("page", ("x", 2))])),
    "SetStack": lambda b: b.screens([("home", []), ("detail", params)]),
    "Present": lambda b: (b.s("editor"), b.params([("id", ("x", 4))]), b.s("sheet")),
    "SelectTab": lambda b: b.s("cart"), "Open": lambda b: b.s("/items/3"),
    "Apply": lambda b: (b.screens([("push", [("route", ("s", "detail"))]), ("pop", []), ("revert", [("revision", ("t", 3))])]), b.t(5)),
    "History": lambda b: b.u(10), "Send": lambda b: (b.s("#2"), b.s("buy"), b.params([("order", ("x", 7))]), b.t(0)),
    "Start": lambda b: (b.s("checkout"), b.params([("order", ("i", 7))])),
    "Finish": lambda b: (b.s("paid"), b.params([("receipt", ("s", "r"))])),
    "SetFacts": lambda b: b.params([("member", ("b", False))]), "GetEvents": lambda b: b.s(""),
    "Resolve": lambda b: (b.s("event"), b.s("buy"), b.params([])), "GetEventParams": lambda b: b.s("#1"),
    "GetTreeAt": lambda b: b.t(3), "Revert": lambda b: (b.t(2), b.t(0)), "GetChanges": lambda b: (b.t(0), b.u(100)),
    "Export": lambda b: (b.t(0), b.u(1)),
}
for index, method in enumerate(methods):
    body = Body()
    if method in calls: calls[method](body)
    add("dbus-call", method, bytes([index]) + bytes(body.b))

# access: lists, as the value of a route file's access: key.
for index, text in enumerate([' { change: [alice, "@shop"], read: ["@shop", "@monitor"] }', "\n  change: [1001, \"@2000\"]\n",
                              " { change: [] , read: [] }", "\n  change:\n    - root\n    - \"@navd\"\n  read: [bob]\n",
                              ' { change: ["a&b", "@<x>"], read: ["q\\"uote"] }']):
    add("bus-policy", "access-%d.yaml" % index, text)

for target, files in seeds.items():
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        open(os.path.join(folder, name), "wb").write(data)
    print(target, len(files))
