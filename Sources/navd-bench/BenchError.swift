/// A failure of the benchmark's own setup, with a sentence saying what went wrong.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String
    /// Creates the error.
    init(_ description: String) { self.description = description }
}
