import ListAdapter

/// Writes the revision lines of consecutive revisions, writing each snapshot section the
/// previous line's snapshot shares only once.
///
/// A log's consecutive snapshots share their unchanged sections: the same values, with the same
/// storage. The encoder keeps the JSON of the last line's sections; a section of the next
/// snapshot whose bits are identical to one of them (the same title, summary and item storage,
/// hence the same content) is copied from there rather than written item by item. The output is
/// byte for byte that of ``RevisionLine/jsonLine()``, whichever lines came before. It holds one
/// line's worth of sections and their JSON, however many lines it writes.
public struct RevisionLineEncoder {
    /// The snapshots the encoder writes: the log's, with `String` identifiers and summaries.
    public typealias Snapshot = ListSnapshot<String, String, String>

    /// A section of the last snapshot written, with its JSON.
    private struct Written {
        var section: Snapshot.Section
        var json: [UInt8]
    }

    private var written: [Written] = []
    /// Where each section of ``written`` is, by the address of its items' storage.
    private var offsetsByItemStorage: [UnsafeRawPointer: Int] = [:]

    /// How many sections, over every line written, were copied from the line before.
    package private(set) var copiedSections = 0

    /// Creates an encoder that has written nothing yet.
    public init() {}

    /// Appends the line of a revision of these parts to `bytes`, without its line feed: the
    /// UTF-8 bytes of ``RevisionLine/jsonLine()``.
    /// - Complexity: O(*n*) in the size of the output; the sections shared with the previous
    ///   line's snapshot are copied, not written.
    public mutating func appendLine(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String], snapshot: Snapshot,
        changes: ListChanges<String, String, String>, to bytes: inout [UInt8]
    ) {
        var next: [Written] = []
        next.reserveCapacity(snapshot.sections.count)
        JSONWriter.appending(to: &bytes) { writer in
            writer.raw("{")
            RevisionLine.writeHeader(revision: revision, millisecondsSince1970: millisecondsSince1970, into: &writer)
            writer.key("meta")
            writer.stringMap(meta)
            writer.raw(#","snapshot":{"sections":["#)
            for index in snapshot.sections.indices {
                writer.separator(index)
                let section = snapshot.sections[index]
                if let json = json(of: section, at: index) {
                    writer.raw(bytes: json)
                    copiedSections += 1
                    next.append(Written(section: section, json: json))
                } else {
                    let start = writer.bytes.count
                    Snapshot.write(section: section, into: &writer)
                    next.append(Written(section: section, json: Array(writer.bytes[start...])))
                }
            }
            writer.raw(#"]},"changes":"#)
            changes.write(into: &writer)
            writer.raw("}")
        }
        written = next
        offsetsByItemStorage.removeAll(keepingCapacity: true)
        for offset in written.indices {
            offsetsByItemStorage[Self.itemStorage(of: written[offset].section)] = offset
        }
    }

    /// The JSON written for `section` in the last line when that line's snapshot held it (with
    /// the same bits), looked for at the same offset first, then by its items' storage.
    private func json(of section: Snapshot.Section, at index: Int) -> [UInt8]? {
        if index < written.count, Self.identical(written[index].section, section) {
            return written[index].json
        }
        guard let offset = offsetsByItemStorage[Self.itemStorage(of: section)],
            Self.identical(written[offset].section, section)
        else { return nil }
        return written[offset].json
    }

    /// The address of the storage of `section`'s items: the same for two sections that share
    /// it. While ``written`` holds a section, no other array has its storage's address.
    private static func itemStorage(of section: Snapshot.Section) -> UnsafeRawPointer {
        section.items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } ?? UnsafeRawPointer(bitPattern: 1)!
    }

    /// Whether `lhs` and `rhs` have identical bits: then they hold the same title, summary and
    /// item storage. Equal sections built apart are not identical; they are written again.
    private static func identical(_ lhs: Snapshot.Section, _ rhs: Snapshot.Section) -> Bool {
        withUnsafePointer(to: lhs) { left in withUnsafePointer(to: rhs) { right in identicalBits(left, right) } }
    }
}
