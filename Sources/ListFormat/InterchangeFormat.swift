import ListAdapter

/// Reads the interchange format (FORMAT.md): import lines (a snapshot line, or a revision line
/// of `replay export`, of which an import takes the snapshot and `meta`, and on request what it
/// recorded: `changes`, `revision`, `time`), snapshot files and
/// whole revision lines. Each read is one strict pass over UTF-8 bytes that returns the value or
/// the first problem in input order as a ``FormatError`` (line, column, path).
///
/// What every read refuses: text that is not JSON (RFC 8259), wherever it is, inside values the
/// schema ignores too; text that is not UTF-8 (UTF-16 and UTF-32 named as such); a string with
/// a lone UTF-16 surrogate escape; nesting deeper than 512 arrays and objects; a key of the
/// schema named twice in one object (`"id"` and `"\u0069d"` are one key; `meta`'s keys compare as
/// Swift strings, up to canonical equivalence); a field missing or of another type; a title or
/// an id named twice in a snapshot. Unknown keys are ignored, whatever they hold, repeated or
/// not. A UTF-8 byte order mark may start the text.
public enum InterchangeFormat {
    /// The snapshot and `meta` of one import line: a snapshot line, or a revision line (its
    /// `snapshot` and `meta`). A line holding both `sections` and `snapshot` is refused.
    ///
    /// With `duplicates` `DuplicatePolicy.keepFirst` a repeated title or id is
    /// not an error: the line's snapshot keeps the first occurrence of each
    /// (`ListSnapshot.keepingFirstOccurrences(in:)`), and its `meta` records what was dropped
    /// under ``droppedDuplicatesKey``. A line that drops something while its own `meta` already
    /// has that key is refused, naming the key: the record would overwrite the line's own value.
    /// A line that drops nothing keeps its `meta` as it is, that key included, so that an
    /// export of such revisions imports again with the same option.
    ///
    /// - Parameters:
    ///   - line: the line's bytes, without its newline.
    ///   - previous: the snapshot of the line before, whose strings the result shares where they
    ///     hold the same bytes (consecutive lines share most of theirs); it changes nothing else.
    ///   - duplicates: whether a repeated title or id is an error (the default) or is dropped.
    ///   - recorded: whether to read what a revision line recorded besides its snapshot and
    ///     `meta` (``AnnotatedSnapshot/recorded``): its `changes`, with the same checks as
    ///     ``readRevisionLine(_:)``, and its `revision` and `time` when present; a line with no
    ///     `changes` has none. A line that drops a duplicate has none either: its changes
    ///     describe the snapshot before the drop.
    /// - Complexity: O(*n*) for *n* bytes.
    public static func readImportLine(
        _ line: UnsafeBufferPointer<UInt8>, previous: ListSnapshot<String, String, String>? = nil,
        duplicates: DuplicatePolicy = .refuse, recorded: Bool = false
    ) throws(FormatError) -> AnnotatedSnapshot<String, String, String> {
        try read(line) { (reader) throws(ReadFailure) in
            let content = try reader.line(previous: previous, recorded: recorded)
            guard duplicates == .keepFirst else {
                var annotated = try snapshot(content, reader: reader)
                annotated.recorded = content.recorded
                return annotated
            }
            return try keepingFirstOccurrences(content, reader: reader)
        }
    }

    /// ``readImportLine(_:previous:duplicates:recorded:)`` for a line held in any collection of bytes.
    public static func readImportLine(
        _ line: some Collection<UInt8>, duplicates: DuplicatePolicy = .refuse, recorded: Bool = false
    ) throws(FormatError) -> AnnotatedSnapshot<String, String, String> {
        try withBuffer(line) { (buffer) throws(FormatError) in
            try readImportLine(buffer, duplicates: duplicates, recorded: recorded)
        }
    }

    /// The snapshot of a snapshot file (`replay diff`'s inputs): a snapshot line, read with the
    /// same checks (its `meta` too), possibly over several lines. A revision line is not a
    /// snapshot file: it has no `sections`.
    public static func readSnapshotFile(_ text: some Collection<UInt8>) throws(FormatError)
        -> AnnotatedSnapshot<String, String, String>
    {
        try withBuffer(text) { (buffer) throws(FormatError) in
            try read(buffer) { (reader) throws(ReadFailure) in
                let objectStart = reader.position
                let content = try reader.line(previous: nil)
                if content.fromRevision {
                    reader.position = objectStart
                    reader.skipWhitespace()
                    throw reader.missingField("sections", objectStart: reader.position)
                }
                return try snapshot(content, reader: reader)
            }
        }
    }

    /// A whole revision line as `replay export` writes it.
    public static func readRevisionLine(_ line: some Collection<UInt8>) throws(FormatError) -> RevisionLine {
        try withBuffer(line) { (buffer) throws(FormatError) in
            try read(buffer) { (reader) throws(ReadFailure) in try reader.revisionLine() }
        }
    }

    // MARK: Steps shared by the reads

    /// Runs `body` over `bytes` after refusing text that is not UTF-8, turning its failure into
    /// a ``FormatError``.
    private static func read<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout FormatReader) throws(ReadFailure) -> T
    ) throws(FormatError) -> T {
        if let encoding = otherEncoding(bytes) { throw FormatError(notUTF8: encoding) }
        var reader = FormatReader(bytes)
        do throws(ReadFailure) {
            return try body(&reader)
        } catch {
            throw FormatError(error, in: bytes)
        }
    }

    /// The snapshot of a line's content: its titles and ids must be unique.
    private static func snapshot(_ content: FormatReader.LineContent, reader: FormatReader) throws(ReadFailure)
        -> AnnotatedSnapshot<String, String, String>
    {
        do throws(ListSnapshotError) {
            return AnnotatedSnapshot(meta: content.meta, snapshot: try ListSnapshot(sections: content.sections))
        } catch {
            // Named at the second of the two, found again (the rare case: no cost on the usual path).
            var path = content.sectionsPath
            path.append(.index(error.secondPosition[0]))
            if error.secondPosition.count == 2 {
                path += [.key("items"), .index(error.secondPosition[1]), .key("id")]
            } else {
                path.append(.key("title"))
            }
            var failure = reader.schema(error.description, at: reader.offset(of: path))
            failure.reversedPath = path.reversed()
            throw failure
        }
    }

    /// `"UTF-16"` or `"UTF-32"` when `bytes` start as text in one of them does: with its byte
    /// order mark, or with NUL bytes where its first character, ASCII in JSON, puts them.
    private static func otherEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let start = Array(bytes.prefix(4))
        if start.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return "UTF-32"
        }
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        switch start.map({ $0 == 0x00 }) {
        case [true, true, true, false], [false, true, true, true]: return "UTF-32"
        case [true, false, true, false], [false, true, false, true]: return "UTF-16"
        default: return nil
        }
    }

    /// Calls `body` with `bytes` as a buffer, copying them only when they are not contiguous.
    private static func withBuffer<T>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(FormatError) -> T
    ) throws(FormatError) -> T {
        let result: Result<T, FormatError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(FormatError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { (buffer) throws(FormatError) in try body(buffer) }
    }
}
