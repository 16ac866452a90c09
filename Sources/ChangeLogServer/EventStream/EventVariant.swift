import ChangeLog
import Hummingbird

/// Which revision line a stream's events carry: the whole line, or the line without its
/// snapshot (`changes-only=1`).
enum EventVariant: Hashable, Sendable {
    /// The revision line of the interchange format, snapshot included.
    case full
    /// The revision line without its snapshot: revision, time, meta and changes.
    case changesOnly

    /// The variant `request` asks for.
    static func requested(by request: Request) -> EventVariant {
        ChangesOnly.requested(by: request) ? .changesOnly : .full
    }

    /// `record`'s event in this variant: `id:`, `event: revision`, `data:` and the blank line.
    func event(for record: RevisionRecord) -> ByteBuffer {
        let line =
            switch self {
            case .full: RevisionLines.line(record)
            case .changesOnly: RevisionLines.changesOnlyLine(record)
            }
        return ServerSentEvents.revision(record.revision, line: line)
    }

    /// The changes-only event of a revision read without its snapshot: the bytes of
    /// ``changesOnly``'s event for its full record.
    static func event(for changes: RevisionChanges) -> ByteBuffer {
        ServerSentEvents.revision(changes.revision, line: changes.jsonLine())
    }
}
