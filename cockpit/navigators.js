// The navigators: the default one and each app (docs/apps.md), with their Access (docs/access.md §4).
// An app the caller may not read comes from GetManagedObjects with its Access property only; such a
// navigator, or one that answered AccessDenied, is shown as not readable and not called again.

export const IFACE = "org.navd.Navigator1";
export const ROOT = "/org/navd/Navigator1";
export const APPS = ROOT + "/apps/";

/** The app's name of an object path, "" for the default navigator. */
export function appName(path) {
    return path.startsWith(APPS) ? path.slice(APPS.length) : "";
}

/** Access (`a{sas}`) as text: "change: alice, @shop · read: @monitor", or open to everyone. */
export function accessText(access) {
    const keys = Object.keys(access || {});
    if (keys.length === 0)
        return "open to everyone the bus lets through";
    return keys.map(key => `${key}: ${access[key].length ? access[key].join(", ") : "(root and navd only)"}`).join(" · ");
}

/** Reads the list: [{path, name, access, denied}], the default navigator first. */
export async function readNavigators(client, denied) {
    const [managed] = await client.call(ROOT, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [],
                                        { type: "" });
    const list = [];
    let rootAccess = {};
    try {
        const [value] = await client.call(ROOT, "org.freedesktop.DBus.Properties", "Get", [IFACE, "Access"],
                                          { type: "ss" });
        rootAccess = value.v;
    } catch (ex) {
        // an older navd without Access: shown as open
    }
    list.push({ path: ROOT, name: "default", access: rootAccess, denied: denied.has(ROOT) });
    for (const path of Object.keys(managed).sort()) {
        const props = managed[path][IFACE];
        if (!props || path === ROOT)
            continue;
        const readable = "Revision" in props;
        if (!readable)
            denied.add(path);
        list.push({ path, name: appName(path), access: props.Access ? props.Access.v : {}, denied: denied.has(path) });
    }
    return list;
}

/** Draws the list into `container`; `onSelect(path)` for a readable one. */
export function renderNavigators(container, list, selected, onSelect) {
    const items = list.map(navigator => {
        const item = document.createElement("li");
        item.className = "navd-navigator";
        item.setAttribute("data-navd-navigator", navigator.path);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = navigator.name;
        button.title = navigator.path;
        const access = document.createElement("span");
        access.className = "navd-access";
        access.textContent = accessText(navigator.access);
        item.append(button, access);
        if (navigator.denied) {
            item.setAttribute("data-navd-denied", "");
            item.classList.add("navd-denied");
            button.disabled = true;
            const note = document.createElement("span");
            note.className = "navd-denied-note";
            note.textContent = "not readable by you";
            item.append(note);
        } else {
            button.addEventListener("click", () => onSelect(navigator.path));
        }
        if (navigator.path === selected)
            item.classList.add("navd-selected");
        return item;
    });
    container.replaceChildren(...items);
}
