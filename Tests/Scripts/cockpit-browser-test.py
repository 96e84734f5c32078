#!/usr/bin/python3
"""The Cockpit page (cockpit/, docs/cockpit.md) in headless Chromium, driven by Selenium.

Run by Tests/EndToEndTests/Packaging/CockpitPageTests.swift, which starts the private bus, navd
and cockpit-ws serving the checkout's cockpit/ folder. Each check prints one JSON line
{"check": NAME, "ok": BOOL, "detail": TEXT}; each figure {"figure": NAME, ...}; a failed check
saves a screenshot and the browser's console log under --artifacts and names them in its detail.
To restart navd it prints {"request": "restart"} and waits for the file --artifacts/restarted.
"""
import argparse, json, os, statistics, subprocess, sys, time, traceback
import dbus
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

IFACE = "org.navd.Navigator1"
ROOT = "/org/navd/Navigator1"
HOSTILE = "<img src=x onerror=alert(1)>"

args = None
driver = None
bus = None
failures = 0


def emit(**fields):
    print(json.dumps(fields), flush=True)


def artifacts(name):
    """A screenshot and the console log of the page, saved for a failed check; their paths."""
    base = os.path.join(args.artifacts, name.replace(" ", "-"))
    try:
        driver.save_screenshot(base + ".png")
        with open(base + ".console.log", "w") as log:
            for entry in driver.get_log("browser"):
                log.write(json.dumps(entry) + "\n")
        return f"screenshot {base}.png, console log {base}.console.log"
    except Exception as ex:  # the browser itself may be what failed
        return f"no screenshot ({ex})"


def check(name, ok, detail=""):
    global failures
    if not ok:
        failures += 1
        detail = f"{detail}; {artifacts(name)}"
    emit(check=name, ok=bool(ok), detail=detail)
    return ok


def navigator(app=""):
    return bus.get_object(IFACE, f"{ROOT}/apps/{app}" if app else ROOT)


def call(method, *arguments, app="", signature=None):
    return navigator(app).get_dbus_method(method, IFACE)(*arguments, signature=signature)


def navd_screens(nodes):
    """GetTree's screens as the page's hooks carry them: (id, route, presentation, tab)."""
    tabs = {}
    rows = []
    for node_id, parent, kind, name, _params in nodes:
        if kind == "tab":
            tabs[str(node_id)] = str(name)
            continue
        tabs[str(node_id)] = tabs.get(str(parent), "")
        rows.append((str(node_id), str(name), str(kind), tabs[str(node_id)]))
    return rows


def page_screens():
    return [tuple(row) for row in driver.execute_script(
        "return [...document.querySelectorAll('[data-navd-tree] [data-navd-node]')].map(e => "
        "[e.dataset.id, e.dataset.route, e.dataset.presentation, e.dataset.tab])")]


def text(selector):
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", selector)


def wait_for(what, condition, timeout=15):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except Exception as ex:
            last = ex
        time.sleep(0.02)
    raise AssertionError(f"the page did not show {what} in {timeout} s (last: {last!r})")


WAIT_REVISION = """
const want = arguments[0], done = arguments[arguments.length - 1];
(function look() {
    const revision = document.querySelector('[data-navd-revision]'), showing = document.querySelector('[data-navd-showing]');
    if (revision && showing && revision.textContent === want && showing.textContent === want) done(true);
    else setTimeout(look, 1);
})();
"""


def wait_revision(revision):
    """Waits in the page (no polling round trips) until it shows `revision`, tree and number."""
    driver.execute_async_script(WAIT_REVISION, str(revision))


# Notes, in the page's clock (epoch milliseconds), when each revision was first shown: tree and number.
OBSERVE = """
window.navdShown = {};
const note = () => {
    const revision = document.querySelector('[data-navd-revision]'), showing = document.querySelector('[data-navd-showing]');
    if (revision && showing && revision.textContent === showing.textContent && !(revision.textContent in window.navdShown))
        window.navdShown[revision.textContent] = performance.timeOrigin + performance.now();
};
new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
"""


def shown_after(revision, since):
    """Milliseconds from `since` (time.time()) to the page first showing `revision`."""
    wait_revision(revision)
    return driver.execute_script("return window.navdShown[arguments[0]]", str(revision)) - since * 1000


def navctl(*arguments, app=None):
    command = [args.navctl, "--address", args.address] + (["--app", app] if app else []) + list(arguments)
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"navctl {' '.join(arguments)} failed: {result.stderr}")
    return int(result.stdout.split()[0]) if result.stdout.split() and result.stdout.split()[0].isdigit() else None


def click(selector):
    driver.find_element(By.CSS_SELECTOR, selector).click()


def select_navigator(path):
    click(f'[data-navd-navigator="{path}"] button')
    revision = call("GetState", app=path.rsplit("/", 1)[-1] if "/apps/" in path else "")[0]
    wait_revision(revision)


def run(name, body):
    try:
        body()
    except Exception as ex:
        check(name, False, f"{type(ex).__name__}: {ex}")
        traceback.print_exc(file=sys.stderr)


def tree_equals_get_tree():
    revision, tab, nodes = call("GetTree")
    wait_revision(revision)
    screens = page_screens()
    top = driver.execute_script("const e = document.querySelector('[data-navd-tree] [data-top]'); return e && e.dataset.id")
    state_top = str(call("GetState")[2][-1][0])
    check("tree equals GetTree", screens == navd_screens(nodes) and top == state_top,
          f"page {screens} top {top}; GetTree {navd_screens(nodes)} top {state_top}")


def push_appears():
    revision = navctl("push", "yellow")
    wait_revision(revision)
    top = driver.execute_script("return document.querySelector('[data-navd-tree] [data-top]').dataset.route")
    check("a navctl push appears", top == "yellow", f"top {top} at revision {revision}")


def event_button():
    before = call("GetState")
    wait_for("the event next", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-navd-event="next"]'))
    click('[data-navd-event="next"]')
    after = wait_for("navd's revision to move", lambda: (s := call("GetState")) and s[0] > before[0] and s)
    routes = [str(e[1]) for e in after[2]]
    check("clicking an event button changes navd's state", routes[-1] == "green", f"path after next: {routes}")


def back():
    state = call("GetState")
    wait_revision(state[0])
    label = text("[data-navd-back]")
    click("[data-navd-back]")
    after = wait_for("Back to pop", lambda: (s := call("GetState")) and s[0] > state[0] and s)
    check("Back pops and is labelled with BackTarget",
          [str(e[1]) for e in after[2]] == [str(e[1]) for e in state[2]][:-1] and label == f"Back to {state[2][-2][1]}",
          f"label {label!r}; path {[str(e[1]) for e in after[2]]}")
    revision = navctl("root")
    wait_revision(revision)
    disabled = driver.find_element(By.CSS_SELECTOR, "[data-navd-back]").get_attribute("disabled")
    check("Back is disabled at the root", disabled is not None, f"disabled={disabled!r}")


def change_item(revision):
    return f'[data-navd-change][data-revision="{revision}"]'


def timeline_caller():
    revision = navctl("push", "orange")
    wait_revision(revision)
    entry = wait_for("the push in the timeline", lambda: text(change_item(revision)))
    cause = driver.find_element(By.CSS_SELECTOR, change_item(revision)).get_attribute("data-cause")
    want = f"navctl({os.getuid()})"
    check("the timeline names navctl as the caller", want in entry and cause == "push", f"entry {entry!r}, cause {cause}")


def show_diff_revert():
    # Two more pushes, then show the one before them, compare the two, revert to the first.
    first = navctl("push", "yellow")
    second = navctl("push", "green")
    wait_revision(second)
    click(change_item(first) + " .navd-change-show")
    wait_for("revision shown", lambda: text("[data-navd-showing]") == str(first))
    _, _, nodes, _, _ = call("GetTreeAt", dbus.UInt64(first))
    check("Show draws GetTreeAt's tree", page_screens() == navd_screens(nodes),
          f"page {page_screens()} GetTreeAt {navd_screens(nodes)}")
    click(change_item(first) + " [data-navd-compare]")
    click(change_item(second) + " [data-navd-compare]")
    diff = wait_for("the diff", lambda: text("[data-navd-diff]"))
    green = [n for n in call("GetTree")[2] if str(n[3]) == "green"][-1]
    check("two ticked show a diff", f"+ {green[0]} green" in diff, f"diff {diff!r}")
    click("[data-navd-revert]")
    confirm = wait_for("the confirmation", lambda: driver.find_element(By.CSS_SELECTOR, "[data-navd-confirm]").is_displayed())
    unchanged = call("GetState")[0] == second
    click("[data-navd-confirm]")
    state = wait_for("the revert", lambda: (s := call("GetState")) and s[0] == second + 1 and s)
    cause = call("GetChanges", dbus.UInt64(second + 1), dbus.UInt32(1))[0][1]
    check("Revert asks first, then reverts", confirm and unchanged and cause == "revert"
          and [str(e[1]) for e in state[2]] == ["red", "orange", "yellow"], f"path {[str(e[1]) for e in state[2]]}, cause {cause}")
    # Asked at one revision, confirmed after navd moved on: StaleRevision shown, the page still works.
    wait_revision(state[0])
    click(change_item(first) + " .navd-change-show")
    wait_for("revision shown", lambda: text("[data-navd-showing]") == str(first))
    click("[data-navd-revert]")
    moved = navctl("push", "blue")
    click("[data-navd-confirm]")
    error = wait_for("the refusal", lambda: text("[data-navd-error]"))
    click("#live")
    pushed = navctl("push", "purple")
    wait_revision(pushed)
    check("a StaleRevision is shown, not fatal", error.startswith("org.navd.Navigator1.Error.StaleRevision:")
          and call("GetState")[0] == pushed and moved == pushed - 1, f"error {error!r}")


def export_replays():
    for hook, redacted in (("data-navd-export", False), ("data-navd-export-redacted", True)):
        revision = call("GetState")[0]
        # Chromium holds back a page's second download until the user allows several; a fresh page has none.
        driver.refresh()
        wait_revision(revision)
        click(f"[{hook}]")
        name = f"navd-default-{revision}.json"
        path = os.path.join(args.downloads, name)
        wait_for(f"the download {name}", lambda: os.path.exists(path) and json.load(open(path)))
        recording = json.load(open(path))
        result = subprocess.run([args.navctl, "replay", path], capture_output=True, text=True, timeout=120)
        # Kept under another name: the next download has the same one.
        os.rename(path, os.path.join(args.downloads, f"navd-default-{revision}{'-redacted' if redacted else ''}.checked"))
        check(f"Export {'(redacted) ' if redacted else ''}downloads a recording navctl replay replays",
              recording.get("redacted", False) == redacted and result.returncode == 0 and "all equal" in result.stdout,
              f"file {name}; replay exit {result.returncode}: {result.stdout.strip()} {result.stderr.strip()}")


def hostile_param():
    select_navigator(f"{ROOT}/apps/shop")
    revision = navctl("push", "item", f"name={HOSTILE}", app="shop")
    wait_revision(revision)
    shown = text('[data-navd-tree] [data-top] .navd-params')
    images = driver.execute_script("return document.querySelectorAll('img').length")
    try:
        driver.switch_to.alert
        alerted = True
    except NoAlertPresentException:
        alerted = False
    timeline = text(change_item(revision))
    check("a hostile param is shown as text", shown == f"name={HOSTILE}" and images == 0 and not alerted,
          f"params {shown!r}, img elements {images}, alert {alerted}, timeline {timeline!r}")
    select_navigator(ROOT)


def denied():
    path = f"{ROOT}/apps/locked"
    entry = driver.find_element(By.CSS_SELECTOR, f'[data-navd-navigator="{path}"]')
    check("a navigator the user may not read is shown as not readable",
          entry.get_attribute("data-navd-denied") is not None and "not readable" in entry.text
          and entry.find_element(By.TAG_NAME, "button").get_attribute("disabled") is not None, f"entry {entry.text!r}")


def restart():
    global bus
    emit(request="restart")
    flag = os.path.join(args.artifacts, "restarted")
    wait_for("navd restarted (the test's answer)", lambda: os.path.exists(flag), timeout=60)
    bus = dbus.bus.BusConnection(args.address)
    revision = navctl("push", "teal")
    wait_revision(revision)
    top = driver.execute_script("return document.querySelector('[data-navd-tree] [data-top]').dataset.route")
    gone = driver.execute_script("return document.querySelector('[data-navd-gone]') !== null")
    kept = [int(change[0]) for change in call("GetChanges", dbus.UInt64(0), dbus.UInt32(100000))][::-1]
    listed = wait_for("the whole timeline", lambda: (r := timeline_revisions()) == kept and r, timeout=5) if timeline_revisions() != kept else kept
    check("navd killed and restarted is followed again", top == "teal" and not gone and listed == kept
          and page_screens() == navd_screens(call("GetTree")[2]), f"top {top}, gone marker {gone}, timeline {timeline_revisions()}, kept {kept}")


def timeline_revisions():
    return [int(r) for r in driver.execute_script(
        "return [...document.querySelectorAll('[data-navd-change]')].map(e => e.dataset.revision)")]


def system_bus():
    """The same page on the system bus: cockpit-ws's DBUS_SYSTEM_BUS_ADDRESS is the private bus too."""
    driver.get(args.url + "?bus=system")
    revision, _, nodes = call("GetTree")
    wait_revision(revision)
    named = text("[data-navd-bus]")
    chosen = driver.find_element(By.CSS_SELECTOR, "[data-navd-bus-select]").get_attribute("value")
    check("the page works on the system bus and says so", named == "system bus" and chosen == "system"
          and page_screens() == navd_screens(nodes), f"bus {named!r}, selector {chosen!r}")
    driver.get(args.url)
    wait_revision(revision)
    check("and on the session bus, saying so", text("[data-navd-bus]") == "session bus", f"bus {text('[data-navd-bus]')!r}")


def picture():
    """The page with a sheet, a diff and a refusal, as docs/cockpit.md shows it (artifacts/page.png)."""
    navctl("push", "orange")
    revision = navctl("present", "modal", "--sheet")
    wait_revision(revision)
    click(change_item(revision - 1) + " [data-navd-compare]")
    click(change_item(revision) + " [data-navd-compare]")
    wait_for("the diff", lambda: text("[data-navd-diff]"))
    driver.save_screenshot(os.path.join(args.artifacts, "page.png"))
    wait_revision(navctl("dismiss"))


def figures():
    # Latency: a navctl push returning, to the page showing its revision; 100 changes.
    navctl("root")
    driver.execute_script(OBSERVE)
    times = []
    for i in range(100):
        revision = navctl("push" if i % 2 == 0 else "pop", *(["orange"] if i % 2 == 0 else []))
        times.append(shown_after(revision, time.time()))
    times.sort()
    emit(figure="push to page", p50_ms=round(statistics.median(times), 1), p99_ms=round(times[98], 1), n=len(times))
    # A 1,000-entry timeline: 1,000 changes, then the page loaded afresh until it lists them all.
    for i in range(1000):
        if i % 2 == 0:
            call("Push", "orange", dbus.Dictionary({}, signature="sv"), signature="sa{sv}")
        else:
            call("Pop")
    revision = call("GetState")[0]
    started = time.monotonic()
    driver.refresh()
    wait_for("1,000 entries", lambda: driver.execute_script(
        "return document.querySelectorAll('[data-navd-change]').length") >= 1000, timeout=60)
    emit(figure="1,000-entry timeline", ms=round((time.monotonic() - started) * 1000), entries=driver.execute_script(
        "return document.querySelectorAll('[data-navd-change]').length"))
    wait_revision(revision)
    # A 128-screen stack: SetStack returning, to the page showing all 128.
    screens = dbus.Array([("red", dbus.Dictionary({}, signature="sv"))] + [("orange" if i % 2 else "yellow",
              dbus.Dictionary({}, signature="sv")) for i in range(127)], signature="(sa{sv})")
    driver.execute_script(OBSERVE)
    revision = call("SetStack", screens, signature="a(sa{sv})")
    ms = shown_after(revision, time.time())
    count = driver.execute_script("return document.querySelectorAll('[data-navd-tree] [data-navd-node][data-tab=rainbow]').length")
    emit(figure="128-screen stack", ms=round(ms, 1), screens=count)
    folder = os.path.join(args.repository, "cockpit")
    sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder)) if f.endswith((".js", ".css"))}
    emit(figure="page bytes", js_css_bytes=sum(sizes.values()), files=sizes)


def main():
    global args, driver, bus
    parser = argparse.ArgumentParser()
    for option in ("url", "address", "navctl", "downloads", "artifacts", "repository"):
        parser.add_argument("--" + option, required=True)
    parser.add_argument("--denied", action="store_true", help="the page runs as a user the locked app refuses")
    args = parser.parse_args()
    bus = dbus.bus.BusConnection(args.address)
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": args.downloads,
                                              "download.prompt_for_download": False,
                                              "profile.default_content_setting_values.automatic_downloads": 1})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.chrome.service.Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_script_timeout(15)
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": args.downloads})
        driver.get(args.url)
        run("tree equals GetTree", tree_equals_get_tree)
        run("a navctl push appears", push_appears)
        run("clicking an event button changes navd's state", event_button)
        run("Back", back)
        run("the timeline names navctl as the caller", timeline_caller)
        run("show, diff and revert", show_diff_revert)
        run("export", export_replays)
        run("a hostile param is shown as text", hostile_param)
        if args.denied:
            run("a navigator the user may not read is shown as not readable", denied)
        run("navd killed and restarted is followed again", restart)
        run("the system bus", system_bus)
        run("the picture", picture)
        run("figures", figures)
    finally:
        driver.quit()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
