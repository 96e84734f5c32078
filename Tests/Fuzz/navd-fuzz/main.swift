// libFuzzer's driver over navd's fuzz targets (docs/reliability.md#fuzzing). Built only by `make fuzz`
// (Package.swift declares this executable only when NAVD_FUZZ is set, and it links only with -sanitize=fuzzer);
// NAVD_FUZZ_TARGET names the target (a folder of Tests/Fuzz/). SwiftPM gives an executable's top-level code the
// process's `main`, so libFuzzer's own is left out and its driver is started here (LLVMFuzzerRunDriver).
#if canImport(Glibc)
import Glibc
#endif
import FuzzTargets

nonisolated(unsafe) var selected: FuzzTarget?

/// Writes `text` to standard error.
func say(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp), linked in by -sanitize=fuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Chooses the target named by NAVD_FUZZ_TARGET.
func initialize() {
    let name = getenv("NAVD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        say("navd-fuzz: set NAVD_FUZZ_TARGET to one of: \(names)\n")
        exit(2)
    }
    selected = target
}

/// One input through the selected target; a broken property aborts, which libFuzzer reports as a crash. Exported
/// under libFuzzer's name too, which its own (unused) `main` refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    do {
        try selected!.run(UnsafeRawBufferPointer(start: data, count: size))
    } catch {
        say("navd-fuzz: \(selected!.rawValue): property broken: \(error.description)\n")
        abort()
    }
    return 0
}

initialize()
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv, { data, size in testOneInput(data, size) }))
