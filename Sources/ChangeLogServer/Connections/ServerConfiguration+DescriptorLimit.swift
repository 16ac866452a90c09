#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServerConfiguration {
    /// The default ``maxConnections``: the process's soft limit of open files (`RLIMIT_NOFILE`,
    /// `ulimit -n`) less an eighth of it, and at least 64, left for the log's files, the event
    /// loops and the standard streams; at most 10,000, and at least 16. With the common limit of
    /// 1,024 it is 896.
    ///
    /// Each connection holds one descriptor. A server that accepted connections up to the
    /// process's limit could open no more files and would fail every `accept` while clients
    /// wait; it stops short of it instead.
    public static var defaultMaxConnections: Int {
        #if canImport(Darwin)
            let resource = RLIMIT_NOFILE
        #else
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 1 << 40 else {
            return 10_000
        }
        // RLIM_INFINITY (all bits set) and other huge limits fall back above.
        let soft = Int(limit.rlim_cur)
        return min(10_000, max(16, soft - max(64, soft / 8)))
    }
}
