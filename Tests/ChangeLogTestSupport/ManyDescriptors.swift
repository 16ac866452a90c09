#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rule for tests that hold many descriptors at once (hundreds of loopback connections).
///
/// Foundation's `Process.run()` on Linux finds the highest open descriptor by reading
/// `/proc/self/fd`, copying each entry's name as a 256-byte field. Once about 1,350 descriptors
/// are open, the entry that ends a full directory buffer is shorter than that, and the copy reads
/// past the buffer: the test process can crash in whichever test starts a child at that moment.
/// Tests run in parallel and many start children (the `replay` binary, workers, a browser), so
/// a test that holds more than a few hundred descriptors runs its body in a process of its own,
/// through `#expect(processExitsWith: .success)`, and raises that process's limit there.
package enum ManyDescriptors {
    /// Raises this process's soft limit of open files to `count`, within the hard limit.
    package static func raiseOpenFileLimit(to count: UInt) {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        getrlimit(resource, &limit)
        if limit.rlim_cur < count {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
            setrlimit(resource, &limit)
        }
    }
}
