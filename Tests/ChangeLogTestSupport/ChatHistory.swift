import ChangeLog
import ChangeLogTools
import ListAdapter

/// A long, real-looking history for reduction tests, after the demo's chat inbox: messages
/// arrive in "Today", are edited, deleted, pinned into "Pinned" and unpinned, bumped, drafted,
/// and the day rolls over ("Today" becomes "Yesterday", "Yesterday" "Earlier", the oldest are
/// archived). A fixed seed gives the same history every time; `forced` replaces the random event
/// of chosen steps.
package struct ChatHistory {
    /// What one step does.
    package enum Event: Hashable, Sendable {
        case newMessages, edit, delete, pin, unpin, unpinAll, bump, draft, newDay
    }

    private struct Message {
        var id: String
        var section: String
        var text: String
        var edits = 0
    }

    private var messages: [Message] = []
    private var next = 1
    private var random: SplitMix64
    private var day = 0

    private static let order = ["Pinned", "Drafts", "Today", "Yesterday", "Earlier"]
    private static let phrases = [
        "Lunch at noon?", "Deploy is green", "Can you review #42?", "Meeting moved to 3pm", "New build is up",
        "Thanks!", "Call me when free", "Tickets booked", "The report is attached", "Standup in 5",
    ]

    /// The revisions of `count` steps from `seed`, numbered from 1, with the diff's changes.
    package static func records(count: Int, seed: UInt64 = 7, forced: [Int: Event] = [:]) -> [RevisionRecord] {
        var history = ChatHistory(random: SplitMix64(seed: seed))
        var previous = LogSnapshot()
        var records: [RevisionRecord] = []
        for step in 1...count {
            let event = forced[step] ?? history.randomEvent()
            let words = history.apply(event)
            let snapshot = history.snapshot
            records.append(
                RevisionRecord(
                    revision: UInt64(step), millisecondsSince1970: 1_795_000_000_000 + Int64(step) * 1000,
                    meta: ["event": words, "step": String(step)], snapshot: snapshot,
                    changes: previous.changes(to: snapshot)))
            previous = snapshot
        }
        return records
    }

    private mutating func number(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    private mutating func randomEvent() -> Event {
        guard messages.count >= 6 else { return .newMessages }
        switch number(100) {
        case 0..<35: return .newMessages
        case 35..<55: return .edit
        case 55..<67: return .delete
        case 67..<77: return .pin
        case 77..<84: return .unpin
        case 84..<90: return .bump
        case 90..<95: return .draft
        default: return .newDay
        }
    }

    private var snapshot: LogSnapshot {
        let sections = Self.order.compactMap { title -> LogSnapshot.Section? in
            let items = messages.filter { $0.section == title }.map {
                LogSnapshot.Item(id: $0.id, summary: $0.edits == 0 ? $0.text : "\($0.text) (edited \($0.edits)x)")
            }
            return items.isEmpty ? nil : LogSnapshot.Section(title: title, items: items)
        }
        guard let snapshot = try? LogSnapshot(sections: sections) else { preconditionFailure("duplicate id") }
        return snapshot
    }

    private mutating func apply(_ event: Event) -> String {
        switch event {
        case .newMessages:
            let count = 1 + number(3)
            for _ in 0..<count {
                messages.insert(
                    Message(id: "msg-\(next)", section: "Today", text: Self.phrases[number(Self.phrases.count)]), at: 0)
                next += 1
            }
            return "\(count) new"
        case .edit where !messages.isEmpty:
            let index = number(messages.count)
            messages[index].edits += 1
            return "edited \(messages[index].id)"
        case .delete where !messages.isEmpty:
            return "deleted \(messages.remove(at: number(messages.count)).id)"
        case .pin:
            let candidates = messages.indices.filter { messages[$0].section != "Pinned" }
            guard !candidates.isEmpty else { return "nothing to pin" }
            var message = messages.remove(at: candidates[number(candidates.count)])
            message.section = "Pinned"
            messages.insert(message, at: 0)
            return "pinned \(message.id)"
        case .unpin:
            guard let index = messages.firstIndex(where: { $0.section == "Pinned" }) else { return "nothing to unpin" }
            messages[index].section = "Earlier"
            return "unpinned \(messages[index].id)"
        case .unpinAll:
            for index in messages.indices where messages[index].section == "Pinned" {
                messages[index].section = "Earlier"
            }
            return "unpinned all"
        case .bump where !messages.isEmpty:
            let message = messages.remove(at: number(messages.count))
            messages.insert(message, at: 0)
            return "bumped \(message.id)"
        case .draft:
            if let index = messages.firstIndex(where: { $0.section == "Drafts" }) {
                messages[index].section = "Today"
                return "sent draft \(messages[index].id)"
            }
            messages.insert(Message(id: "msg-\(next)", section: "Drafts", text: "draft"), at: 0)
            next += 1
            return "started draft msg-\(next - 1)"
        case .newDay:
            day += 1
            for index in messages.indices {
                if messages[index].section == "Today" {
                    messages[index].section = "Yesterday"
                } else if messages[index].section == "Yesterday" {
                    messages[index].section = "Earlier"
                }
            }
            var kept = 0
            messages.removeAll { message in
                guard message.section != "Pinned" else { return false }
                kept += 1
                return kept > 60
            }
            return "day \(day)"
        case .edit, .delete, .bump:
            return "nothing"
        }
    }
}

/// A renderer with a bug that needs two batches in a row: it corrupts its state when a batch moves
/// an item into a section that the previous batch inserted. The first revision is its initial
/// load (a reload), not a batch.
package enum DriftingRenderer {
    /// The offset of the first revision whose batch corrupts the renderer, or `nil`.
    package static func corruption(in revisions: [(snapshot: LogSnapshot, changes: LogChanges)]) -> Int? {
        var insertedByLastBatch: Set<String> = []
        for offset in revisions.indices.dropFirst() {
            let (old, new) = (revisions[offset - 1].snapshot, revisions[offset].snapshot)
            let changes = revisions[offset].changes
            for move in changes.movedItems {
                guard let target = new.title(ofSection: move.to.section), insertedByLastBatch.contains(target),
                    old.title(ofSection: move.from.section) != target
                else { continue }
                return offset
            }
            insertedByLastBatch = Set(changes.insertedSections.map(\.section.title))
        }
        return nil
    }

    /// ``corruption(in:)`` of a history.
    package static func corruption(in history: ReducibleHistory) -> Int? {
        corruption(in: history.revisions.map { ($0.snapshot, $0.changes) })
    }

    /// The steps forced into a ``ChatHistory`` to seed the bug at `step`: every message unpinned,
    /// then two pins in a row (the first inserts "Pinned", the second moves a message into it).
    package static func seed(at step: Int) -> [Int: ChatHistory.Event] {
        [step: .unpinAll, step + 1: .pin, step + 2: .pin]
    }
}
