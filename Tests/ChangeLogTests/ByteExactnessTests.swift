import ChangeLog
import Foundation
import ListAdapter
import Testing

@Suite("Byte exactness")
struct ByteExactnessTests {
    @Test("a snapshot that differs only in Unicode normalization is stored with its own bytes")
    func normalization() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            #expect(composed == decomposed)  // Swift's String equality is canonical equivalence.
            let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: composed)])])
            let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: decomposed)])])
            _ = try await log.append(first)
            _ = try await log.append(second)
            let stored = try log.snapshot(at: 2).sections[0].items[0].summary
            #expect(stored.map { Array($0.utf8) } == Array(decomposed.utf8))
            #expect(try log.snapshot(at: 1).sections[0].items[0].summary.map { Array($0.utf8) } == Array(composed.utf8))
        }
    }
}
