import ChangeLog
import Foundation

/// A digest of what a revision holds (its number, time, metadata and snapshot), printed by a
/// worker that received the revision and recomputed by a test from the stored record: equal
/// digests mean the subscriber got the stored content.
package enum RecordDigest {
    /// FNV-1a (64 bits, in hexadecimal) over the revision, time, sorted metadata and the
    /// snapshot's JSON with sorted keys.
    package static func of(_ record: RevisionRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var bytes = Array("\(record.revision) \(record.millisecondsSince1970)\n".utf8)
        bytes += try encoder.encode(record.meta)
        bytes += try encoder.encode(record.snapshot)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
