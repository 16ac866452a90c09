// A libFuzzer target: `scripts/fuzz.sh FuzzImportLine SECONDS` builds it with `-sanitize=fuzzer,address
// -D FUZZING` and runs it. libFuzzer then calls `fuzzTestOneInput` with each input. A plain
// build (`swift build`, `swift test`) only checks that it compiles.
import ChangeLog
import ChangeLogTools

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes one fuzz input; returns 0, as libFuzzer requires. Exported under the name
/// libFuzzer's own `main`, linked in by `-sanitize=fuzzer`, refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntryPoints.decodeImportLine(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
    /// libFuzzer's driver (compiler-rt, `FuzzerDriver.cpp`): parses libFuzzer's options from
    /// the command line and fuzzes `callback`; it returns only when a run ends without a finding.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    var argumentCount = CommandLine.argc
    var arguments = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzTestOneInput))
#else
    print("Build and run this fuzz target with scripts/fuzz.sh FuzzImportLine SECONDS.")
#endif
