import Benchmark
import BenchmarkSupport
import CXXHashRaw
@_spi(Benchmarks) import ChangeLog

// The log's XXH3 in Swift beside libxxhash's, in the same sample: each sample hashes the same
// input `rounds` times with each, and reports the Swift time as a multiple of the C time.

/// Swift's time over C's for the same hashes (× 100): 100 is as fast as C.
let swiftOverC = BenchmarkMetric.custom("Swift / C time (×100)", polarity: .prefersSmaller, useScalingFactor: false)
/// Swift's part of a sample, in nanoseconds per hash.
let swiftNanoseconds = BenchmarkMetric.custom("Swift (ns/hash)", polarity: .prefersSmaller, useScalingFactor: false)
/// C's part of a sample, in nanoseconds per hash.
let cNanoseconds = BenchmarkMetric.custom("C (ns/hash)", polarity: .prefersSmaller, useScalingFactor: false)

/// `count` seeded random bytes.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SplitMix64(seed: UInt64(count))
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
}

/// The nanoseconds `body` takes.
func elapsed(_ body: () -> Void) -> Int {
    let start = ContinuousClock.now
    body()
    let duration = ContinuousClock.now - start
    return Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
}

/// Registers a paired case: `swift` and `c` each hash `size` bytes `rounds` times per sample.
func registerPaired(
    _ name: String, size: Int, rounds: Int,
    swift: @escaping @Sendable (UnsafeRawBufferPointer) -> UInt64,
    c: @escaping @Sendable (UnsafeRawBufferPointer) -> UInt64
) {
    let input = randomBytes(size)
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, swiftOverC, swiftNanoseconds, cNanoseconds],
            units: [swiftOverC: .count, swiftNanoseconds: .count, cNanoseconds: .count],
            maxDuration: .seconds(3), maxIterations: 200)
    ) { benchmark in
        input.withUnsafeBytes { bytes in
            var sink: UInt64 = 0
            let swiftTime = elapsed {
                for round in 0..<rounds { sink ^= swift(bytes) &+ UInt64(round) }
            }
            let cTime = elapsed {
                for round in 0..<rounds { sink ^= c(bytes) &+ UInt64(round) }
            }
            blackHole(sink)
            benchmark.measurement(swiftOverC, Int((100 * Double(swiftTime) / Double(max(1, cTime))).rounded()))
            benchmark.measurement(swiftNanoseconds, swiftTime / rounds)
            benchmark.measurement(cNanoseconds, cTime / rounds)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    for (size, rounds) in [(64, 20_000), (1_024, 4_000), (16_384, 400)] {
        registerPaired(
            "XXH3-64 paired: Swift then C, \(size) B, seed 7", size: size, rounds: rounds,
            swift: { XXH3Benchmarking.hash64($0, seed: 7) },
            c: { XXH3_64bits_withSeed($0.baseAddress, $0.count, 7) })
    }
    registerPaired(
        "XXH3-128 paired: Swift then C, 1024 B", size: 1_024, rounds: 4_000,
        swift: { XXH3Benchmarking.hash128($0).low },
        c: { XXH3_128bits($0.baseAddress, $0.count).low64 })
}
