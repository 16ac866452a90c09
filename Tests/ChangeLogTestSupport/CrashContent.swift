import ChangeLog
import ListAdapter

/// What revision `revision` of a crash test's log holds: a function of the test's seed and the
/// revision alone, so that the parent recomputes what any worker appended at any revision.
///
/// Items change at different rates (each its own period), leave and come back, change section
/// and move within their section, so consecutive snapshots share most chunks and each revision
/// frees some. Shared by `ChangeLogWorker`, which appends it, and `ChangeLogTests`, which checks
/// what survived.
package enum CrashContent {
    /// The snapshot of `revision`, over a pool of `items` items in four sections.
    package static func snapshot(seed: UInt64, revision: UInt64, items: Int) throws -> LogSnapshot {
        var sections: [[(key: UInt64, item: LogSnapshot.Item)]] = Array(repeating: [], count: 4)
        for item in 0..<UInt64(max(items, 1)) {
            let period = 1 + mix(seed, item, 0) % 40
            let epoch = revision / period
            if item > 0, mix(seed, item, epoch &+ 1) % 10 == 0 { continue }
            let section = Int(mix(seed &+ 1, item, revision / (period * 5 + 3)) % 4)
            let key = mix(seed &+ 2, item, revision / (period * 7 + 5)) % 1_000
            sections[section].append((key, LogSnapshot.Item(id: "i\(item)", summary: "\(item)@\(epoch)")))
        }
        return try LogSnapshot(
            sections: zip(["A", "B", "C", "D"], sections).map { title, entries in
                LogSnapshot.Section(title: title, items: entries.sorted { $0.key < $1.key }.map(\.item))
            })
    }

    /// The metadata stored with `revision`: its number, and which writer appended it.
    package static func meta(revision: UInt64, writer: String) -> [String: String] {
        ["revision": "\(revision)", "writer": writer]
    }

    /// SplitMix64's finalizer over three words.
    package static func mix(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        var z = a &+ b &* 0x9E37_79B9_7F4A_7C15 &+ c &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
