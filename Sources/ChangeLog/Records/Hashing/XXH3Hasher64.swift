/// XXH3-64 of input that arrives in pieces: after any sequence of ``update(_:)`` calls,
/// ``digest()`` is ``XXH3/hash64(_:count:seed:)`` of the pieces joined, for every split.
///
/// Up to 256 bytes wait in a buffer, so that an input of 240 bytes or less is hashed whole
/// (XXH3 treats short inputs differently), and so that a stripe is only accumulated once a byte
/// after it has arrived: the input's last stripe takes a different path, and the last 64 bytes
/// the input ends with are kept for it.
package struct XXH3Hasher64 {
    /// The bytes of the buffer: four stripes.
    static let bufferSize = 256

    private let seed: UInt64
    /// The secret for long input: the default one, or the one derived from `seed`.
    private let secret: [UInt8]
    private var lanes = XXH3Lanes()
    /// Input not yet accumulated: `bufferSize` bytes, `buffered` of them in use.
    private var buffer = [UInt8](repeating: 0, count: 256)
    private var buffered = 0
    /// The last 64 bytes accumulated, for a last stripe that reaches back before `buffer`.
    private var previous = [UInt8](repeating: 0, count: 64)
    /// The stripes accumulated in the current block.
    private var stripesInBlock = 0
    /// All the bytes seen.
    private var total = 0

    /// A hasher for XXH3-64 seeded with `seed`.
    package init(seed: UInt64 = 0) {
        self.seed = seed
        self.secret = XXH3Constants.withSecret(seed: seed) { Array(UnsafeRawBufferPointer(start: $0, count: 192)) }
    }

    /// Adds `bytes` to the input.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var input = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        total += remaining
        if buffered + remaining <= Self.bufferSize {
            buffer.withUnsafeMutableBytes {
                $0.baseAddress!.advanced(by: buffered).copyMemory(from: input, byteCount: remaining)
            }
            buffered += remaining
            return
        }
        // More input follows whatever fills the buffer: fill it and accumulate its stripes.
        if buffered > 0 {
            let filling = Self.bufferSize - buffered
            buffer.withUnsafeMutableBytes {
                $0.baseAddress!.advanced(by: buffered).copyMemory(from: input, byteCount: filling)
            }
            input += filling
            remaining -= filling
            buffer.withUnsafeBytes { consume($0.baseAddress!, stripes: Self.bufferSize / XXH3Lanes.stripeSize) }
            buffered = 0
        }
        // Accumulate straight from the input while more than a buffer's worth remains.
        if remaining > Self.bufferSize {
            let stripes = (remaining - Self.bufferSize + XXH3Lanes.stripeSize - 1) / XXH3Lanes.stripeSize
            consume(input, stripes: stripes)
            input += stripes * XXH3Lanes.stripeSize
            remaining -= stripes * XXH3Lanes.stripeSize
        }
        buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: input, byteCount: remaining) }
        buffered = remaining
    }

    /// Accumulates `count` stripes at `input`, scrambling after each block's last, and keeps
    /// the last stripe's bytes in `previous`.
    private mutating func consume(_ input: UnsafeRawPointer, stripes count: Int) {
        secret.withUnsafeBytes { secretBytes in
            let secret = secretBytes.baseAddress!
            var done = 0
            while done < count {
                let run = min(count - done, XXH3Lanes.stripesPerBlock - stripesInBlock)
                lanes.accumulate(
                    stripes: run, from: input + done * XXH3Lanes.stripeSize, firstStripe: stripesInBlock, secret)
                stripesInBlock += run
                done += run
                if stripesInBlock == XXH3Lanes.stripesPerBlock {
                    lanes.scramble(secret)
                    stripesInBlock = 0
                }
            }
        }
        previous.withUnsafeMutableBytes {
            $0.baseAddress!.copyMemory(
                from: input + (count - 1) * XXH3Lanes.stripeSize, byteCount: XXH3Lanes.stripeSize)
        }
    }

    /// XXH3-64 of all the input so far; the hasher can take more input afterwards.
    package func digest() -> UInt64 {
        if total <= 240 {
            return buffer.withUnsafeBytes { XXH3.hash64($0.baseAddress, count: total, seed: seed) }
        }
        // The buffer holds 1 to 256 bytes here: accumulate all its stripes but the last, on a copy.
        var copy = self
        let stripes = (buffered - 1) / XXH3Lanes.stripeSize
        if stripes > 0 {
            let buffer = self.buffer
            buffer.withUnsafeBytes { copy.consume($0.baseAddress!, stripes: stripes) }
        }
        // The input's last 64 bytes: the buffer's end, reaching back into `previous` if needed.
        var last = [UInt8](repeating: 0, count: XXH3Lanes.stripeSize)
        let fromBuffer = min(buffered, XXH3Lanes.stripeSize)
        let fromPrevious = XXH3Lanes.stripeSize - fromBuffer
        last.replaceSubrange(0..<fromPrevious, with: previous[(XXH3Lanes.stripeSize - fromPrevious)...])
        last.replaceSubrange(fromPrevious..., with: buffer[(buffered - fromBuffer)..<buffered])
        return secret.withUnsafeBytes { secretBytes in
            let secret = secretBytes.baseAddress!
            last.withUnsafeBytes { copy.lanes.accumulate($0.baseAddress!, secret + XXH3Lanes.lastStripeSecretOffset) }
            return copy.lanes.merged(start: UInt64(total) &* XXH3Constants.prime64_1, secret + 11)
        }
    }
}
