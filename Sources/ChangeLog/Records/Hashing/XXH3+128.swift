extension XXH3 {
    /// XXH3-128 (seed 0) of the `count` bytes at `input`: `high` and `low` as libxxhash's
    /// `XXH3_128bits` returns them in `high64` and `low64`.
    @inlinable
    package static func hash128(_ input: UnsafeRawPointer?, count: Int) -> (high: UInt64, low: UInt64) {
        XXH3Constants.defaultSecret.withUnsafeBytes { secretBytes in
            let secret = secretBytes.baseAddress!
            guard count > 0, let input else {
                let low = XXH3Constants.load64(secret, 64) ^ XXH3Constants.load64(secret, 72)
                let high = XXH3Constants.load64(secret, 80) ^ XXH3Constants.load64(secret, 88)
                return (XXH3Constants.avalancheXXH64(high), XXH3Constants.avalancheXXH64(low))
            }
            if count <= 16 { return short128(input, count: count, secret) }
            if count <= 240 { return medium128(input, count: count, secret) }
            var lanes = XXH3Lanes()
            lanes.consumeWhole(input, count: count, secret)
            let length = UInt64(count)
            let low = lanes.merged(start: length &* XXH3Constants.prime64_1, secret + 11)
            let high = lanes.merged(
                start: ~(length &* XXH3Constants.prime64_2),
                secret + (XXH3Constants.secretSize - XXH3Lanes.stripeSize - 11))
            return (high, low)
        }
    }

    /// XXH3-128 (seed 0) of `bytes`.
    @inlinable
    package static func hash128(_ bytes: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64) {
        hash128(bytes.baseAddress, count: bytes.count)
    }

    /// XXH3-128 of 1 to 16 bytes.
    @inlinable @inline(__always)
    static func short128(_ input: UnsafeRawPointer, count: Int, _ secret: UnsafeRawPointer) -> (
        high: UInt64, low: UInt64
    ) {
        let length = UInt64(count)
        if count > 8 {
            let lowKey = XXH3Constants.load64(secret, 32) ^ XXH3Constants.load64(secret, 40)
            let highKey = XXH3Constants.load64(secret, 48) ^ XXH3Constants.load64(secret, 56)
            let first = XXH3Constants.load64(input, 0)
            let last = XXH3Constants.load64(input, count - 8)
            let wide = (first ^ last ^ lowKey).multipliedFullWidth(by: XXH3Constants.prime64_1)
            let keyedLast = last ^ highKey
            var low = wide.low &+ ((length &- 1) << 54)
            var high =
                wide.high &+ keyedLast &+ UInt64(UInt32(truncatingIfNeeded: keyedLast))
                &* (XXH3Constants.prime32_2 &- 1)
            low ^= high.byteSwapped
            let final = low.multipliedFullWidth(by: XXH3Constants.prime64_2)
            low = final.low
            high = final.high &+ high &* XXH3Constants.prime64_2
            return (XXH3Constants.avalanche(high), XXH3Constants.avalanche(low))
        }
        if count >= 4 {
            let first = UInt64(XXH3Constants.load32(input, 0))
            let last = UInt64(XXH3Constants.load32(input, count - 4))
            let key = XXH3Constants.load64(secret, 16) ^ XXH3Constants.load64(secret, 24)
            let value = (first | (last << 32)) ^ key
            let wide = value.multipliedFullWidth(by: XXH3Constants.prime64_1 &+ (length << 2))
            let high = wide.high &+ (wide.low << 1)
            var low = wide.low ^ (high >> 3)
            low ^= low >> 35
            low = low &* XXH3Constants.primeMX2
            low ^= low >> 28
            return (XXH3Constants.avalanche(high), low)
        }
        let combinedLow = shortCombined(input, count: count)
        let combinedHigh = XXH3Constants.rotateLeft(combinedLow.byteSwapped, 13)
        let lowKey = UInt64(XXH3Constants.load32(secret, 0) ^ XXH3Constants.load32(secret, 4))
        let highKey = UInt64(XXH3Constants.load32(secret, 8) ^ XXH3Constants.load32(secret, 12))
        return (
            XXH3Constants.avalancheXXH64(UInt64(combinedHigh) ^ highKey),
            XXH3Constants.avalancheXXH64(UInt64(combinedLow) ^ lowKey)
        )
    }

    /// XXH3-128 of 17 to 240 bytes: two accumulators over pairs of 16-byte pieces.
    @inlinable @inline(__always)
    static func medium128(_ input: UnsafeRawPointer, count: Int, _ secret: UnsafeRawPointer) -> (
        high: UInt64, low: UInt64
    ) {
        var low = UInt64(count) &* XXH3Constants.prime64_1
        var high: UInt64 = 0
        func mix(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ key: UnsafeRawPointer, _ seed: UInt64) {
            low = low &+ XXH3Constants.mix16(first, key, seed)
            low ^= XXH3Constants.load64(second, 0) &+ XXH3Constants.load64(second, 8)
            high = high &+ XXH3Constants.mix16(second, key + 16, seed)
            high ^= XXH3Constants.load64(first, 0) &+ XXH3Constants.load64(first, 8)
        }
        if count <= 128 {
            var round = (count - 1) >> 5
            while round >= 0 {
                mix(input + round * 16, input + (count - round * 16 - 16), secret + round * 32, 0)
                round -= 1
            }
        } else {
            for round in 0..<4 {
                mix(input + round * 32, input + (round * 32 + 16), secret + round * 32, 0)
            }
            low = XXH3Constants.avalanche(low)
            high = XXH3Constants.avalanche(high)
            for round in 4..<(count >> 5) {
                mix(input + round * 32, input + (round * 32 + 16), secret + ((round - 4) * 32 + 3), 0)
            }
            mix(input + (count - 16), input + (count - 32), secret + 103, 0)
        }
        let sum = low &+ high
        let spread =
            low &* XXH3Constants.prime64_1 &+ high &* XXH3Constants.prime64_4
            &+ UInt64(count) &* XXH3Constants.prime64_2
        return (0 &- XXH3Constants.avalanche(spread), XXH3Constants.avalanche(sum))
    }
}
