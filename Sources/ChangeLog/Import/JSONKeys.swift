/// Which keys of a JSON document a decoder reads, so that a key named twice is refused where
/// it matters and ignored inside what the decoder ignores: unknown keys are ignored on input,
/// and so is whatever they hold. An array stands for its elements: its schema is theirs.
package indirect enum JSONKeys: Sendable {
    /// Every key of every object (a document read whole).
    case everything
    /// An object whose listed keys are read, each with the schema of its value; the others
    /// are ignored.
    case object([String: JSONKeys])
    /// An object every key of which is read, as a map (such as `meta`); its values hold no
    /// objects that are read.
    case map
    /// A value that is not read as an object: a string, or what an ignored key holds.
    case ignored

    /// The keys read of an item object.
    static let item = JSONKeys.object(["id": .ignored, "summary": .ignored])
    /// The keys read of a section object.
    static let section = JSONKeys.object(["title": .ignored, "items": item])
    /// The keys read of a snapshot object (``ListAdapter/ListSnapshot``'s decoding).
    package static let snapshot = JSONKeys.object(["sections": section])
    /// The keys read of an import line: a snapshot line with `meta`, or a revision line's
    /// `snapshot` and `meta` (``ImportLine``). A snapshot file of `replay diff`
    /// (``SnapshotDocument``) is read with them too, so that it refuses the keys named twice
    /// that an import refuses, with the same words.
    static let importLine = JSONKeys.object(["sections": section, "meta": .map, "snapshot": snapshot])

    /// Whether a repetition of `key` in an object of this schema is refused.
    func reads(_ key: String) -> Bool {
        switch self {
        case .everything, .map: true
        case .object(let keys): keys[key] != nil
        case .ignored: false
        }
    }

    /// The schema of the value of `key` in an object of this schema.
    func value(of key: String) -> JSONKeys {
        switch self {
        case .everything: .everything
        case .object(let keys): keys[key] ?? .ignored
        case .map, .ignored: .ignored
        }
    }
}
