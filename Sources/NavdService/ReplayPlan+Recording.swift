import Navigation

extension ReplayPlan {
    /// The plan of the recording in the file at `path`, or a `StartupError` naming the file and the problem.
    public static func load(recordingAt path: String, underRoutesFile: Bool) throws(StartupError) -> ReplayPlan {
        throw StartupError("\(path): recordings are not read yet")
    }
}
