import Hummingbird

/// The pieces of a `text/event-stream` as the WHATWG HTML standard defines them, each ending
/// with the blank line that dispatches it.
enum ServerSentEvents {
    /// `id: <revision>`, `event: revision`, `data: <line>`: one revision. `line` holds no newline
    /// (the interchange format's lines never do), so it is one `data:` field.
    static func revision(_ revision: UInt64, line: String) -> ByteBuffer {
        ByteBuffer(string: "id: \(revision)\nevent: revision\ndata: \(line)\n\n")
    }

    /// `retry: <milliseconds>`: how long a client waits before reconnecting.
    static func retry(_ interval: Duration) -> ByteBuffer {
        let milliseconds = interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000
        return ByteBuffer(string: "retry: \(milliseconds)\n\n")
    }

    /// `: <text>`: a comment, which clients ignore; `text`'s line breaks become spaces.
    static func comment(_ text: String) -> ByteBuffer {
        let oneLine = text.map { $0.isNewline ? " " : String($0) }.joined()
        return ByteBuffer(string: ": \(oneLine)\n\n")
    }

    /// The comment sent when a stream has been idle for the keep-alive interval.
    static let keepAlive = comment("keep-alive")

    /// The comment that ends a live stream whose subscriber left more than `limit` bytes of
    /// events waiting.
    static func overflow(limit: Int) -> ByteBuffer {
        comment(
            "closed: this subscriber reads too slowly; more than \(limit) bytes of events were waiting for it; "
                + "reconnect with Last-Event-ID to resume after the last revision received")
    }

    /// The comment that ends a stream whose revisions could not be read from the log.
    static func readFailure(_ error: any Error) -> ByteBuffer {
        comment("closed: the log could not be read: \(error)")
    }
}
