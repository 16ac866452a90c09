import ChangeLog
import Foundation
import ListAdapter
import Testing

// A consumer's program, end to end, written only against the public API: a main-actor model
// as the adapter's source, typed identifiers, a recorder, a subscription and verification, on a
// real log in a temporary directory.

/// A to-do as an app keeps it.
private struct Todo: Sendable {
    var id: Int
    var title: String
    var done = false
}

/// The app's model: main-actor state in plain stored properties, no lock, no `nonisolated`.
@MainActor
private final class TodoStore: ListSource {
    private(set) var todos: [Todo] = []
    private var nextID = 1
    private var invalidator: ListInvalidator?

    func add(_ title: String) {
        todos.append(Todo(id: nextID, title: title))
        nextID += 1
        invalidator?.invalidate()
    }

    func complete(_ id: Int) {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
        todos[index].done = true
        invalidator?.invalidate()
    }

    func contents() -> ListContents<Int, String, Never> {
        ListContents(todos, id: \.id, sectionTitle: { $0.done ? "Done" : "To do" }, summary: \.title)
    }

    func item(for id: Int) throws -> Todo {
        guard let todo = todos.first(where: { $0.id == id }) else { throw CocoaError(.fileNoSuchFile) }
        return todo
    }

    func attach(_ invalidator: ListInvalidator) { self.invalidator = invalidator }
}

/// A contact book keyed by UUID, whose summaries are integers (unread messages).
@MainActor
private final class ContactStore: ListSource {
    var contacts: [(id: UUID, group: String, unread: Int)] = []

    func contents() -> ListContents<UUID, Int, Never> {
        ListContents(contacts.map { ($0.id, $0.group, $0.unread) }, id: \.0, sectionTitle: \.1, summary: \.2)
    }

    func item(for id: UUID) -> String { id.uuidString }
}

/// A temporary directory, removed when the value is released.
private final class ScratchDirectory {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ConsumerTests-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@MainActor
@Suite("A consumer's program, end to end")
struct ConsumerTests {
    @Test("main-actor model with Int ids, recorder, subscription and verify: one revision per awaited edit")
    func todoProgram() async throws {
        let directory = try ScratchDirectory()
        do {
            let log = try ChangeLog(path: directory.path + "/todos.lmdb")
            let store = TodoStore()
            let adapter = ListAdapter(dataSource: store)
            let recorder = ChangeLogRecorder(adapter: adapter, log: log) { update in
                ["generation": String(update.generation)]
            }

            // A subscriber, typed, from the first revision: catch-up, then live.
            let subscriber = Task {
                var seen: [ListSnapshot<Int, String, Never>] = []
                for try await event in log.subscribe(from: 1) {
                    guard case .revision(let record) = event else { continue }
                    seen.append(try record.snapshot(as: Int.self, summary: String.self))
                    if seen.count == 6 { break }
                }
                return seen
            }

            // Five edits, each waited for: five updates, five revisions.
            for title in ["Milk", "Eggs", "Bread", "Call Bob", "Post"] {
                store.add(title)
                await adapter.invalidateAndWait()
            }
            try await recorder.waitUntilRecorded()
            #expect(try log.latestRevision == 5)
            #expect(recorder.lastRecording?.storesAdapterChanges == true)

            // Two edits in one main-actor job merge into one update: one revision.
            store.complete(1)
            store.complete(3)
            await adapter.waitUntilIdle()
            try await recorder.waitUntilRecorded()
            #expect(try log.latestRevision == 6)

            let seen = try await subscriber.value
            #expect(seen.count == 6)
            #expect(seen[4].sections.map(\.items.count) == [5])
            #expect(seen.last == adapter.snapshot)
            // Sections come in the order of their first element: to-do 1 is done.
            #expect(seen.last?.sections.map(\.title) == ["Done", "To do"])
            #expect(seen.last?.sections[0].items == [.init(id: 1, summary: "Milk"), .init(id: 3, summary: "Bread")])

            let last = try log.record(at: 6)
            #expect(last.meta == ["generation": "6"])
            let changes = try last.changes(as: Int.self, summary: String.self)
            #expect(changes.insertedSections.map(\.section.title) == ["Done"])
            #expect(changes.deletedItems == [ItemPath(section: 0, item: 0), ItemPath(section: 0, item: 2)])
            #expect(try log.snapshot(at: 2) == snapshot([("To do", ["1:Milk", "2:Eggs"])]))
            let report = try await log.verify()
            #expect(report.isValid)
            #expect(report.revisionsChecked == 6)
            #expect(try await adapter.item(for: 4)?.title == "Call Bob")
        }
    }

    @Test("main-actor model with UUID ids and Int summaries, recorded, read back typed and verified")
    func contactProgram() async throws {
        let directory = try ScratchDirectory()
        do {
            let log = try ChangeLog(path: directory.path + "/contacts.lmdb")
            let store = ContactStore()
            let adapter = ListAdapter(dataSource: store)
            let recorder = ChangeLogRecorder(adapter: adapter, log: log)
            let (ada, bob) = (UUID(), UUID())

            store.contacts = [(ada, "Family", 0), (bob, "Work", 2)]
            await adapter.invalidateAndWait()
            store.contacts[0].unread = 5
            store.contacts.swapAt(0, 1)
            await adapter.invalidateAndWait()
            try await recorder.waitUntilRecorded()

            var snapshots: [ListSnapshot<UUID, Int, Never>] = []
            for try await event in log.subscribe(from: 1) {
                if case .revision(let record) = event {
                    snapshots.append(try record.snapshot(as: UUID.self, summary: Int.self))
                }
                if case .caughtUp = event { break }
            }
            #expect(snapshots.count == 2)
            #expect(snapshots.last == adapter.snapshot)
            #expect(snapshots.last?.sections.map(\.title) == ["Work", "Family"])
            #expect(try log.snapshot(at: 2).sections[1].items == [.init(id: ada.uuidString, summary: "5")])
            let changes = try log.record(at: 2).changes(as: UUID.self, summary: Int.self)
            #expect(changes.updatedItems.map(\.summary) == [5])
            #expect(try await log.verify().isValid)
            // Read as the wrong type, the error names the revision and the value.
            let error = try #require(throws: ChangeLogError.self) {
                try log.record(at: 1).snapshot(as: Int.self, summary: Int.self)
            }
            #expect(error.revision == 1)
            #expect(error.message.contains(ada.uuidString))
        }
    }
}
