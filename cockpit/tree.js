// The tree as GetTree and GetTreeAt list it (docs/dbus-api.md "Types", Node): nodes pre-order,
// (id, parent_id, kind, name, params). Drawn with createElement and textContent only: nothing
// navd sends is ever read as HTML.

/** A variant as cockpit.js gives it ({t, v}) as text: strings as they are, the rest as JSON. */
export function variantText(variant) {
    if (variant === null || typeof variant !== "object" || !("v" in variant))
        return String(variant);
    return typeof variant.v === "string" ? variant.v : JSON.stringify(variant.v);
}

/** The params `a{sv}` as `key=value` words, keys in order. */
export function paramsText(params) {
    return Object.keys(params || {}).sort()
        .map(key => `${key}=${variantText(params[key])}`)
        .join(" ");
}

/** Indexes the node list: by id, children by parent, each screen's tab name. */
export function indexTree(nodes) {
    const byId = new Map();
    const children = new Map();
    for (const [id, parent, kind, name, params] of nodes) {
        const node = { id, parent, kind, name, params, tab: "" };
        byId.set(id, node);
        if (!children.has(parent))
            children.set(parent, []);
        children.get(parent).push(node);
    }
    for (const node of byId.values()) {
        const parent = byId.get(node.parent);
        if (node.kind === "tab")
            node.tab = node.name;
        else if (parent)
            node.tab = parent.tab; // pre-order: the parent's tab is known
    }
    return { byId, children };
}

/** The screen on top: the selected tab's stack, then each layer's stack above it. */
export function topScreen(index, tab) {
    const roots = index.children.get("") || [];
    const start = tab ? roots.find(node => node.kind === "tab" && node.name === tab) : null;
    let current = start ? (index.children.get(start.id) || [])[0] : roots.find(node => node.kind !== "tab");
    while (current) {
        const kids = index.children.get(current.id) || [];
        const next = kids.find(node => node.kind === "push") || kids.find(node => node.kind === "sheet" || node.kind === "cover");
        if (!next)
            return current;
        current = next;
    }
    return null;
}

function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className)
        el.className = className;
    if (text !== undefined)
        el.textContent = text;
    return el;
}

/** One screen's entry; `hooks` adds the data-navd-node attributes of the live tree. */
function screenItem(node, top, hooks) {
    const item = element("li", "navd-screen");
    if (hooks) {
        item.setAttribute("data-navd-node", "");
        item.setAttribute("data-id", node.id);
        item.setAttribute("data-route", node.name);
        item.setAttribute("data-tab", node.tab);
        item.setAttribute("data-presentation", node.kind);
        if (node === top)
            item.setAttribute("data-top", "");
    }
    if (node === top)
        item.classList.add("navd-top");
    item.append(element("span", "navd-route", node.name), " ",
                element("span", "navd-id", node.id), " ",
                element("span", "navd-kind", node.kind));
    const params = paramsText(node.params);
    if (params)
        item.append(" ", element("span", "navd-params", params));
    return item;
}

/** The stack starting at `root`: its screens in order, each with the layers it presents. */
function stackList(index, root, top, hooks) {
    const list = element("ol", "navd-stack");
    for (let node = root; node;) {
        const item = screenItem(node, top, hooks);
        const kids = index.children.get(node.id) || [];
        for (const layer of kids.filter(kid => kid.kind === "sheet" || kid.kind === "cover"))
            item.append(stackList(index, layer, top, hooks));
        list.append(item);
        node = kids.find(kid => kid.kind === "push");
    }
    return list;
}

/** Replaces `container`'s content with the tree; returns the top screen's node. */
export function renderTree(container, tab, nodes, hooks) {
    const index = indexTree(nodes);
    const top = topScreen(index, tab);
    const parts = [];
    for (const root of index.children.get("") || []) {
        if (root.kind === "tab") {
            const section = element("section", "navd-tab");
            const heading = element("h3", null, root.name);
            if (root.name === tab) {
                section.classList.add("navd-selected");
                heading.append(element("span", "navd-dim", " (selected)"));
            }
            section.append(heading);
            const first = (index.children.get(root.id) || [])[0];
            if (first)
                section.append(stackList(index, first, top, hooks));
            parts.push(section);
        } else {
            parts.push(stackList(index, root, top, hooks));
        }
    }
    container.replaceChildren(...parts);
    return top;
}

/** What differs from tree `a` to tree `b` (GetTreeAt answers): lines of text, `+`/`-` screens first. */
export function diffTrees(a, b) {
    const [, tabA, nodesA, factsA] = a;
    const [, tabB, nodesB, factsB] = b;
    const screens = nodes => new Map(nodes.filter(n => n[2] !== "tab").map(n => [n[0], n]));
    const before = screens(nodesA);
    const after = screens(nodesB);
    const lines = [];
    for (const [id, node] of after) {
        if (!before.has(id))
            lines.push(`+ ${id} ${node[3]} (${node[2]}) ${paramsText(node[4])}`.trimEnd());
    }
    for (const [id, node] of before) {
        if (!after.has(id))
            lines.push(`- ${id} ${node[3]} (${node[2]}) ${paramsText(node[4])}`.trimEnd());
    }
    if (tabA !== tabB)
        lines.push(`tab: ${tabA} → ${tabB}`);
    const keys = new Set([...Object.keys(factsA || {}), ...Object.keys(factsB || {})]);
    for (const key of [...keys].sort()) {
        const was = factsA && key in factsA ? variantText(factsA[key]) : "(none)";
        const is = factsB && key in factsB ? variantText(factsB[key]) : "(none)";
        if (was !== is)
            lines.push(`fact ${key}: ${was} → ${is}`);
    }
    return lines;
}
