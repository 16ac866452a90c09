import ChangeLog
import ListAdapter
import Testing

/// `replay play --into strict` delivers each revision in the stages UIKit accepts.
@Suite("replay play: staging for UIKit")
struct PlayStagingTests {
    @Test("a revision that moves a section and an item and updates both items is accepted by the strict renderer")
    func movedAndUpdated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("staged.lmdb")
        let log = try ChangeLog(path: path)
        _ = try await log.append(
            try LogSnapshot(sections: [
                .init(title: "A", items: [.init(id: "a", summary: "1"), .init(id: "c")]),
                .init(title: "B", items: [.init(id: "b", summary: "1")]),
            ]))
        let appended = try await log.append(
            try LogSnapshot(sections: [
                .init(title: "B", items: [.init(id: "b", summary: "2"), .init(id: "a", summary: "2")]),
                .init(title: "A", items: [.init(id: "c")]),
            ]))
        #expect(!appended.changes.movedSections.isEmpty && !appended.changes.movedItems.isEmpty)
        #expect(appended.changes.updatedItems.count == 2)

        let result = try await ToolRunner.run(["play", "--log", path, "--into", "strict"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "replayed revisions 1 to 2 into the strict renderer: 2 batches accepted\n")
    }
}
