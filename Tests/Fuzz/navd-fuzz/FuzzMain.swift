// libFuzzer's entry points for navd's fuzz targets (docs/reliability.md#fuzzing). Built only by `make fuzz`
// (Package.swift declares this executable only when NAVD_FUZZ is set, and it links only with
// -sanitize=fuzzer); NAVD_FUZZ_TARGET names the target (a folder of Tests/Fuzz/).
#if canImport(Glibc)
import Glibc
#endif
import FuzzTargets

nonisolated(unsafe) var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> Int32 {
    let name = getenv("NAVD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fputs("navd-fuzz: set NAVD_FUZZ_TARGET to one of: \(names)\n", stderr)
        exit(2)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    do {
        try selected!.run(UnsafeRawBufferPointer(start: data, count: size))
    } catch {
        fputs("navd-fuzz: \(selected!.rawValue): property broken: \(error.description)\n", stderr)
        abort()
    }
    return 0
}
