import ListAdapter

// The interchange format's snapshot JSON: {"sections": [{"title": ..., "items": [{"id": ..., "summary": ...}]}]}.
// Decoding ignores unknown keys. A key named twice in one object is up to the decoder:
// Foundation's JSONDecoder keeps one of the values without a word. ChangeLog's
// `SnapshotImporter` (behind `replay import`) and `replay diff` check the text for repeated keys
// first; use them for untrusted text. Encoding omits a missing summary; the key order of the output is
// up to the encoder (Foundation's JSONEncoder reorders keys on Linux), so the exact interchange-format
// output comes from `formatJSON()` (FormatJSON.swift).

extension ListSnapshot.Item: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case id, summary }

    /// Decodes `{"id": ..., "summary": ...}`; `summary` is optional.
    /// - Complexity: O(1), plus the size of the identifier and summary.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ItemID.self, forKey: .id),
            summary: try container.decodeIfPresent(Summary.self, forKey: .summary))
    }

    /// Encodes `{"id": ..., "summary": ...}`, omitting a `nil` summary.
    /// - Complexity: O(1), plus the size of the identifier and summary.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}

extension ListSnapshot.Section: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case title, summary, items }

    /// Decodes `{"title": ..., "summary": ..., "items": [...]}`; `title` and `items` are
    /// required, `summary` is optional.
    /// - Complexity: O(*k*), where *k* is the number of the section's items.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title),
            summary: try container.decodeIfPresent(SectionSummary.self, forKey: .summary),
            items: try container.decode([ListSnapshot.Item].self, forKey: .items))
    }

    /// Encodes `{"title": ..., "summary": ..., "items": [...]}`, `summary` omitted when `nil`.
    /// - Complexity: O(*k*), where *k* is the number of the section's items.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encode(items, forKey: .items)
    }
}

extension ListSnapshot: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case sections }

    /// Decodes `{"sections": [...]}` and checks uniqueness; a `meta` key is ignored here
    /// (``AnnotatedSnapshot`` keeps it).
    ///
    /// - Throws: `DecodingError` for malformed JSON, `ListSnapshotError` for a duplicate.
    /// - Complexity: O(*n*) expected, where *n* is the number of items: decoding checks uniqueness.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(sections: container.decode([Section].self, forKey: .sections))
    }

    /// Encodes `{"sections": [...]}`.
    /// - Complexity: O(*n*), where *n* is the number of items.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sections, forKey: .sections)
    }
}

extension AnnotatedSnapshot: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case meta, sections }

    /// Decodes `{"meta": {...}, "sections": [...]}`; `meta` is optional.
    /// - Complexity: O(*n*) expected, where *n* is the number of items: decoding checks uniqueness.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        meta = try container.decodeIfPresent([String: String].self, forKey: .meta) ?? [:]
        snapshot = try ListSnapshot(
            sections: container.decode([ListSnapshot<ItemID, Summary, SectionSummary>.Section].self, forKey: .sections))
    }

    /// Encodes `{"meta": {...}, "sections": [...]}`, omitting empty `meta`.
    /// - Complexity: O(*n*), where *n* is the number of items.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !meta.isEmpty {
            try container.encode(meta, forKey: .meta)
        }
        try container.encode(snapshot.sections, forKey: .sections)
    }
}
