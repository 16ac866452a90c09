import BenchmarkSupport
import ListAdapter

/// Identifiers the flat workloads make from a counter: `Int`s, or 36-character strings shaped
/// like UUIDs (long enough to be stored out of line, as real identifiers are).
protocol FlatWorkloadID: Hashable, Sendable {
    /// The identifier numbered `number`; distinct numbers give distinct identifiers.
    static func make(_ number: Int) -> Self
}

extension Int: FlatWorkloadID {
    static func make(_ number: Int) -> Int { number }
}

extension String: FlatWorkloadID {
    static func make(_ number: Int) -> String {
        // The counter in the low 64 bits keeps the identifiers distinct; the rest is noise.
        var rng = SplitMix64(seed: UInt64(number))
        let high = rng.next()
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: Swift.max(0, digits - text.count)) + text.suffix(digits)
        }
        let low = UInt64(number)
        return hex(high >> 32, 8) + "-" + hex((high >> 16) & 0xFFFF, 4) + "-" + hex(high & 0xFFFF, 4) + "-"
            + hex(low >> 48, 4) + "-" + hex(low & 0xFFFF_FFFF_FFFF, 12)
    }
}

/// The shapes of a flat list's change.
enum FlatShape: String, Sendable {
    /// A tenth of the items each deleted, moved to a random place, updated, and inserted.
    case mixed
    /// Every item in the reverse order.
    case reversed
    /// Every item in a random order.
    case shuffled
}

/// One section of items before and after a change of the given shape, from a fixed seed: the
/// data of the comparison with other diff libraries, which take flat arrays.
struct FlatWorkload<ID: FlatWorkloadID>: Sendable {
    typealias Item = ListSnapshot<ID, String, String>.Item
    typealias Section = ListSnapshot<ID, String, String>.Section

    let oldSections: [Section]
    let newSections: [Section]
    /// The identifiers of the new list, in order: what the dictionary floor is built from.
    let newIDs: [ID]
    /// The fewest moves any diff can report for the pair: the items on both sides outside a
    /// longest increasing subsequence of their old offsets.
    let minimumMoves: Int

    init(count: Int, shape: FlatShape, seed: UInt64 = 42) {
        var rng = SplitMix64(seed: seed)
        var next = 0
        func fresh() -> Item {
            defer { next += 1 }
            return Item(id: ID.make(next), summary: "v1")
        }
        let old = (0..<count).map { _ in fresh() }
        var new = old
        switch shape {
        case .reversed: new.reverse()
        case .shuffled: new.shuffle(using: &rng)
        case .mixed:
            // Positions drawn, then one sort: a million items cost no quadratic shuffling.
            var placed: [(position: Double, item: Item)] = []
            placed.reserveCapacity(count + count / 10)
            for (offset, item) in old.enumerated() {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: continue
                case 1: placed.append((Double.random(in: 0..<Double(count), using: &rng), item))
                default: placed.append((Double(offset), item))
                }
            }
            for index in placed.indices where Int.random(in: 0..<10, using: &rng) == 0 {
                placed[index].item.summary = "v2"
            }
            for _ in 0..<count / 10 { placed.append((Double.random(in: 0..<Double(count), using: &rng), fresh())) }
            placed.sort { $0.position < $1.position }
            new = placed.map(\.item)
        }
        oldSections = [Section(title: "", items: old)]
        newSections = [Section(title: "", items: new)]
        newIDs = new.map(\.id)
        var oldOffsets: [ID: Int] = [:]
        for (offset, item) in old.enumerated() { oldOffsets[item.id] = offset }
        let staying = newIDs.compactMap { oldOffsets[$0] }
        minimumMoves = staying.count - DiffWorkload.lengthOfLongestIncreasingSubsequence(staying)
    }
}
