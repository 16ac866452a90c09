import ListAdapter

// The interchange format's changes JSON:
// {"sections": {"deleted": [...], "inserted": [...], "moved": [...], "updated": [...]},
//  "items": {"deleted": [...], "inserted": [...], "moved": [...], "updated": [...]}}
// Encoding writes every key; on input a missing list means an empty one. For the interchange format's exact
// key order use `formatJSON()` (FormatJSON.swift).

extension ListChanges.SectionInsertion: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case index, title, summary, items }

    /// Decodes `{"index": 0, "title": ..., "summary": ..., "items": [...]}`; `summary` is optional.
    /// - Complexity: O(*k*), where *k* is the number of the section's items.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            index: try container.decode(Int.self, forKey: .index),
            section: .init(
                title: try container.decode(String.self, forKey: .title),
                summary: try container.decodeIfPresent(SectionSummary.self, forKey: .summary),
                items: try container.decode(
                    [ListSnapshot<ItemID, Summary, SectionSummary>.Item].self, forKey: .items)))
    }

    /// Encodes `{"index": 0, "title": ..., "summary": ..., "items": [...]}`, omitting a `nil`
    /// summary.
    /// - Complexity: O(*k*), where *k* is the number of the section's items.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(section.title, forKey: .title)
        try container.encodeIfPresent(section.summary, forKey: .summary)
        try container.encode(section.items, forKey: .items)
    }
}

extension ListChanges.SectionMove: Codable {
    private enum CodingKeys: String, CodingKey { case from, to }

    /// Decodes `{"from": 0, "to": 3}`.
    /// - Complexity: O(1).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(from: try container.decode(Int.self, forKey: .from), to: try container.decode(Int.self, forKey: .to))
    }

    /// Encodes `{"from": 0, "to": 3}`.
    /// - Complexity: O(1).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
    }
}

extension ListChanges.SectionUpdate: Codable where SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case from, to, summary }

    /// Decodes `{"from": 1, "to": 1, "summary": ...}`; a missing summary means `nil`.
    /// - Complexity: O(1), plus the size of the summary.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: try container.decode(Int.self, forKey: .from), to: try container.decode(Int.self, forKey: .to),
            summary: try container.decodeIfPresent(SectionSummary.self, forKey: .summary))
    }

    /// Encodes `{"from": 1, "to": 1, "summary": ...}`, omitting a `nil` summary.
    /// - Complexity: O(1), plus the size of the summary.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}

extension ListChanges.ItemInsertion: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case at, id, summary }

    /// Decodes `{"at": [1, 0], "id": ..., "summary": ...}`; `summary` is optional.
    /// - Complexity: O(1), plus the size of the identifier and summary.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            at: try container.decode(ItemPath.self, forKey: .at),
            id: try container.decode(ItemID.self, forKey: .id),
            summary: try container.decodeIfPresent(Summary.self, forKey: .summary))
    }

    /// Encodes `{"at": [1, 0], "id": ..., "summary": ...}`, omitting a `nil` summary.
    /// - Complexity: O(1), plus the size of the identifier and summary.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}

extension ListChanges.ItemMove: Codable {
    private enum CodingKeys: String, CodingKey { case from, to }

    /// Decodes `{"from": [1, 2], "to": [2, 5]}`.
    /// - Complexity: O(1).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: try container.decode(ItemPath.self, forKey: .from),
            to: try container.decode(ItemPath.self, forKey: .to))
    }

    /// Encodes `{"from": [1, 2], "to": [2, 5]}`.
    /// - Complexity: O(1).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
    }
}

extension ListChanges.ItemUpdate: Codable where Summary: Codable {
    private enum CodingKeys: String, CodingKey { case from, to, summary, reload }

    /// Decodes `{"from": [1, 3], "to": [1, 1], "summary": ..., "reload": true}`; a missing summary
    /// means `nil`, a missing or false `reload` a reconfigure.
    /// - Complexity: O(1), plus the size of the summary.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: try container.decode(ItemPath.self, forKey: .from),
            to: try container.decode(ItemPath.self, forKey: .to),
            summary: try container.decodeIfPresent(Summary.self, forKey: .summary),
            kind: try container.decodeIfPresent(Bool.self, forKey: .reload) == true ? .reload : .reconfigure)
    }

    /// Encodes `{"from": [1, 3], "to": [1, 1], "summary": ...}`, omitting a `nil` summary, with
    /// `"reload": true` for a reload.
    /// - Complexity: O(1), plus the size of the summary.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encodeIfPresent(summary, forKey: .summary)
        if kind == .reload { try container.encode(true, forKey: .reload) }
    }
}

extension ListChanges: Codable where ItemID: Codable, Summary: Codable, SectionSummary: Codable {
    private enum CodingKeys: String, CodingKey { case sections, items }
    private enum ListKeys: String, CodingKey { case deleted, inserted, moved, updated }

    /// Decodes the interchange format's changes object; missing lists are empty, and so are
    /// lists given as `null`, whether one list or the whole `sections` or `items` object.
    /// - Complexity: O(*c*), where *c* counts the operations and the items of inserted sections.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        if container.contains(.sections), try !container.decodeNil(forKey: .sections) {
            let sections = try container.nestedContainer(keyedBy: ListKeys.self, forKey: .sections)
            deletedSections = try sections.decodeIfPresent([Int].self, forKey: .deleted) ?? []
            insertedSections = try sections.decodeIfPresent([SectionInsertion].self, forKey: .inserted) ?? []
            movedSections = try sections.decodeIfPresent([SectionMove].self, forKey: .moved) ?? []
            updatedSections = try sections.decodeIfPresent([SectionUpdate].self, forKey: .updated) ?? []
        }
        if container.contains(.items), try !container.decodeNil(forKey: .items) {
            let items = try container.nestedContainer(keyedBy: ListKeys.self, forKey: .items)
            deletedItems = try items.decodeIfPresent([ItemPath].self, forKey: .deleted) ?? []
            insertedItems = try items.decodeIfPresent([ItemInsertion].self, forKey: .inserted) ?? []
            movedItems = try items.decodeIfPresent([ItemMove].self, forKey: .moved) ?? []
            updatedItems = try items.decodeIfPresent([ItemUpdate].self, forKey: .updated) ?? []
        }
    }

    /// Encodes the interchange format's changes object with every key. The key order is the
    /// encoder's own (`JSONEncoder` does not keep the format's): ListFormat's `formatJSON()` writes the
    /// format's exact text.
    /// - Complexity: O(*c*), where *c* counts the operations and the items of inserted sections.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var sections = container.nestedContainer(keyedBy: ListKeys.self, forKey: .sections)
        try sections.encode(deletedSections, forKey: .deleted)
        try sections.encode(insertedSections, forKey: .inserted)
        try sections.encode(movedSections, forKey: .moved)
        try sections.encode(updatedSections, forKey: .updated)
        var items = container.nestedContainer(keyedBy: ListKeys.self, forKey: .items)
        try items.encode(deletedItems, forKey: .deleted)
        try items.encode(insertedItems, forKey: .inserted)
        try items.encode(movedItems, forKey: .moved)
        try items.encode(updatedItems, forKey: .updated)
    }
}
