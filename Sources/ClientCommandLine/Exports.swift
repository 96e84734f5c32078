// JSON text (read and written by hand, see Sources/JSON) and the recording document (Sources/Recording) come
// with the command line's renderings, which produce and read them: navctl and navwatch use `JSONValue` and
// `Recording` without importing those modules themselves.
@_exported import JSON
@_exported import Recording
