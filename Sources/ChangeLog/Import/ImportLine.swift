import Foundation
import ListAdapter

/// One line of an import: a snapshot line (the interchange format's snapshot, with optional
/// `meta`), or a revision line as `replay export` writes it, so that an export imports back.
///
/// A revision line gives its `snapshot` and `meta`. Its number, time and changes are not
/// taken: the log numbers the revision after its latest, stamps it with the time of the
/// import, and computes the changes from the revision before.
///
/// A line with both `sections` and `snapshot` is refused (``SnapshotAndRevisionLine``): taking
/// either one would be a guess.
struct ImportLine: Decodable {
    /// The snapshot and its annotations.
    var annotated: AnnotatedSnapshot<String, String>

    fileprivate enum CodingKeys: String, CodingKey { case sections, snapshot, meta }

    /// Decodes a snapshot line, or a revision line: an object with `snapshot` and without
    /// `sections`.
    ///
    /// - Throws: ``SnapshotAndRevisionLine`` for an object with both, whatever they hold.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try SnapshotAndRevisionLine.check(container)
        guard container.contains(.snapshot) else {
            annotated = try AnnotatedSnapshot(from: decoder)
            return
        }
        annotated = AnnotatedSnapshot(
            meta: try container.decodeIfPresent([String: String].self, forKey: .meta) ?? [:],
            snapshot: try container.decode(ListSnapshot<String, String>.self, forKey: .snapshot))
    }
}

/// A snapshot file of `replay diff`: one snapshot with optional `meta`, read as an import reads
/// a snapshot line, with the same checks and the same messages. A revision line is not a
/// snapshot file (it has no `sections`), and an object holding a revision line's `snapshot`
/// beside its `sections` is refused as an import refuses it.
package struct SnapshotDocument: Decodable {
    /// The snapshot and its annotations.
    package var annotated: AnnotatedSnapshot<String, String>

    /// Decodes a snapshot with optional `meta`.
    ///
    /// - Throws: ``SnapshotAndRevisionLine`` for an object that also holds `snapshot`.
    package init(from decoder: any Decoder) throws {
        try SnapshotAndRevisionLine.check(decoder.container(keyedBy: ImportLine.CodingKeys.self))
        annotated = try AnnotatedSnapshot(from: decoder)
    }

    /// Decodes the snapshot file `json` through ``CheckedJSON``, refusing a repeated key
    /// wherever an import refuses it (`meta`'s keys among them).
    package static func decode(_ json: Data) throws(CheckedJSON.Problem) -> AnnotatedSnapshot<String, String> {
        try CheckedJSON.decode(Self.self, from: json, reading: .importLine).annotated
    }
}

/// An object holding both a snapshot line's `sections` and a revision line's `snapshot`: it
/// says two things about its snapshot, and taking either one would be a guess, so it is refused
/// whatever the two hold, as a key named twice is.
struct SnapshotAndRevisionLine: Error, CustomStringConvertible {
    /// Throws ``SnapshotAndRevisionLine`` when `container` holds both `sections` and `snapshot`.
    fileprivate static func check(_ container: KeyedDecodingContainer<ImportLine.CodingKeys>) throws {
        if container.contains(.sections), container.contains(.snapshot) { throw Self() }
    }

    /// What is wrong, in the words of ``CheckedJSON``'s other problems.
    var description: String {
        #"the object holds both "sections", as a snapshot line does, and "snapshot", as a revision "#
            + "line does; it may hold one of the two"
    }
}
