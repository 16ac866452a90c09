import ChangeLog
import Foundation
import ListAdapter

/// A to-do as the app keeps it.
struct Todo: Sendable {
    var id: Int
    var title: String
    var done = false
}

/// The app's model: plain main-actor state, no lock. The adapter reads it once per change.
@MainActor
final class TodoStore: ListSource {
    private(set) var todos: [Todo] = []
    private var invalidator: ListInvalidator?

    func add(_ id: Int, _ title: String) {
        todos.append(Todo(id: id, title: title))
        invalidator?.invalidate()
    }

    func complete(_ id: Int) {
        if let index = todos.firstIndex(where: { $0.id == id }) { todos[index].done = true }
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

let path = CommandLine.arguments.dropFirst().first ?? "todos.lmdb"
let log = try ChangeLog(path: path)  // a directory, created when missing
let store = TodoStore()
let adapter = ListAdapter(dataSource: store)
let recorder = ChangeLogRecorder(adapter: adapter, log: log)  // one revision per update

// Follow the log from revision 1: the revisions already there, then each new one.
let follower = Task {
    for try await event in log.subscribe(from: 1) {
        guard case .revision(let record) = event else { continue }
        let todos = try record.snapshot(as: Int.self, summary: String.self)
        print("revision \(record.revision): \(todos.sections.map(\.title)), \(record.changes.counts)")
        if record.revision == 3 { break }
    }
}

// Edits made in one main-actor turn merge into one update; waiting after each keeps them apart.
store.add(1, "Milk")
store.add(2, "Eggs")
await adapter.invalidateAndWait()
store.add(3, "Bread")
await adapter.invalidateAndWait()
store.complete(1)
await adapter.invalidateAndWait()
try await recorder.waitUntilRecorded()
try await follower.value

let report = try await log.verify()  // apply(snapshot[r-1], changes[r]) == snapshot[r] for each r
print(report.isValid ? "verified \(report.revisionsChecked) revisions" : "\(report)")
