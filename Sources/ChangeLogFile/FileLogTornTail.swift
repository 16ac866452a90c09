/// A tail found after a log file's last committed transaction: bytes of a write that was cut
/// short (a killed process, a power loss), or garbage appended to the file. Written in a
/// durable mode, it holds no revision that was ever returned to its appender as written.
/// Written with `ChangeLog.Durability.noSync`, after a power loss it starts at the first
/// transaction that did not reach the disk whole, and may hold later ones that did: what
/// followed the last `flush()` (the layout's documentation, `FileLogLayout`, says why).
///
/// A writer's open cuts it away (the file ends at ``offset`` after it); a reader's open leaves
/// the file as it is and reads up to ``offset`` (the tail may be an append in progress).
public struct FileLogTornTail: Hashable, Sendable, CustomStringConvertible {
    /// Where the tail starts: the end of the last committed transaction.
    public var offset: UInt64
    /// The tail's length in bytes.
    public var length: UInt64
    /// Whether this open cut it away.
    public var wasCut: Bool

    /// Creates the description of a tail.
    public init(offset: UInt64, length: UInt64, wasCut: Bool) {
        self.offset = offset
        self.length = length
        self.wasCut = wasCut
    }

    /// "a torn tail of N bytes at offset O, cut away" (or "ignored").
    public var description: String {
        "a torn tail of \(length) bytes at offset \(offset), " + (wasCut ? "cut away" : "ignored")
    }
}
