// Every test target that imports TestSupport gets the shared fixtures with it: the private
// bus, child processes, the navd launcher and the raw navd calls.
@_exported import BusHarness
