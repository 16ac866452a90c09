import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

/// A feed whose sections the test sets as given: titles and identifiers may repeat.
@MainActor
private final class RepeatingFeed: ListSource {
    var sections: [ListSnapshot<String, String, String>.Section] = []

    func contents() -> ListContents<String, String, String> {
        ListContents(sections: sections)
    }

    func item(for id: String) -> String { id }
}

@MainActor
@Suite("Recorder: duplicates an adapter dropped")
struct RecorderDuplicatesTests {
    private func section(_ title: String, _ ids: [String]) -> ListSnapshot<String, String, String>.Section {
        .init(title: title, items: ids.map { .init(id: $0, summary: nil) })
    }

    @Test("a keepFirst adapter's dropped duplicates are recorded in the revision's meta, as import writes them")
    func recordsDroppedDuplicates() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let feed = RepeatingFeed()
        let adapter = ListAdapter(dataSource: feed, duplicatePolicy: .keepFirst)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { ["generation": String($0.generation)] }

        feed.sections = [section("Today", ["a", "b", "a"]), section("Earlier", ["c"]), section("Today", ["d"])]
        await adapter.invalidateAndWait()
        feed.sections = [section("Today", ["a", "b"])]
        await adapter.invalidateAndWait()
        recorder.nextMeta = [InterchangeFormat.droppedDuplicatesKey: "mine"]
        feed.sections = [section("Today", ["a", "a"])]
        await adapter.invalidateAndWait()
        try await recorder.waitUntilRecorded()

        let key = InterchangeFormat.droppedDuplicatesKey
        let recorded = try log.record(at: 1).meta[key]
        #expect(
            recorded
                == #"[{"id":"a","at":[0,2],"first":[0,0]},{"title":"Today","at":[2],"first":[0],"items":1}]"#)
        #expect(try log.record(at: 1).snapshot.identifiers == ["a", "b", "c"])
        #expect(try log.record(at: 2).meta == ["generation": "2"])
        #expect(try log.record(at: 3).meta == ["generation": "3", key: "mine"])
        #expect(try await log.verify().isValid)
    }
}
