import CXXHash
import ListAdapter
import Testing

@testable import ChangeLog

/// The log's XXH3 in Swift against libxxhash, the C reference whose values every stored
/// checksum holds: equal for every length through all of XXH3's size classes (empty, 1-3,
/// 4-8, 9-16, 17-128, 129-240, and past 240 with whole and partial stripes and blocks), for
/// long random inputs, random seeds and unaligned starts, and in pieces as in one piece.
@Suite("XXH3 against libxxhash")
struct XXH3ReferenceTests {
    /// `count` seeded random bytes after `offset` bytes of padding.
    private func bytes(_ count: Int, offset: Int = 0, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<(offset + count)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Checks XXH3-64 (with `seeds`) and XXH3-128 of `input[offset...]` against the C library.
    private func expectSame(_ input: [UInt8], offset: Int, seeds: [UInt64]) {
        input.withUnsafeBytes { buffer in
            let piece = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            for seed in seeds {
                let swift = XXH3.hash64(piece, seed: seed)
                let c = XXH3_64bits_withSeed(piece.baseAddress, piece.count, seed)
                #expect(swift == c, "XXH3-64 of \(piece.count) bytes at offset \(offset), seed \(seed)")
            }
            let swift = XXH3.hash128(piece)
            let c = XXH3_128bits(piece.baseAddress, piece.count)
            #expect(
                swift.high == c.high64 && swift.low == c.low64,
                "XXH3-128 of \(piece.count) bytes at offset \(offset)")
        }
    }

    @Test("every length from 0 to 2,100 bytes, seeds 0 and others, aligned and not")
    func everyLength() {
        for length in 0...2_100 {
            let offset = length % 8
            let input = bytes(length, offset: offset, seed: UInt64(length))
            expectSame(input, offset: offset, seeds: [0, 1, UInt64(length) &* 0x9E37_79B9_7F4A_7C15, .max])
        }
    }

    @Test("random lengths up to 300 KB with random seeds and start offsets")
    func randomLengths() {
        var generator = SplitMix64(seed: 33)
        for round in 0..<60 {
            let length = Int(generator.next() % 300_000)
            let offset = Int(generator.next() % 16)
            let input = bytes(length, offset: offset, seed: UInt64(round))
            expectSame(input, offset: offset, seeds: [0, generator.next(), generator.next()])
        }
    }

    @Test("in pieces: the digest after any split is the one-shot hash, at every size class")
    func streaming() {
        var generator = SplitMix64(seed: 64)
        let lengths = Array(0...1_100) + [2_047, 2_048, 2_049, 4_096, 4_097, 16_385, 65_536, 100_003]
        for length in lengths {
            let seed = length % 3 == 0 ? 0 : generator.next()
            let input = bytes(length, seed: UInt64(length) &+ 7)
            let expected = input.withUnsafeBytes { XXH3_64bits_withSeed($0.baseAddress, $0.count, seed) }
            var hasher = XXH3Hasher64(seed: seed)
            var position = 0
            while position < length {
                // Pieces of every kind: single bytes, around a buffer's size, several blocks.
                let choices = [1, 63, 64, 65, 255, 256, 257, 1_000, 3_000]
                let size = min(length - position, choices[Int(generator.next() % UInt64(choices.count))])
                input.withUnsafeBytes {
                    hasher.update(UnsafeRawBufferPointer(rebasing: $0[position..<(position + size)]))
                }
                position += size
            }
            #expect(hasher.digest() == expected, "XXH3-64 in pieces of \(length) bytes, seed \(seed)")
        }
    }
}
