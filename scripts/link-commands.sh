#!/usr/bin/env bash
# link-commands.sh DIR — navctl and navwatch as links to navd in DIR: navd is one executable that runs
# the command it is called by (Sources/navd/main.swift). Run by make after a build (in the build's bin
# folder) and by scripts/install.sh (in the installed bin folder). The links are relative symbolic
# links: they stay right wherever DIR is copied or staged (DESTDIR), `ls -l` shows what they are, and
# Debian packages them as they are (lintian wants a link within a folder to be relative). The tests
# make the same links through Products.url (Sources/BusHarness/Products.swift).
set -euo pipefail
dir=$1
for command in navctl navwatch; do
    ln -sfn navd "$dir/$command"
done
