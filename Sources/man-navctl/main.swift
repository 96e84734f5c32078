import NavctlCommandLine

// navctl on its own, for swift-argument-parser's generate-manual plugin, which writes a page for each
// executable product (`make man`); what is installed is the link navctl → navd (Sources/navd/main.swift).
navctlMain(Array(CommandLine.arguments.dropFirst()))
