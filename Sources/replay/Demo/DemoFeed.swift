import ListAdapter
import Synchronization

/// The demo's embedded default: a chat inbox that changes the way real ones do. Messages
/// arrive in "Today", get edited and deleted, are pinned into "Pinned" and unpinned, the day
/// rolls over ("Today" becomes "Yesterday", "Yesterday" becomes "Earlier"), and a "Drafts"
/// section comes and goes. Each section's summary counts its messages ("3 messages"), so
/// the history holds section updates too. Everything is driven by a fixed seed, so every run
/// records the same history.
final class DemoFeed: ListDataSource, Sendable {
    typealias ItemID = String
    typealias Summary = String
    typealias Item = String
    typealias SectionSummary = String

    private struct Message {
        var id: String
        var section: String
        var text: String
        var edits: Int
    }

    private struct State {
        var messages: [Message] = []
        var next = 1
        var rng: DemoRandom
        var day = 0
    }

    private let state: Mutex<State>

    init(seed: UInt64) {
        state = Mutex(State(rng: DemoRandom(seed: seed)))
    }

    func identifiers() async throws -> [String] {
        state.withLock { state in
            let order = ["Pinned", "Drafts", "Today", "Yesterday", "Earlier"]
            return order.flatMap { title in state.messages.filter { $0.section == title }.map(\.id) }
        }
    }

    func sectionTitle(for id: String) -> String? {
        state.withLock { state in state.messages.first { $0.id == id }?.section }
    }

    func sectionSummary(forTitle title: String) -> String? {
        let count = state.withLock { state in state.messages.count { $0.section == title } }
        return count == 1 ? "1 message" : "\(count) messages"
    }

    func summary(for id: String) -> String? {
        state.withLock { state in
            guard let message = state.messages.first(where: { $0.id == id }) else { return nil }
            return message.edits == 0 ? message.text : "\(message.text) (edited \(message.edits)x)"
        }
    }

    func item(for id: String) async throws -> String {
        summary(for: id) ?? id
    }

    /// Applies one realistic change and returns a few words about it, for the revision's meta.
    func step() -> String {
        state.withLock { state in
            let roll = state.messages.count < 6 ? 0 : state.rng.next(100)
            switch roll {
            case 0..<35:
                let count = 1 + state.rng.next(3)
                for _ in 0..<count {
                    let id = "msg-\(state.next)"
                    state.next += 1
                    let text = Self.phrases[state.rng.next(Self.phrases.count)]
                    state.messages.insert(Message(id: id, section: "Today", text: text, edits: 0), at: 0)
                }
                return "\(count) new message\(count == 1 ? "" : "s")"
            case 35..<55:
                let index = state.rng.next(state.messages.count)
                state.messages[index].edits += 1
                return "edited \(state.messages[index].id)"
            case 55..<67:
                let index = state.rng.next(state.messages.count)
                let removed = state.messages.remove(at: index)
                return "deleted \(removed.id)"
            case 67..<77:
                let candidates = state.messages.indices.filter { state.messages[$0].section != "Pinned" }
                guard let index = candidates.isEmpty ? nil : candidates[state.rng.next(candidates.count)] else {
                    return "nothing to pin"
                }
                var message = state.messages.remove(at: index)
                message.section = "Pinned"
                state.messages.insert(message, at: 0)
                return "pinned \(message.id)"
            case 77..<84:
                guard let index = state.messages.firstIndex(where: { $0.section == "Pinned" }) else {
                    return "nothing to unpin"
                }
                state.messages[index].section = "Earlier"
                return "unpinned \(state.messages[index].id)"
            case 84..<90:
                // Reorder by activity: a message bumps to the top of its section.
                let index = state.rng.next(state.messages.count)
                let message = state.messages.remove(at: index)
                state.messages.insert(message, at: 0)
                return "bumped \(message.id)"
            case 90..<95:
                if let index = state.messages.firstIndex(where: { $0.section == "Drafts" }) {
                    state.messages[index].section = "Today"
                    return "sent draft \(state.messages[index].id)"
                }
                let id = "msg-\(state.next)"
                state.next += 1
                state.messages.insert(Message(id: id, section: "Drafts", text: "draft", edits: 0), at: 0)
                return "started draft \(id)"
            default:
                state.day += 1
                for index in state.messages.indices {
                    switch state.messages[index].section {
                    case "Today": state.messages[index].section = "Yesterday"
                    case "Yesterday": state.messages[index].section = "Earlier"
                    default: break
                    }
                }
                // Old messages are archived: the inbox keeps the newest 60 outside Pinned.
                var kept = 0
                state.messages.removeAll { message in
                    guard message.section != "Pinned" else { return false }
                    kept += 1
                    return kept > 60
                }
                return "day \(state.day) began"
            }
        }
    }

    private static let phrases = [
        "Lunch at noon?", "Deploy is green", "Can you review #42?", "Meeting moved to 3pm", "New build is up",
        "Thanks!", "Call me when free", "Tickets booked", "The report is attached", "Standup in 5",
    ]
}

/// The demo's fixed-seed randomness, so every run records the same history.
struct DemoRandom: Sendable {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(_ bound: Int) -> Int {
        Int(generator.next() % UInt64(max(bound, 1)))
    }
}
