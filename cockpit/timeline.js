// The timeline: the kept changes GetChanges lists (docs/devtools.md §3), newest first, each as text.

/** `command(uid)` when the bus told who called, else the method, or `navd` for a reconcile. */
export function callerText(method, details) {
    const command = details.command ? details.command.v : "";
    const uid = details.uid ? details.uid.v : null;
    if (command && uid !== null)
        return `${command}(${uid})`;
    if (command)
        return command;
    if (uid !== null)
        return `uid ${uid}`;
    return method || "navd";
}

function span(className, text) {
    const el = document.createElement("span");
    el.className = className;
    el.textContent = text;
    return el;
}

function timeText(microseconds) {
    const date = new Date(microseconds / 1000);
    return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
}

/** One change (revision, cause, time, method, details) as a list entry with its compare box. */
export function changeItem([revision, cause, time, method, details], onShow, onCompare) {
    const item = document.createElement("li");
    item.className = "navd-change";
    item.setAttribute("data-navd-change", "");
    item.setAttribute("data-revision", String(revision));
    item.setAttribute("data-cause", cause);
    const compare = document.createElement("input");
    compare.type = "checkbox";
    compare.setAttribute("data-navd-compare", "");
    compare.setAttribute("aria-label", `compare revision ${revision}`);
    compare.addEventListener("change", () => onCompare(revision, compare.checked));
    const show = document.createElement("button");
    show.type = "button";
    show.className = "navd-change-show";
    show.textContent = String(revision);
    show.title = `show the tree at revision ${revision}`;
    show.addEventListener("click", () => onShow(revision));
    const tab = details.tab ? details.tab.v : "";
    const top = details.top ? details.top.v : "";
    item.append(compare, show, " ", span("navd-cause", cause), " ", span("navd-time", timeText(time)), " ",
                span("navd-caller", callerText(method, details)), " ",
                span("navd-where", tab ? `${tab}: ${top}` : top));
    return item;
}

/** The timeline of one navigator: entries by revision, the newest first in `list`. */
export class Timeline {
    constructor(list, onShow, onCompare) {
        this.list = list;
        this.onShow = onShow;
        this.onCompare = onCompare;
        this.items = new Map();
        this.newest = 0;
        this.limit = 1000;
        this.generation = 0;  // counts clear(): an answer asked for before one is dropped
    }

    clear() {
        this.generation += 1;
        this.items.clear();
        this.newest = 0;
        this.list.replaceChildren();
    }

    /** Adds GetChanges' answer (oldest first) above the newest shown; keeps at most `limit`. */
    add(changes) {
        const fresh = document.createDocumentFragment();
        for (const change of changes) {
            const revision = change[0];
            if (revision <= this.newest)
                continue;
            const item = changeItem(change, this.onShow, this.onCompare);
            this.items.set(revision, item);
            fresh.prepend(item);
            this.newest = revision;
        }
        this.list.prepend(fresh);
        const revisions = [...this.items.keys()].sort((a, b) => a - b);
        for (const revision of revisions.slice(0, Math.max(0, revisions.length - this.limit))) {
            this.items.get(revision).remove();
            this.items.delete(revision);
        }
    }

    /** Marks the entry whose tree is shown. */
    mark(revision) {
        for (const [key, item] of this.items)
            item.classList.toggle("navd-shown", key === revision);
    }

    uncheck(revision) {
        const box = this.items.get(revision)?.querySelector("input");
        if (box)
            box.checked = false;
    }
}
