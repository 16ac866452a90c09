/// XXH3 in Swift, bit for bit the values of xxHash 0.8.1's `XXH3_64bits_withSeed` and
/// `XXH3_128bits` for every input length and seed: the checksums the log stores and the
/// fingerprints its writer keeps in memory (see doc/xxhash_spec.md in xxHash's repository).
///
/// Inputs are read as little-endian words at any alignment; nothing here allocates except the
/// 192-byte secret a nonzero seed derives, on the stack, for inputs longer than 240 bytes.
package enum XXH3 {
    /// XXH3-64 of the `count` bytes at `input`, seeded with `seed`.
    @inlinable
    package static func hash64(_ input: UnsafeRawPointer?, count: Int, seed: UInt64 = 0) -> UInt64 {
        guard count > 0, let input else {
            return XXH3Constants.defaultSecret.withUnsafeBytes { secret in
                let key = XXH3Constants.load64(secret.baseAddress!, 56) ^ XXH3Constants.load64(secret.baseAddress!, 64)
                return XXH3Constants.avalancheXXH64(seed ^ key)
            }
        }
        if count > 240 {
            return XXH3Constants.withSecret(seed: seed) { secret in
                var lanes = XXH3Lanes()
                lanes.consumeWhole(input, count: count, secret)
                return lanes.merged(start: UInt64(count) &* XXH3Constants.prime64_1, secret + 11)
            }
        }
        return XXH3Constants.defaultSecret.withUnsafeBytes { secret in
            let secret = secret.baseAddress!
            if count <= 16 { return short64(input, count: count, seed: seed, secret) }
            if count <= 128 { return medium64(input, count: count, seed: seed, secret) }
            return long64(input, count: count, seed: seed, secret)
        }
    }

    /// XXH3-64 of `bytes`, seeded with `seed`.
    @inlinable
    package static func hash64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        hash64(bytes.baseAddress, count: bytes.count, seed: seed)
    }

    /// XXH3-64 of 1 to 16 bytes.
    @inlinable @inline(__always)
    static func short64(_ input: UnsafeRawPointer, count: Int, seed: UInt64, _ secret: UnsafeRawPointer) -> UInt64 {
        let length = UInt64(count)
        if count > 8 {
            let low =
                XXH3Constants.load64(input, 0)
                ^ ((XXH3Constants.load64(secret, 24) ^ XXH3Constants.load64(secret, 32)) &+ seed)
            let high =
                XXH3Constants.load64(input, count - 8)
                ^ ((XXH3Constants.load64(secret, 40) ^ XXH3Constants.load64(secret, 48)) &- seed)
            let sum = length &+ low.byteSwapped &+ high &+ XXH3Constants.multiplyFold(low, high)
            return XXH3Constants.avalanche(sum)
        }
        if count >= 4 {
            let modifiedSeed = seed ^ (UInt64(UInt32(truncatingIfNeeded: seed).byteSwapped) << 32)
            let first = UInt64(XXH3Constants.load32(input, 0))
            let last = UInt64(XXH3Constants.load32(input, count - 4))
            let key = (XXH3Constants.load64(secret, 8) ^ XXH3Constants.load64(secret, 16)) &- modifiedSeed
            var value = (last | (first << 32)) ^ key
            value ^= XXH3Constants.rotateLeft(value, 49) ^ XXH3Constants.rotateLeft(value, 24)
            value = value &* XXH3Constants.primeMX2
            value ^= (value >> 35) &+ length
            value = value &* XXH3Constants.primeMX2
            return value ^ (value >> 28)
        }
        let combined = shortCombined(input, count: count)
        let key = UInt64(XXH3Constants.load32(secret, 0) ^ XXH3Constants.load32(secret, 4)) &+ seed
        return XXH3Constants.avalancheXXH64(UInt64(combined) ^ key)
    }

    /// The last byte, the length, the first byte and the middle byte of 1 to 3 bytes.
    @inlinable @inline(__always)
    static func shortCombined(_ input: UnsafeRawPointer, count: Int) -> UInt32 {
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        return UInt32(bytes[count - 1]) | (UInt32(count) << 8) | (UInt32(bytes[0]) << 16)
            | (UInt32(bytes[count >> 1]) << 24)
    }

    /// XXH3-64 of 17 to 128 bytes: pairs of 16-byte pieces from both ends.
    @inlinable @inline(__always)
    static func medium64(_ input: UnsafeRawPointer, count: Int, seed: UInt64, _ secret: UnsafeRawPointer) -> UInt64 {
        var accumulator = UInt64(count) &* XXH3Constants.prime64_1
        var round = (count - 1) >> 5
        while round >= 0 {
            accumulator = accumulator &+ XXH3Constants.mix16(input + round * 16, secret + round * 32, seed)
            accumulator =
                accumulator
                &+ XXH3Constants.mix16(input + (count - round * 16 - 16), secret + (round * 32 + 16), seed)
            round -= 1
        }
        return XXH3Constants.avalanche(accumulator)
    }

    /// XXH3-64 of 129 to 240 bytes: 16-byte pieces in order, mixed once after the eighth.
    @inlinable @inline(__always)
    static func long64(_ input: UnsafeRawPointer, count: Int, seed: UInt64, _ secret: UnsafeRawPointer) -> UInt64 {
        var accumulator = UInt64(count) &* XXH3Constants.prime64_1
        for piece in 0..<8 {
            accumulator = accumulator &+ XXH3Constants.mix16(input + piece * 16, secret + piece * 16, seed)
        }
        accumulator = XXH3Constants.avalanche(accumulator)
        for piece in 8..<(count >> 4) {
            accumulator = accumulator &+ XXH3Constants.mix16(input + piece * 16, secret + ((piece - 8) * 16 + 3), seed)
        }
        accumulator = accumulator &+ XXH3Constants.mix16(input + (count - 16), secret + 119, seed)
        return XXH3Constants.avalanche(accumulator)
    }
}
