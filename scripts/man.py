#!/usr/bin/env python3
"""navd's man pages: assembled from swift-argument-parser's generated pages and hand-written parts.

  man.py assemble GENERATED_DIR BIN_DIR   the last step of `make man`: writes man/navd.8,
                                          man/navctl.1, man/navwatch.1 and man/navd.routes.5
  man.py check BIN_DIR                    the test: each page is current, lists every option
                                          the binary accepts and renders without a warning

A page is the generated mdoc (NAME, SYNOPSIS, and DESCRIPTION with every option and subcommand,
from `NAME --experimental-dump-help`) followed by the hand-written sections in man/src/ (ENVIRONMENT,
FILES, EXIT STATUS, SEE ALSO, ...); navd(8) also gets its D-Bus interface rendered from
`navd --print-introspection` where man/src/navd.8.mdoc says `.\\" @INTERFACE@`. Each page carries the
fingerprints of what it was made from, so `check` tells a stale page without the generator.
navd.routes(5) has no command: it is man/src/navd.routes.5.mdoc as written, with its fingerprint.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

# Every page: the executable and its manual section (navd is a service: section 8).
PAGES = [("navd", 8), ("navctl", 1), ("navwatch", 1)]
# Pages in the system's shape (OPTIONS once, then COMMANDS: shape_commands), with the most lines each may
# render to at 80 columns (a checked figure).
SHAPED = {"navctl": 700}
# Pages written by hand whole (no command to generate them from).
HAND_WRITTEN = [("navd.routes", 5)]
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTERFACE = "org.navd.Navigator1"


def run(command):
    """The stdout of `command`, which must exit 0."""
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def fingerprint(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def inputs(name, section, bin_dir):
    """What the page named `name` is made from, as (label, text) pairs, in a fixed order."""
    source = (f"man/src/{name}.{section}.mdoc", open(f"{REPOSITORY}/man/src/{name}.{section}.mdoc").read())
    if (name, section) in HAND_WRITTEN:
        return [source]
    made_from = [
        (f"{name} --experimental-dump-help", run([f"{bin_dir}/{name}", "--experimental-dump-help"])),
        (f"man/src/{name}.{section}.mdoc", open(f"{REPOSITORY}/man/src/{name}.{section}.mdoc").read()),
    ]
    if name == "navd":
        made_from.append(("navd --print-introspection", run([f"{bin_dir}/navd", "--print-introspection"])))
    return made_from


def fingerprint_line(made_from):
    return '.\\" Made by make man from: ' + ", ".join(f"{label} {fingerprint(text)}" for label, text in made_from)


def escape_text(line):
    """A line of plain text as roff input: backslashes and non-ASCII escaped, no leading control character."""
    line = line.replace("\\", "\\e")
    line = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in line)
    return "\\&" + line if line.startswith((".", "'")) else line


def help_strings(command):
    """Every abstract and discussion in a dump-help command tree."""
    for key in ("abstract", "discussion"):
        if command.get(key):
            yield command[key]
    for argument in command.get("arguments", []):
        if argument.get("abstract"):
            yield argument["abstract"]
        if argument.get("discussion"):
            yield argument["discussion"]
    for subcommand in command.get("subcommands", []):
        yield from help_strings(subcommand)


def restore_non_ascii(lines, command):
    """The generator drops every non-ASCII character (`…` becomes nothing); put them back, escaped."""
    damaged = {}
    for text in help_strings(command):
        for line in text.split("\n"):
            if any(ord(c) >= 128 for c in line):
                damaged["".join(c for c in line if ord(c) < 128)] = escape_text(line)
    return [damaged.get(line, line) for line in lines]


def drop_help_pseudo_command(lines):
    """For a command with no subcommands of its own, the generator still lists ArgumentParser's `help`
    and writes `subcommand` into the synopsis; drop both."""
    lines = [line for line in lines if line != ".Ar subcommand"]
    start = lines.index(".It Em help")
    depth, end = 0, start + 1
    while True:
        if lines[end].startswith(".Bl"):
            depth += 1
        elif lines[end] == ".El":
            depth -= 1
            if depth == 0:
                break
        end += 1
    return lines[:start] + lines[end + 1:]


def list_items(lines, start):
    """The items of the mdoc list opening at lines[start] (`.Bl`), each as its lines, and the index of its `.El`."""
    items, depth, index = [], 0, start + 1
    while not (depth == 0 and lines[index] == ".El"):
        if depth == 0 and lines[index].startswith(".It "):
            items.append([])
        if lines[index].startswith(".Bl"):
            depth += 1
        elif lines[index] == ".El":
            depth -= 1
        items[-1].append(lines[index])
        index += 1
    return items, index


def usage(argument):
    """An argument of a dump-help command as its synopsis shows it: `Ar route`, `Oo Fl -id Ar id Oc`, ..."""
    if argument["kind"] == "positional":
        word = f"Ar {argument['valueName']}" + (" ..." if argument.get("isRepeating") else "")
    else:
        name = argument["preferredName"]
        word = ("Fl -" if name["kind"] == "long" else "Fl ") + name["name"]
        if argument["kind"] == "option":
            word += f" Ar {argument['valueName']}"
    return f"Oo {word} Oc" if argument.get("isOptional") else word


def option_key(argument):
    return tuple(sorted((name["kind"], name["name"]) for name in argument.get("names", [])))


def item_key(header):
    """The option an `.It` line of the generator's names, as option_key gives it (empty for a positional):
    `.It Fl q , -quiet` → (("long", "quiet"), ("short", "q"))."""
    words = header.split()
    names = [words[i + 1] for i in range(len(words) - 1) if words[i] in ("Fl", ",")]
    return tuple(sorted(("long", n[1:]) if n.startswith("-") else ("short", n) for n in names))


def shape_commands(lines, command):
    """For a command whose subcommands share their options (navctl), the system's own shape in place of the
    generator's (which repeats the shared options under every subcommand): SYNOPSIS `navctl [options]
    command [argument ...]`, DESCRIPTION the command's discussion, and two lists for man/src/'s `@OPTIONS@`
    (the shared options once, and --help) and `@COMMANDS@` (each subcommand with its synopsis, its help
    and a list of its own arguments and options). Returns the lines and the two lists."""
    visible = [sub for sub in command["subcommands"] if sub["commandName"] != "help"]
    keys = [{option_key(a) for a in sub.get("arguments", []) if a["kind"] != "positional"} for sub in visible]
    shared = set.intersection(*keys)
    help_key = (("long", "help"), ("short", "h"))
    synopsis = lines.index(".Sh SYNOPSIS")
    description = lines.index(".Sh DESCRIPTION")
    lines[synopsis + 1:description] = [".Nm", ".Op Ar options", ".Ar command", ".Op Ar argument ..."]
    description = lines.index(".Sh DESCRIPTION")
    start = next(i for i in range(description, len(lines)) if lines[i].startswith(".Bl"))
    items, end = list_items(lines, start)
    by_name = {sub["commandName"]: sub for sub in command["subcommands"]}
    options, commands = [".Bl -tag -width Ds"], [".Bl -tag -width Ds"]
    shared_items = {}
    for item in items:
        if not item[0].startswith(".It Em "):
            options += item  # the command's own --help
            continue
        sub = by_name[item[0][len(".It Em "):]]
        own = [a for a in sub.get("arguments", []) if a["kind"] == "positional" or option_key(a) not in shared | {help_key}]
        commands.append(" ".join([".It Cm " + sub["commandName"]] + [usage(a) for a in own]))
        body = item[1:]
        if ".Bl -tag -width 6n" in body:
            nested = body.index(".Bl -tag -width 6n")
            arguments, _ = list_items(body, nested)
            kept = []
            for argument_item in arguments:
                key = item_key(argument_item[0])
                if key in shared and key != help_key:
                    shared_items.setdefault(key, argument_item)
                elif key not in shared:
                    kept += argument_item
            body = body[:nested] + ([".Bl -tag -width Ds"] + kept + [".El"] if kept else [])
        commands += body
    options[1:1] = [line for key in sorted(shared_items, key=lambda k: list(shared_items).index(k)) for line in shared_items[key]]
    lines[start:end + 1] = []
    return lines, options + [".El"], commands + [".El"]


def render_interface(xml_text):
    """mdoc for the org.navd.Navigator1 interface: methods, signals and properties with their comments."""
    root = ElementTree.fromstring(xml_text)
    found = re.findall(r"<!-- (.*?) -->\s*<(?:method|signal|property) name=\"(\w+)\"", xml_text)
    comments = {member: comment for comment, member in found}
    interface = next(node for node in root.iter("interface") if node.get("name") == INTERFACE)
    out = []

    def arguments(member, direction):
        return [f"{arg.get('type')} {arg.get('name')}" for arg in member.iter("arg")
                if arg.get("direction", "out" if member.tag == "signal" else "in") == direction]

    for tag, title in (("method", "Methods"), ("signal", "Signals"), ("property", "Properties")):
        members = interface.findall(tag)
        out += [f".Ss {title}", ".Bl -tag -width Ds"]
        for member in members:
            name = member.get("name")
            if tag == "property":
                out.append(f".It Va {name} Pq {member.get('type')}")
            else:
                given = arguments(member, "out" if tag == "signal" else "in")
                out.append(".It Fn " + " ".join([name] + [f'"{a}"' for a in given]))
                answer = arguments(member, "out") if tag == "method" else []
                if answer:
                    out.append(escape_text("Answers " + ", ".join(answer) + "."))
            if name in comments:
                out.append(escape_text(comments[name]))
        out.append(".El")
    return out


def assemble_page(name, section, generated, bin_dir, existing):
    made_from = inputs(name, section, bin_dir)
    command = json.loads(made_from[0][1])["command"]
    lines = generated.rstrip("\n").split("\n")
    lines = restore_non_ascii(lines, command)
    if all(sub["commandName"] == "help" for sub in command.get("subcommands", [])):
        lines = drop_help_pseudo_command(lines)
    lists = {}
    if name in SHAPED:
        lines, lists['.\\" @OPTIONS@'], lists['.\\" @COMMANDS@'] = shape_commands(lines, command)
    # The generic EXIT STATUS (`.Ex -std`) gives way to the hand-written one.
    lines = lines[:lines.index('.Sh "EXIT STATUS"')]
    lines = [f".Dt {name.upper()} {section}" if line.startswith(".Dt ") else line for line in lines]
    # mdoc's one-line description has no closing full stop.
    lines = [re.sub(r'^(\.Nd ".*)\."$', r'\1"', line) for line in lines]
    lines.insert(1, fingerprint_line(made_from))
    # No hyphenation (groff's mdoc register): paths, options and D-Bus names stay whole.
    lines.insert(lines.index(".Os") + 1, ".nr doc-hyphen-flags 0")
    for line in made_from[1][1].rstrip("\n").split("\n"):
        if line == '.\\" @INTERFACE@':
            lines += render_interface(made_from[2][1])
        elif line in lists:
            lines += lists[line]
        else:
            lines.append(line)
    page = "\n".join(lines) + "\n"
    # Keep the date of a page whose text did not change, so `make man` twice changes nothing.
    date = lambda text: re.sub(r"^\.Dd .*$", ".Dd", text, flags=re.M)
    if existing and date(existing) == date(page):
        return existing
    return page


def hand_written_page(name, section):
    """A page written whole in man/src/: its text, with the fingerprint line second as on the others."""
    made_from = inputs(name, section, None)
    lines = made_from[0][1].rstrip("\n").split("\n")
    lines.insert(1, fingerprint_line(made_from))
    return "\n".join(lines) + "\n"


def assemble(generated_dir, bin_dir):
    for name, section in PAGES + HAND_WRITTEN:
        path = f"{REPOSITORY}/man/{name}.{section}"
        existing = open(path).read() if os.path.exists(path) else None
        if (name, section) in HAND_WRITTEN:
            page = hand_written_page(name, section)
        else:
            # The plugin writes into a folder per executable target: navd's own, and man-navctl and
            # man-navwatch, navctl and navwatch on their own for the plugin (Package.swift).
            target = name if name == "navd" else f"man-{name}"
            generated = open(f"{generated_dir}/{target}/{name}.1").read()
            page = assemble_page(name, section, generated, bin_dir, existing)
        if page != existing:
            with open(path, "w") as file:
                file.write(page)
            print(f"man: wrote man/{name}.{section}")
        else:
            print(f"man: man/{name}.{section} unchanged")


def option_names(command, path=()):
    """(where, option) for every option and flag of a dump-help tree, hidden ones included, and every
    subcommand; ArgumentParser's own `help` subcommand left out."""
    for argument in command.get("arguments", []):
        for name in argument.get("names", []):
            if name["kind"] == "long":
                yield " ".join(path), "--" + name["name"]
            elif name["kind"] == "short":
                yield " ".join(path), "-" + name["name"]
    for subcommand in command.get("subcommands", []):
        if subcommand["commandName"] != "help":
            yield " ".join(path), subcommand["commandName"]
            yield from option_names(subcommand, path + (subcommand["commandName"],))


def check(bin_dir):
    problems = []
    for name, section in PAGES + HAND_WRITTEN:
        page_path = f"{REPOSITORY}/man/{name}.{section}"
        relative = f"man/{name}.{section}"
        if not os.path.exists(page_path):
            problems.append(f"{relative} is missing: run `make man`")
            continue
        page = open(page_path).read()
        made_from = inputs(name, section, bin_dir)
        stale = [label for label, text in made_from if f"{label} {fingerprint(text)}" not in page.split("\n")[1]]
        if stale:
            problems.append(f"{relative} is stale ({', '.join(stale)} changed since): run `make man`")
        rendered = subprocess.run(
            ["man", "--warnings", "-l", page_path], capture_output=True, text=True,
            env=dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING=""))
        if rendered.returncode != 0 or rendered.stderr.strip():
            problems.append(f"{relative}: man --warnings -l exited {rendered.returncode}:\n{rendered.stderr.strip()}")
        if (name, section) in HAND_WRITTEN:
            print(f"man: {relative}: {len(rendered.stdout.splitlines())} lines at 80 columns (written by hand)")
            continue
        # Words as rendered, with the line breaks and any hyphenation undone.
        text = re.sub("\u2010\n *", "", rendered.stdout).replace("\u2212", "-")
        words = set(re.findall(r"[\w-]+", text))
        command = json.loads(made_from[0][1])["command"]
        missing = sorted({f"{option} ({where or name})" for where, option in option_names(command) if option not in words})
        if missing:
            problems.append(f"{relative} does not list: {', '.join(missing)}")
        if name in SHAPED and len(rendered.stdout.splitlines()) > SHAPED[name]:
            problems.append(f"{relative} renders in {len(rendered.stdout.splitlines())} lines at 80 columns, over {SHAPED[name]}")
        print(f"man: {relative}: {len(rendered.stdout.splitlines())} lines at 80 columns, "
              f"{len(set(option_names(command)))} options and subcommands checked")
    for problem in problems:
        print(f"FAIL: {problem}")
    print("PASS" if not problems else f"{len(problems)} problems")
    return 0 if not problems else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "assemble":
        assemble(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit(__doc__)
