/// The log's XXH3 for the benchmarks package, which measures it beside libxxhash: not API.
@_spi(Benchmarks)
public enum XXH3Benchmarking {
    /// XXH3-64 of `bytes` seeded with `seed`, as the log computes its checksums.
    public static func hash64(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        XXH3.hash64(bytes, seed: seed)
    }

    /// XXH3-128 of `bytes`, as the log computes its fingerprints.
    public static func hash128(_ bytes: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64) {
        XXH3.hash128(bytes)
    }
}
