import Foundation

/// Damage done to a log's data file byte by byte, behind LMDB's back, as a faulty disk or a
/// stray write would: what LMDB's own API cannot do, such as changing a key in place.
///
/// A node of an LMDB leaf page is its data size (two 16-bit halves, low first), its flags (2
/// bytes), its key size (2 bytes, here 8), its key and its data; a revision record starts with
/// its version, 1, and flags, 0. That sequence after a revision's key is found only in the
/// revisions' leaves: the chunk with the same number starts with its kind and a count that is
/// never 0. LMDB leaves older copies of a page in free pages, so every copy is damaged: which
/// one is live does not matter.
package enum FileDamage {
    /// Rewrites the key of revision 1's record, in the data file of the log at `path`, to read
    /// `renumbered`. Returns how many copies of its node changed.
    package static func renumberFirstRevisionKey(ofLogAt path: String, to renumbered: UInt64) throws -> Int {
        try damageNodes(ofRevision: 1, ofLogAt: path) { bytes, key in
            bytes.replaceSubrange(key..<key + 8, with: bigEndian(renumbered))
        }
    }

    /// Sets the high 16 bits of the stored size of `revision`'s record, in the data file of the
    /// log at `path`, to `high`: 0x0020 makes a small value reach 2 MB, past the end of a small
    /// file; 0x4000, 1 GB, past the end of a small map too. Returns how many copies of its node
    /// changed. The log may be open: a write to the file shows in LMDB's shared map at once.
    package static func inflateRecordSize(ofRevision revision: UInt64, ofLogAt path: String, high: UInt16 = 0x0020)
        throws -> Int
    {
        try damageNodes(ofRevision: revision, ofLogAt: path) { bytes, key in
            bytes[key - 6] = UInt8(high & 0xFF)
            bytes[key - 5] = UInt8(high >> 8)
        }
    }

    /// Calls `damage` with the file's bytes and the offset of the key of each copy of
    /// `revision`'s node, then writes the bytes back (a write LMDB's shared map shows at once).
    private static func damageNodes(
        ofRevision revision: UInt64, ofLogAt path: String, _ damage: (inout [UInt8], Int) -> Void
    ) throws -> Int {
        let url = URL(fileURLWithPath: path).appendingPathComponent("data.mdb")
        var bytes = [UInt8](try Data(contentsOf: url))
        let pattern: [UInt8] = [8, 0] + bigEndian(revision) + [1, 0]
        var changed = 0
        for index in 8..<max(8, bytes.count - pattern.count + 1)
        where bytes[index..<index + pattern.count].elementsEqual(pattern) {
            damage(&bytes, index + 2)
            changed += 1
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try file.write(contentsOf: bytes)
        return changed
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
