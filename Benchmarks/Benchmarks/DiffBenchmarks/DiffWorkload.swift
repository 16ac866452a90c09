import BenchmarkSupport
import ListAdapter

/// The diff benchmarks' data: an old list and a new one made from it by deleting, inserting,
/// moving and updating a tenth of the items each, from a fixed seed.
struct DiffWorkload {
    let old: ListSnapshot<String, String, String>
    let new: ListSnapshot<String, String, String>
    /// The new list's sections as plain values, to time building a snapshot from them.
    let newSections: [ListSnapshot<String, String, String>.Section]
    /// The same data, flattened, for the standard library's `CollectionDifference`.
    let oldIDs: [String]
    let newIDs: [String]
    /// The fewest moves any diff with this package's semantics can report for this pair,
    /// computed here independently of the library (see ``minimumMoves(from:to:)``).
    let minimumMoves: Int

    /// - Parameters:
    ///   - sections: the number of sections (titles stay, items move between them).
    ///   - itemsPerSection: the number of items in each section before the change.
    init(sections sectionCount: Int, itemsPerSection: Int, seed: UInt64 = 42) {
        var rng = SplitMix64(seed: seed)
        var next = 0
        func freshID() -> String {
            defer { next += 1 }
            return "item-\(next)"
        }
        let oldSections = (0..<sectionCount).map { section in
            ListSnapshot<String, String, String>.Section(
                title: "Section \(section)",
                items: (0..<itemsPerSection).map { _ in .init(id: freshID(), summary: "v1") })
        }
        let total = sectionCount * itemsPerSection
        let tenth = total / 10
        var newSections = oldSections
        // 10% deleted.
        for _ in 0..<tenth {
            let section = Int.random(in: 0..<sectionCount, using: &rng)
            guard !newSections[section].items.isEmpty else { continue }
            newSections[section].items.remove(at: Int.random(in: 0..<newSections[section].items.count, using: &rng))
        }
        // 10% moved to a random place (in a random section).
        for _ in 0..<tenth {
            let from = Int.random(in: 0..<sectionCount, using: &rng)
            guard !newSections[from].items.isEmpty else { continue }
            let item = newSections[from].items.remove(
                at: Int.random(in: 0..<newSections[from].items.count, using: &rng))
            let to = Int.random(in: 0..<sectionCount, using: &rng)
            newSections[to].items.insert(item, at: Int.random(in: 0...newSections[to].items.count, using: &rng))
        }
        // 10% updated.
        for _ in 0..<tenth {
            let section = Int.random(in: 0..<sectionCount, using: &rng)
            guard !newSections[section].items.isEmpty else { continue }
            newSections[section].items[Int.random(in: 0..<newSections[section].items.count, using: &rng)].summary = "v2"
        }
        // 10% inserted.
        for _ in 0..<tenth {
            let section = Int.random(in: 0..<sectionCount, using: &rng)
            newSections[section].items.insert(
                .init(id: freshID(), summary: "v1"),
                at: Int.random(in: 0...newSections[section].items.count, using: &rng))
        }
        old = try! ListSnapshot(sections: oldSections)
        new = try! ListSnapshot(sections: newSections)
        self.newSections = newSections
        oldIDs = old.identifiers
        newIDs = new.identifiers
        minimumMoves = Self.minimumMoves(from: oldSections, to: newSections)
    }

    /// The minimum number of moves between two sectioned lists: sections that keep their title
    /// but cannot keep their relative order (the complement of a longest increasing subsequence
    /// of their old offsets), items that change section between two surviving sections, and, per
    /// surviving section, the items that stay in it but cannot keep their relative order.
    static func minimumMoves(
        from old: [ListSnapshot<String, String, String>.Section], to new: [ListSnapshot<String, String, String>.Section]
    ) -> Int {
        var oldSectionOffsets: [String: Int] = [:]
        for (offset, section) in old.enumerated() { oldSectionOffsets[section.title] = offset }
        let newTitles = Set(new.map(\.title))
        var oldPlace: [String: (title: String, offset: Int)] = [:]
        for section in old where newTitles.contains(section.title) {
            for (offset, item) in section.items.enumerated() { oldPlace[item.id] = (section.title, offset) }
        }
        let survivingSections = new.compactMap { oldSectionOffsets[$0.title] }
        var moves = survivingSections.count - lengthOfLongestIncreasingSubsequence(survivingSections)
        for section in new where oldSectionOffsets[section.title] != nil {
            var stayingOffsets: [Int] = []
            for item in section.items {
                guard let place = oldPlace[item.id] else { continue }
                if place.title == section.title {
                    stayingOffsets.append(place.offset)
                } else {
                    moves += 1
                }
            }
            moves += stayingOffsets.count - lengthOfLongestIncreasingSubsequence(stayingOffsets)
        }
        return moves
    }

    /// The length of a longest strictly increasing subsequence (patience sorting).
    static func lengthOfLongestIncreasingSubsequence(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for value in values {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < value { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return tails.count
    }
}
