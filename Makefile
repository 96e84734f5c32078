# navd — build, test, demo, install.
#   make             (make build) a debug build; make release: the release build. As any user: they check
#                    that the build dependencies are there (scripts/deps.sh --check) and install nothing
#   make deps        as root: install every Debian package building, the tests and the demos need
#   make demo        the tour: a private (or session) bus, navd, navwatch following navctl
#   make gtk-demo    the GTK view (Examples/gtk-view) on navd and a private bus; APP=mail: on its app
#   make test        every test that fits in CI (unit, D-Bus, end-to-end, short reliability, bench smoke);
#                    make check is the same. make test and make demo install what is missing when run as root
#                    (scripts/deps.sh), so that they work on a fresh machine
#   make check-long  sanitizers, the long reliability suite and property tests, the package's install test,
#                    make build as a throwaway non-root user (Tests/Scripts/build-as-user-test.sh), make fuzz,
#                    the full benchmark
#   make fuzz        each fuzz target under libFuzzer for FUZZ_SECONDS (default 60); make fuzz-merge folds
#                    what the runs found into the checked-in corpus (Tests/Fuzz/)
#   make install     copies the release build (as a user it runs make release first; as root it needs one)
#                    under PREFIX=/usr/local (default) or PREFIX=~/.local; DESTDIR for staging;
#                    binaries stripped (STRIP= installs them with their debug information)
#   make deb         navd_VERSION_ARCH.deb (debhelper, debian/), checked by lintian
#   make man         remake the committed man pages (man/) after a command line changed

SHELL      := /bin/bash
PREFIX     ?= /usr/local
DESTDIR    ?=
SWIFT      ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# --no-export-dynamic: SwiftPM links executables with --export-dynamic so that tests can link against an
# executable target (NavctlTests and NavwatchTests do, in debug builds); in a release binary it only ships
# every symbol in the dynamic symbol table, about 400 KiB a binary that nothing loads.
# lld with -z pack-relative-relocs (DT_RELR, glibc 2.36 and later): the ~60,000 relative relocations a static
# Swift executable carries for its metadata take 8 KiB instead of 0.98 MiB (gold, the default, has no RELR).
# scripts/static-libstdc++ first on the library path: its libstdc++.so is a linker script naming libstdc++.a, so
# the C++ runtime that Swift's runtime needs is linked in (about 70 KB) and not loaded and bound at each start.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xlinker --no-export-dynamic \
                 -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
                 -Xlinker -L$(CURDIR)/scripts/static-libstdc++
BINARIES   := navd navctl navwatch

.PHONY: all deps build-deps build release test check demo gtk-demo install uninstall bench bench-smoke reliability properties check-long clean man deb deb-test fuzz fuzz-merge

all: build

deps:
	@bash scripts/deps.sh

# What building needs, checked, never installed: a user with the build dependencies can build.
build-deps:
	@SWIFT="$(SWIFT)" bash scripts/deps.sh --check

# navctl and navwatch are links to navd in the build's folder, as installed (scripts/link-commands.sh).
build: build-deps
	$(SWIFT) build
	@bash scripts/link-commands.sh "$$($(SWIFT) build --show-bin-path)"

release: build-deps
	$(SWIFT) build $(RELEASE_FLAGS)
	@bash scripts/link-commands.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"

# Tests run one at a time (--no-parallel): most of them wait on real processes and buses, and
# Swift Testing runs test bodies on the cooperative pool, one thread per core. On two cores two
# waiting tests leave no thread for the rest, whose time limits then run out while they queue.
# Serially the suite takes about 3 minutes here and no test waits for a thread.
TEST_FLAGS := --skip-build --disable-xctest --no-parallel

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test $(TEST_FLAGS)

check: test

demo: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product navd
	@bash scripts/link-commands.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"
	@bash scripts/demo.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"

gtk-demo: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product navd
	@bash scripts/link-commands.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"
	@bash scripts/gtk-demo.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" "$(APP)"

# Only copies: run by root (sudo make install) it builds nothing and installs no package, and needs
# the release build made before as a user; run by a user it brings that build up to date first.
install:
	@if [ "$$(id -u)" != 0 ]; then $(MAKE) --no-print-directory release; \
	elif [ ! -x "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/navd" ]; then \
	  echo "make install: no release build to install; run make release as your user first" >&2; exit 1; fi
	@$(if $(filter undefined,$(origin STRIP)),,STRIP="$(STRIP)") bash scripts/install.sh install "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" "$(PREFIX)" "$(DESTDIR)"

uninstall:
	@bash scripts/install.sh uninstall "" "$(PREFIX)" "$(DESTDIR)"

# The man pages are committed (man/navd.8, navctl.1, navwatch.1), so that neither `make test`, nor
# `make install`, nor `make deb` runs the generator: swift-argument-parser's generate-manual
# plugin (which builds its tool and every product) writes each command's options, and
# scripts/man.py adds the hand-written sections of man/src/. A test fails when a page is stale.
man: build
	$(SWIFT) package generate-manual --configuration debug --date "$$(date +%F)"
	python3 scripts/man.py assemble .build/plugins/GenerateManual/outputs "$$($(SWIFT) build --show-bin-path)"

# The package: debhelper around `make install PREFIX=/usr` (scripts/deb.sh says why), written to
# the top of the repository; lintian errors fail it.
deb: release
	@bash scripts/deps.sh deb
	bash scripts/deb.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" "$(CURDIR)"

# The packages installed on a clean Debian 12 root (debootstrap), navctl push orange through D-Bus
# activation under a real systemd --user, cockpit-navd's page in place, and a purge that leaves no file behind.
deb-test: deb
	@bash scripts/deps.sh deb-test
	bash Tests/Scripts/deb-test.sh "navd_$$(dpkg-parsechangelog -S Version)_$$(dpkg --print-architecture).deb" \
	  "cockpit-navd_$$(dpkg-parsechangelog -S Version)_all.deb"

bench: deps
	$(SWIFT) build $(RELEASE_FLAGS)
	@bash scripts/link-commands.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"
	"$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/navd-bench" $(BENCH_ARGS)

reliability: deps
	$(SWIFT) build --build-tests
	NAVD_RELIABILITY=long $(SWIFT) test $(TEST_FLAGS) --filter Reliability

# The long form of the property tests that read NAVD_PROPERTY (a short form runs in `make test`): the
# model's restore property, and recordings of random sessions replayed all equal (navctl replay).
properties: deps
	$(SWIFT) build --build-tests
	NAVD_PROPERTY=long $(SWIFT) test $(TEST_FLAGS) --filter 'RestorePropertyTests|ReplayPropertyTests'

# The fuzz targets (docs/reliability.md#fuzzing) under libFuzzer with AddressSanitizer, one after another, each
# for FUZZ_SECONDS (default 60; FUZZ_TARGETS="json batch" for some): fails on any crash, leak, timeout or
# out-of-memory and says where the input is. Built in .build-fuzz only (make test replays the corpus without it).
# make fuzz-merge minimises the checked-in corpus with what the runs found.
fuzz: build-deps
	FUZZ_SECONDS="$(or $(FUZZ_SECONDS),60)" SWIFT="$(SWIFT)" bash scripts/fuzz.sh run $(FUZZ_TARGETS)

fuzz-merge: build-deps
	SWIFT="$(SWIFT)" bash scripts/fuzz.sh merge $(FUZZ_TARGETS)

# Sanitizer runs: every process (the test runner and each navd it starts, built in the same
# scratch path) writes its reports to .build-sanitizer-logs/<kind>.<pid>; any file there fails
# the target, so a report from a navd that a test killed or that exited 0 is not lost.
# Suppressions (third-party code only, each with its reason): Tests/lsan.supp, Tests/tsan.supp.
check-long: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	@rm -rf .build-sanitizer-logs && mkdir -p .build-sanitizer-logs
	ASAN_OPTIONS="log_path=$(CURDIR)/.build-sanitizer-logs/asan" \
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan.supp:print_suppressions=0" \
	$(SWIFT) test $(TEST_FLAGS) --sanitize=address --scratch-path .build-asan \
	  || { cat .build-sanitizer-logs/* 2>/dev/null; exit 1; }
	@if ls .build-sanitizer-logs/* >/dev/null 2>&1; then cat .build-sanitizer-logs/*; \
	  echo "check-long: AddressSanitizer reports above"; exit 1; fi
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/tsan.supp:log_path=$(CURDIR)/.build-sanitizer-logs/tsan" \
	$(SWIFT) test $(TEST_FLAGS) --sanitize=thread --scratch-path .build-tsan \
	  || { cat .build-sanitizer-logs/* 2>/dev/null; exit 1; }
	@if ls .build-sanitizer-logs/* >/dev/null 2>&1; then cat .build-sanitizer-logs/*; \
	  echo "check-long: ThreadSanitizer reports above"; exit 1; fi
	$(MAKE) reliability
	$(MAKE) properties
	$(MAKE) deb-test
	bash Tests/Scripts/build-as-user-test.sh
	$(MAKE) fuzz
	$(MAKE) bench

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz
