// navd's Cockpit page (docs/cockpit.md): the navigators, the live tree, its events and Back, the
// timeline with show, diff and revert, and export; on the session or the system bus, as the
// logged-in user (never as administrator). Every string from navd goes into the page as text.
import { renderTree, diffTrees } from "./tree.js";
import { Timeline } from "./timeline.js";
import { IFACE, ROOT, appName, readNavigators, renderNavigators } from "./navigators.js";

const cockpit = window.cockpit;
const $ = id => document.getElementById(id);

const page = {
    bus: "session",
    client: null,
    navigators: [],
    denied: new Set(),
    selected: null,
    revision: 0,      // the current revision of the selected navigator
    showing: null,    // a revision picked in the timeline, or null: the current one, followed
    compare: [],      // the (at most two) revisions ticked for a diff
    refreshing: false,
    again: false,
};

const timeline = new Timeline($("changes"), revision => show(revision), (revision, on) => compare(revision, on));

function showError(ex) {
    const box = document.createElement("div");
    box.className = "navd-error";
    box.setAttribute("data-navd-error", "");
    box.setAttribute("role", "alert");
    box.textContent = ex && ex.name ? `${ex.name}: ${ex.message}` : String(ex && ex.message ? ex.message : ex);
    $("errors").replaceChildren(box);
}

function clearErrors() {
    $("errors").replaceChildren();
}

/** A call to the selected navigator's interface; an AccessDenied marks it not readable. */
async function call(path, method, args, type) {
    try {
        return await page.client.call(path, IFACE, method, args, { type });
    } catch (ex) {
        if (ex.name === "org.freedesktop.DBus.Error.AccessDenied" && !page.denied.has(path)) {
            page.denied.add(path);
            loadNavigators();
        }
        throw ex;
    }
}

function setStatus(text) {
    $("status").textContent = text;
}

function readable(path) {
    return path && !page.denied.has(path);
}

/** Reads the selected navigator again; calls made while one runs are folded into one more. */
async function refresh() {
    if (page.refreshing) {
        page.again = true;
        return;
    }
    page.refreshing = true;
    try {
        do {
            page.again = false;
            await refreshOnce();
        } while (page.again);
    } catch (ex) {
        showError(ex);
    } finally {
        page.refreshing = false;
    }
}

async function refreshOnce() {
    const path = page.selected;
    if (!readable(path))
        return;
    // One call after the other, not the three at once: at once, a push took 55-68 ms (p50) to reach the
    // page, one after the other 32 ms (docs/cockpit.md, "Figures").
    const tree = await call(path, "GetTree", [], "");
    const props = await page.client.call(path, "org.freedesktop.DBus.Properties", "GetAll", [IFACE], { type: "s" });
    const events = await call(path, "GetEvents", [""], "s").catch(() => [[]]);
    if (path !== page.selected)
        return;
    const [revision, tab, nodes] = tree;
    page.revision = revision;
    if (page.showing === null) {
        renderTree($("tree"), tab, nodes, true);
        $("showing").textContent = String(revision);
    }
    $("revision").textContent = String(revision);
    renderBack(props[0].BackTarget ? props[0].BackTarget.v : ["", "", ""]);
    renderEvents(events[0]);
    updateRevert();
    const generation = timeline.generation;
    const changes = await call(path, "GetChanges", [timeline.newest + 1, 100000], "tu");
    if (generation !== timeline.generation)
        page.again = true;  // cleared meanwhile (navd restarted): read them all again
    else if (path === page.selected)
        timeline.add(changes[0]);
}

function renderBack([id, route]) {
    const back = $("back");
    back.disabled = id === "";
    back.textContent = id === "" ? "Back" : `Back to ${route}`;
    back.title = id === "" ? "at the root: nothing to go back to" : `Back leaves ${route} (${id}) on top`;
}

function renderEvents(events) {
    // Unchanged buttons stay: one replaced under the pointer would lose its click.
    const key = JSON.stringify(events);
    if (key === page.events)
        return;
    page.events = key;
    const buttons = events.map(([event, scope]) => {
        const button = document.createElement("button");
        button.type = "button";
        button.setAttribute("data-navd-event", event);
        button.textContent = event;
        button.title = `send ${event} (${scope})`;
        button.addEventListener("click", () => act("Send", ["", event, {}, 0], "ssa{sv}t"));
        return button;
    });
    $("events").replaceChildren(...buttons);
}

/** Runs what the user asked for, the last error cleared first; a refusal is shown with its error
 *  name and message, and `failed` (when given) runs after it. */
async function attempt(work, failed) {
    clearErrors();
    try {
        await work();
    } catch (ex) {
        showError(ex);
        if (failed)
            failed();
    }
}

/** A change asked for from the page; the page reads navd again either way. */
async function act(method, args, type) {
    await attempt(() => call(page.selected, method, args, type));
    refresh();
}

function show(revision) {
    return attempt(async () => {
        const [at, tab, nodes] = await call(page.selected, "GetTreeAt", [revision], "t");
        page.showing = at;
        renderTree($("tree"), tab, nodes, true);
        $("showing").textContent = String(at);
        $("live").hidden = false;
        timeline.mark(at);
        updateRevert();
    });
}

function follow() {
    page.showing = null;
    $("live").hidden = true;
    timeline.mark(null);
    hideConfirm();
    updateRevert();
    refresh();
}

async function compare(revision, on) {
    page.compare = page.compare.filter(r => r !== revision);
    if (on)
        page.compare.push(revision);
    while (page.compare.length > 2)
        timeline.uncheck(page.compare.shift());
    const diff = $("diff");
    if (page.compare.length < 2) {
        diff.hidden = true;
        return;
    }
    const [a, b] = [...page.compare].sort((x, y) => x - y);
    try {
        const [treeA, treeB] = await Promise.all([call(page.selected, "GetTreeAt", [a], "t"),
            call(page.selected, "GetTreeAt", [b], "t")]);
        const heading = document.createElement("h3");
        heading.textContent = `From revision ${a} to ${b}`;
        const list = document.createElement("ul");
        list.setAttribute("data-navd-diff", "");
        const lines = diffTrees(treeA, treeB);
        for (const line of lines.length ? lines : ["no difference in screens, tab or facts"]) {
            const item = document.createElement("li");
            item.textContent = line;
            list.append(item);
        }
        diff.replaceChildren(heading, list);
        diff.hidden = false;
    } catch (ex) {
        showError(ex);
    }
}

function updateRevert() {
    $("revert").disabled = page.showing === null || page.showing === page.revision;
}

function hideConfirm() {
    $("confirm").hidden = true;
    page.expected = null;
}

/** Revert asks first; the revision current when it asked is the one navd must still be at. */
function askRevert() {
    page.expected = page.revision;
    page.target = page.showing;
    $("confirm-text").textContent = `Revert ${appName(page.selected) || "the default navigator"} to revision ${page.target}? ` +
        `It is at revision ${page.expected}; if it moves on first, navd refuses (StaleRevision).`;
    $("confirm").hidden = false;
}

function confirmRevert() {
    const [target, expected] = [page.target, page.expected];
    hideConfirm();
    return attempt(async () => {
        await call(page.selected, "Revert", [target, expected], "tt");
        follow();
    }, refresh);
}

function exportRecording(redact) {
    return attempt(async () => {
        const [text] = await call(page.selected, "Export", [0, redact], "tb");
        const recording = JSON.parse(text);
        const changes = recording.changes || [];
        const revision = changes.length ? changes[changes.length - 1].revision : recording.start.revision;
        const link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        link.download = `navd-${appName(page.selected) || "default"}-${revision}.json`;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    });
}

function select(path) {
    page.selected = path;
    page.showing = null;
    page.compare = [];
    page.revision = 0;
    timeline.clear();
    $("diff").hidden = true;
    $("live").hidden = true;
    hideConfirm();
    clearErrors();
    renderNavigators($("navigators"), page.navigators, page.selected, select);
    $("tree").replaceChildren();
    $("revision").textContent = "";
    $("showing").textContent = "";
    $("events").replaceChildren();
    page.events = null;
    renderBack(["", "", ""]);
    refresh();
}

async function loadNavigators() {
    try {
        if (!page.denied.has(ROOT)) {
            try {
                await page.client.call(ROOT, "org.freedesktop.DBus.Properties", "Get", [IFACE, "Revision"], { type: "ss" });
            } catch (ex) {
                if (ex.name === "org.freedesktop.DBus.Error.AccessDenied")
                    page.denied.add(ROOT);
                else
                    throw ex;
            }
        }
        page.navigators = await readNavigators(page.client, page.denied);
        const still = page.navigators.find(n => n.path === page.selected && !n.denied);
        if (!still) {
            const first = page.navigators.find(n => !n.denied);
            select(first ? first.path : null);
        } else {
            renderNavigators($("navigators"), page.navigators, page.selected, select);
        }
    } catch (ex) {
        showError(ex);
    }
}

/** navd (re)appeared: everything is read again, the timeline from the start. */
function resync() {
    const version = page.client;
    loadNavigators().then(() => {
        if (version !== page.client)
            return;
        timeline.clear();
        setStatus(`navd on the ${page.bus} bus`);
        refresh();
    });
}

function connect(bus) {
    if (page.client)
        page.client.close();
    page.bus = bus;
    page.denied.clear();
    page.selected = null;
    $("bus").value = bus;
    $("bus-name").textContent = `${bus} bus`;
    setStatus(`connecting to navd on the ${bus} bus…`);
    const client = cockpit.dbus("org.navd.Navigator1", { bus });
    page.client = client;
    client.addEventListener("owner", (event, owner) => {
        if (client !== page.client)
            return;
        if (owner) {
            resync();
        } else {
            setStatus(`navd is not running on the ${bus} bus: waiting for it`);
            $("status").setAttribute("data-navd-gone", "");
            return;
        }
        $("status").removeAttribute("data-navd-gone");
    });
    client.addEventListener("close", (event, options) => {
        if (client === page.client)
            setStatus(`the ${bus} bus is not reachable: ${options.problem || "closed"}`);
    });
    client.subscribe({ interface: IFACE, member: "StackChanged", path_namespace: ROOT }, (path, iface, signal, args) => {
        if (path !== page.selected)
            return;
        if (args[1] === "start" || args[1] === "restore")
            resync();
        else
            refresh();
    });
    client.subscribe({ interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path_namespace: ROOT },
                     path => { if (path === page.selected) refresh() });
    client.subscribe({ interface: "org.freedesktop.DBus.ObjectManager", path: ROOT }, () => loadNavigators());
    loadNavigators();
}

function busFromLocation() {
    const asked = new URLSearchParams(window.location.search).get("bus") || cockpit.location.options.bus;
    return asked === "system" ? "system" : "session";
}

$("back").addEventListener("click", () => act("Back", [], ""));
$("live").addEventListener("click", follow);
$("revert").addEventListener("click", askRevert);
$("confirm-yes").addEventListener("click", confirmRevert);
$("confirm-no").addEventListener("click", hideConfirm);
$("export").addEventListener("click", () => exportRecording(false));
$("export-redacted").addEventListener("click", () => exportRecording(true));
$("bus").addEventListener("change", () => {
    cockpit.location.go([], { bus: $("bus").value });
    connect($("bus").value);
});
connect(busFromLocation());
