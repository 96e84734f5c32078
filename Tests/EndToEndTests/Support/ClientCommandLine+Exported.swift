// The end-to-end tests read navctl's and navwatch's output with the clients' own JSON reader and renderings
// (`JSONValue`, `VisibleState.line`), which live in ClientCommandLine, not in NavdClient: every file here sees them.
@_exported import ClientCommandLine
