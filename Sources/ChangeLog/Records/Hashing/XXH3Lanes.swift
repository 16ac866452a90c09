/// The eight accumulators of XXH3 on inputs longer than 240 bytes, and the three steps over
/// them: accumulating a 64-byte stripe, scrambling after each block of 16 stripes, and merging
/// the lanes into one 64-bit value.
///
/// Held in eight stored properties (not an array) so that the optimizer keeps them in
/// registers across a block's stripes.
@usableFromInline
struct XXH3Lanes {
    @usableFromInline var a0: UInt64 = XXH3Constants.prime32_3
    @usableFromInline var a1: UInt64 = XXH3Constants.prime64_1
    @usableFromInline var a2: UInt64 = XXH3Constants.prime64_2
    @usableFromInline var a3: UInt64 = XXH3Constants.prime64_3
    @usableFromInline var a4: UInt64 = XXH3Constants.prime64_4
    @usableFromInline var a5: UInt64 = XXH3Constants.prime32_2
    @usableFromInline var a6: UInt64 = XXH3Constants.prime64_5
    @usableFromInline var a7: UInt64 = XXH3Constants.prime32_1

    /// Stripes per block with a 192-byte secret: (192 - 64) / 8.
    @usableFromInline static let stripesPerBlock = 16
    /// The bytes of one stripe.
    @usableFromInline static let stripeSize = 64
    /// The bytes of one block: 16 stripes.
    @usableFromInline static let blockSize = 1024
    /// Where in the secret the last stripe's 64 bytes start: 192 - 64 - 7.
    @usableFromInline static let lastStripeSecretOffset = 121

    /// The accumulators' fixed starting values.
    @inlinable
    init() {}

    /// Adds the 64-byte stripe at `stripe`, keyed with the 64 bytes of secret at `secret`.
    @inlinable @inline(__always)
    mutating func accumulate(_ stripe: UnsafeRawPointer, _ secret: UnsafeRawPointer) {
        func lane(_ index: Int) -> (data: UInt64, product: UInt64) {
            let data = XXH3Constants.load64(stripe, index * 8)
            let keyed = data ^ XXH3Constants.load64(secret, index * 8)
            return (data, (keyed & 0xFFFF_FFFF) &* (keyed >> 32))
        }
        let l0 = lane(0)
        let l1 = lane(1)
        let l2 = lane(2)
        let l3 = lane(3)
        let l4 = lane(4)
        let l5 = lane(5)
        let l6 = lane(6)
        let l7 = lane(7)
        a0 = a0 &+ l1.data &+ l0.product
        a1 = a1 &+ l0.data &+ l1.product
        a2 = a2 &+ l3.data &+ l2.product
        a3 = a3 &+ l2.data &+ l3.product
        a4 = a4 &+ l5.data &+ l4.product
        a5 = a5 &+ l4.data &+ l5.product
        a6 = a6 &+ l7.data &+ l6.product
        a7 = a7 &+ l6.data &+ l7.product
    }

    /// Mixes each accumulator with itself and the secret's last 64 bytes, after each block.
    @inlinable @inline(__always)
    mutating func scramble(_ secret: UnsafeRawPointer) {
        let key = secret + (XXH3Constants.secretSize - Self.stripeSize)
        func mixed(_ value: UInt64, _ index: Int) -> UInt64 {
            (value ^ (value >> 47) ^ XXH3Constants.load64(key, index * 8)) &* XXH3Constants.prime32_1
        }
        a0 = mixed(a0, 0)
        a1 = mixed(a1, 1)
        a2 = mixed(a2, 2)
        a3 = mixed(a3, 3)
        a4 = mixed(a4, 4)
        a5 = mixed(a5, 5)
        a6 = mixed(a6, 6)
        a7 = mixed(a7, 7)
    }

    /// Accumulates `count` stripes from `input`, the first keyed at `secret` plus 8 times
    /// `firstStripe`, the stripe's index within its block.
    @inlinable @inline(__always)
    mutating func accumulate(
        stripes count: Int, from input: UnsafeRawPointer, firstStripe: Int, _ secret: UnsafeRawPointer
    ) {
        var stripe = 0
        while stripe < count {
            accumulate(input + stripe * Self.stripeSize, secret + (firstStripe + stripe) * 8)
            stripe += 1
        }
    }

    /// Processes every full block of `input` but the one that holds its last byte, then the
    /// stripes of that last block but its last, then the input's last 64 bytes: the whole of
    /// an input longer than 240 bytes, in one call.
    @inlinable
    mutating func consumeWhole(_ input: UnsafeRawPointer, count: Int, _ secret: UnsafeRawPointer) {
        let blocks = (count - 1) / Self.blockSize
        var block = 0
        while block < blocks {
            accumulate(stripes: Self.stripesPerBlock, from: input + block * Self.blockSize, firstStripe: 0, secret)
            scramble(secret)
            block += 1
        }
        let rest = count - blocks * Self.blockSize
        accumulate(stripes: (rest - 1) / Self.stripeSize, from: input + blocks * Self.blockSize, firstStripe: 0, secret)
        accumulate(input + (count - Self.stripeSize), secret + Self.lastStripeSecretOffset)
    }

    /// The lanes merged into one value, starting from `start`, keyed with the 64 bytes of
    /// secret at `secret`.
    @inlinable
    func merged(start: UInt64, _ secret: UnsafeRawPointer) -> UInt64 {
        func pair(_ x: UInt64, _ y: UInt64, _ index: Int) -> UInt64 {
            XXH3Constants.multiplyFold(
                x ^ XXH3Constants.load64(secret, index * 16), y ^ XXH3Constants.load64(secret, index * 16 + 8))
        }
        let sum = start &+ pair(a0, a1, 0) &+ pair(a2, a3, 1) &+ pair(a4, a5, 2) &+ pair(a6, a7, 3)
        return XXH3Constants.avalanche(sum)
    }
}
