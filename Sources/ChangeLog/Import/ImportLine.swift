import ListAdapter

/// One line of an import: a snapshot line (the interchange format's snapshot, with optional
/// `meta`), or a revision line as `replay export` writes it, so that an export imports back.
///
/// A revision line gives its `snapshot` and `meta`. Its number, time and changes are not
/// taken: the log numbers the revision after its latest, stamps it with the time of the
/// import, and computes the changes from the revision before.
struct ImportLine: Decodable {
    /// The snapshot and its annotations.
    var annotated: AnnotatedSnapshot<String, String>

    private enum CodingKeys: String, CodingKey { case sections, snapshot, meta }

    /// Decodes a snapshot line, or a revision line: an object with `snapshot` and without
    /// `sections`.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard !container.contains(.sections), container.contains(.snapshot) else {
            annotated = try AnnotatedSnapshot(from: decoder)
            return
        }
        annotated = AnnotatedSnapshot(
            meta: try container.decodeIfPresent([String: String].self, forKey: .meta) ?? [:],
            snapshot: try container.decode(ListSnapshot<String, String>.self, forKey: .snapshot))
    }
}
