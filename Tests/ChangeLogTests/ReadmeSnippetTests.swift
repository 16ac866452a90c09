import ChangeLog
import Foundation
import ListAdapter
import Testing

// README.md's Swift blocks, compiled. Each block's lines (without its `import` lines) appear
// below in the block's order, with only what completes a fragment in between, and
// `theReadmeBlocksAreTheseOnes` checks that they still do: a block edited in the README
// without its copy here fails that test, and a copy that no longer compiles fails the build.

/// The README's "Usage" block, run, with the claims of its comments checked.
@Test("the README's usage block runs and does what its comments say")
func readmeUsage() throws {
    let old = try ListSnapshot<String, String>(sections: [
        .init(title: "Today", items: [.init(id: "a", summary: "hello"), .init(id: "b")]),
        .init(title: "Yesterday", items: [.init(id: "c")]),
    ])
    let new = try ListSnapshot<String, String>(sections: [
        .init(title: "Today", items: [.init(id: "c"), .init(id: "a", summary: "hello, edited")])
    ])
    let changes = old.changes(to: new)
    // sections.deleted [1]; items.deleted [[0, 1]]; items.inserted [0, 0] "c" (it left a deleted
    // section); items.updated [0, 0] -> [0, 1] "hello, edited"
    #expect(changes.deletedSections == [1])
    #expect(changes.deletedItems == [ItemPath(section: 0, item: 1)])
    #expect(changes.insertedItems == [.init(at: ItemPath(section: 0, item: 0), id: "c", summary: nil)])
    #expect(
        changes.updatedItems == [
            .init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 1), summary: "hello, edited")
        ])
    let applied = try old.applying(changes)  // the reference apply (see "Applying changes")
    assert(applied == new)

    var tableView = StrictListView<String, String>()  // UIKit's batch-update rules
    tableView.reloadData(old)
    try tableView.performBatchUpdates(changes, resultingIn: new)
    #expect(tableView.snapshot == new)
}

/// A data source for the sketch's `adapter`.
private struct ReadmeDataSource: ListDataSource {
    func identifiers() async throws -> [String] { [] }
    func sectionTitle(for id: String) -> String? { nil }
    func summary(for id: String) -> String? { nil }
    func item(for id: String) async throws -> String { id }
}

/// The sketch's `render`.
private func render(_ changes: LogChanges, _ snapshot: LogSnapshot) {}

/// The README's "The log" sketch, compiled only: it creates `inbox.lmdb` in the working
/// directory.
@MainActor
private func readmeLogSketch(snapshot: LogSnapshot, next: LogSnapshot, adapter: ListAdapter<ReadmeDataSource>)
    async throws
{
    let log = try ChangeLog(path: "inbox.lmdb")  // a directory; created when missing
    let appended = try await log.append(snapshot, meta: ["commit": "3f2a9c"])
    _ = try await log.append(next, expectedLatest: appended.revision)  // conflict error if another writer won

    for try await event in log.subscribe(from: 1) {  // catch-up, then live, no gap, no duplicate
        switch event {
        case .revision(let record): render(record.changes, record.snapshot)
        case .caughtUp(let latest): print("caught up at", latest)
        }
        // The sequence never ends by itself: it waits for the next append until you `break` out of
        // the loop (`if case .caughtUp = event { break }`) or cancel its task.
        if case .caughtUp = event { break }
    }

    let report = try await log.verify()  // names the first failing revision
    var tableView = UIKitStrictRenderer<String, String>()  // UIKit's rules, driven as UIKit code must
    let replayed = try await log.replay(into: &tableView)  // the first refused batch, if any

    let recorder = ChangeLogRecorder(adapter: adapter, log: log)  // every adapter update, appended in order
    _ = (report, replayed, recorder)
}

/// The README's crash-report test, compiled but not run: it reproduces a crash from a fixture
/// that a user exports from their own log. Its `@Test` attribute is the one part of the README
/// left out here (``theReadmeBlocksAreTheseOnes()`` reads `@Test func` as `func`), so that it is
/// not collected as a test of this package.
func crashReport1234() throws {
    let text = try String(contentsOfFile: "Tests/Fixtures/crash-1234.jsonl", encoding: .utf8)
    let records = try text.split(separator: "\n").map {
        try RevisionRecord(jsonLine: $0.utf8)
    }
    var tableView = StrictListView<String, String>()
    tableView.reloadData(records[0].snapshot)
    for record in records.dropFirst() {
        // Throws UIKit's NSInternalInconsistencyException message for the bad batch.
        try tableView.performBatchUpdatesDeferringReconfigures(record.changes, resultingIn: record.snapshot)
    }
}

@Test("every Swift block of the README is compiled in this file, line by line")
func theReadmeBlocksAreTheseOnes() throws {
    let here = URL(fileURLWithPath: #filePath)
    let readme = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")
    let blocks = ReadmeBlocks.swiftBlocks(in: try String(contentsOf: readme, encoding: .utf8))
    #expect(blocks.count == 3)
    let compiled = ReadmeBlocks.lines(of: try String(contentsOf: here, encoding: .utf8))
    var position = compiled.startIndex
    for (number, block) in blocks.enumerated() {
        for line in ReadmeBlocks.lines(of: block) where !line.hasPrefix("import ") {
            // The crash-report test is compiled here as a plain function (see above).
            let line = line.hasPrefix("@Test func ") ? String(line.dropFirst("@Test ".count)) : line
            guard let found = compiled[position...].firstIndex(of: line) else {
                Issue.record("README Swift block \(number + 1): not in ReadmeSnippetTests.swift, in order: \(line)")
                return
            }
            position = found + 1
        }
    }
}

/// Reading Swift blocks out of Markdown.
private enum ReadmeBlocks {
    /// The text of every block fenced by "```swift" and "```".
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The lines of `text` that are not blank, trimmed, with each run of spaces as one, so that
    /// indentation and the spacing before a comment (which the formatter owns) do not count.
    static func lines(of text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
    }
}
