import NavwatchCommandLine

// navwatch on its own, for swift-argument-parser's generate-manual plugin, which writes a page for each
// executable product (`make man`); what is installed is the link navwatch → navd (Sources/navd/main.swift).
navwatchMain(Array(CommandLine.arguments.dropFirst()))
