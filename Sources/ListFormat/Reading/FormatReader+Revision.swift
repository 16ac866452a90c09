import ListAdapter

/// The schema of a revision line as `replay export` writes it: `revision`, `time`, `meta`,
/// `snapshot` and `changes`. Unknown keys are ignored at every level; a list of changes that is
/// missing or `null` is empty, and so is a missing or `null` `sections` or `items` object.
extension FormatReader {
    typealias Changes = ListChanges<String, String, String>

    /// A whole revision line, and nothing but whitespace after it.
    mutating func revisionLine() throws(ReadFailure) -> RevisionLine {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var revision: UInt64?
        var time: Int64?
        var meta: [String: String]?
        var snapshot: Snapshot?
        var changes: Changes?
        try object(depth: 1) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "revision") {
                guard revision == nil else { throw reader.duplicateKey(key) }
                revision = UInt64(try reader.integerValue())
            } else if reader.matches(key, "time") {
                guard time == nil else { throw reader.duplicateKey(key) }
                time = try reader.time()
            } else if reader.matches(key, "meta") {
                guard meta == nil else { throw reader.duplicateKey(key) }
                meta = try reader.meta(depth: 2)
            } else if reader.matches(key, "snapshot") {
                guard snapshot == nil else { throw reader.duplicateKey(key) }
                snapshot = try reader.snapshotObject(depth: 2)
            } else if reader.matches(key, "changes") {
                guard changes == nil else { throw reader.duplicateKey(key) }
                changes = try reader.changes(depth: 2)
            } else {
                try reader.skipValue(depth: 2)
            }
        }
        try expectEnd()
        guard let revision else { throw missingField("revision", objectStart: objectStart) }
        guard let time else { throw missingField("time", objectStart: objectStart) }
        guard let snapshot else { throw missingField("snapshot", objectStart: objectStart) }
        guard let changes else { throw missingField("changes", objectStart: objectStart) }
        return RevisionLine(
            revision: revision, millisecondsSince1970: time, meta: meta ?? [:], snapshot: snapshot, changes: changes)
    }

    /// `time`: ISO 8601 in UTC (``Timestamp``).
    mutating func time() throws(ReadFailure) -> Int64 {
        skipWhitespace()
        let start = position
        let text = self.text(of: try stringValue()!)
        guard let milliseconds = Timestamp.milliseconds(parsing: text) else {
            throw schema(
                "expected an ISO 8601 UTC time such as 2026-11-20T10:00:00.000Z, found \(quotedExcerpt(text))",
                at: start)
        }
        return milliseconds
    }

    /// A snapshot object, `{"sections": [...]}`, its titles and ids unique.
    private mutating func snapshotObject(depth: Int) throws(ReadFailure) -> Snapshot {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var sections: [Snapshot.Section]?
        var sectionsStart = 0
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "sections") {
                guard sections == nil else { throw reader.duplicateKey(key) }
                reader.skipWhitespace()
                sectionsStart = reader.position
                sections = try reader.sections(depth: depth + 1, previous: nil)
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let sections else { throw missingField("sections", objectStart: objectStart) }
        do throws(ListSnapshotError) {
            return try Snapshot(sections: sections)
        } catch {
            throw schema(error.description, at: sectionsStart).inside(.key("sections"))
        }
    }

    /// The changes object.
    mutating func changes(depth: Int) throws(ReadFailure) -> Changes {
        try expectContainer(UInt8(ascii: "{"))
        var changes = Changes()
        var sectionsSeen = false
        var itemsSeen = false
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "sections") {
                guard !sectionsSeen else { throw reader.duplicateKey(key) }
                sectionsSeen = true
                try reader.sectionChanges(into: &changes, depth: depth + 1)
            } else if reader.matches(key, "items") {
                guard !itemsSeen else { throw reader.duplicateKey(key) }
                itemsSeen = true
                try reader.itemChanges(into: &changes, depth: depth + 1)
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        return changes
    }

    /// `changes.sections`: `deleted`, `inserted`, `moved`, `updated` (version 2; a version-1
    /// document has none, which reads as no section update).
    private mutating func sectionChanges(into changes: inout Changes, depth: Int) throws(ReadFailure) {
        if try null() { return }
        try expectContainer(UInt8(ascii: "{"))
        var seen: Set<String> = []
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            let name = reader.text(of: key)
            guard ["deleted", "inserted", "moved", "updated"].contains(name) else {
                return try reader.skipValue(depth: depth + 1)
            }
            guard seen.insert(name).inserted else { throw reader.duplicateKey(key) }
            switch name {
            case "deleted":
                changes.deletedSections = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    Int(try reader.integerValue(negative: true))
                }
            case "inserted":
                changes.insertedSections = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    try reader.sectionInsertion(depth: depth + 2)
                }
            case "moved":
                changes.movedSections = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    let (from, to, _) = try reader.move(depth: depth + 2, paths: false, summary: false)
                    return Changes.SectionMove(from: from[0], to: to[0])
                }
            default:
                changes.updatedSections = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    let (from, to, summary) = try reader.move(depth: depth + 2, paths: false, summary: true)
                    return Changes.SectionUpdate(from: from[0], to: to[0], summary: summary)
                }
            }
        }
    }

    /// `changes.items`: `deleted`, `inserted`, `moved`, `updated`.
    private mutating func itemChanges(into changes: inout Changes, depth: Int) throws(ReadFailure) {
        if try null() { return }
        try expectContainer(UInt8(ascii: "{"))
        var seen: Set<String> = []
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            let name = reader.text(of: key)
            guard ["deleted", "inserted", "moved", "updated"].contains(name) else {
                return try reader.skipValue(depth: depth + 1)
            }
            guard seen.insert(name).inserted else { throw reader.duplicateKey(key) }
            switch name {
            case "deleted":
                changes.deletedItems = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    try reader.path(depth: depth + 2)
                }
            case "inserted":
                changes.insertedItems = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    try reader.itemInsertion(depth: depth + 2)
                }
            case "moved":
                changes.movedItems = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    let (from, to, _) = try reader.move(depth: depth + 2, paths: true, summary: false)
                    return Changes.ItemMove(
                        from: ItemPath(section: from[0], item: from[1]), to: ItemPath(section: to[0], item: to[1]))
                }
            default:
                changes.updatedItems = try reader.list(depth: depth + 1) { (reader) throws(ReadFailure) in
                    try reader.itemUpdate(depth: depth + 2)
                }
            }
        }
    }

    /// A list of changes: an array, or `null` for none.
    private mutating func list<Element>(
        depth: Int, _ element: (inout FormatReader) throws(ReadFailure) -> Element
    ) throws(ReadFailure) -> [Element] {
        if try null() { return [] }
        try expectContainer(UInt8(ascii: "["))
        var elements: [Element] = []
        try array(depth: depth) { (reader) throws(ReadFailure) in elements.append(try element(&reader)) }
        return elements
    }

    /// An item path, `[section, item]`.
    private mutating func path(depth: Int) throws(ReadFailure) -> ItemPath {
        let start = position
        try expectContainer(UInt8(ascii: "["))
        var offsets: [Int] = []
        try array(depth: depth) { (reader) throws(ReadFailure) in
            offsets.append(Int(try reader.integerValue(negative: true)))
        }
        guard offsets.count == 2 else {
            throw schema("expected a path of two integers, [section, item], found \(offsets.count)", at: start)
        }
        return ItemPath(section: offsets[0], item: offsets[1])
    }

    /// `{"from": …, "to": …}` with integers or paths, and an optional `summary`; `otherKey` reads
    /// the value of any other key it knows and returns `true`, or returns `false` to skip it.
    private mutating func move(
        depth: Int, paths: Bool, summary readsSummary: Bool,
        otherKey: (inout FormatReader, Key) throws(ReadFailure) -> Bool = { _, _ in false }
    ) throws(ReadFailure) -> (from: [Int], to: [Int], summary: String?) {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var from: [Int]?
        var to: [Int]?
        var summary: String?
        var summarySeen = false
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "from") || reader.matches(key, "to") {
                let isFrom = reader.matches(key, "from")
                guard (isFrom ? from : to) == nil else { throw reader.duplicateKey(key) }
                let value: [Int]
                if paths {
                    let path = try reader.path(depth: depth + 1)
                    value = [path.section, path.item]
                } else {
                    value = [Int(try reader.integerValue(negative: true))]
                }
                if isFrom { from = value } else { to = value }
            } else if readsSummary, reader.matches(key, "summary") {
                guard !summarySeen else { throw reader.duplicateKey(key) }
                summarySeen = true
                summary = try reader.stringValue(nullable: true).map(reader.text(of:))
            } else if try !otherKey(&reader, key) {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let from else { throw missingField("from", objectStart: objectStart) }
        guard let to else { throw missingField("to", objectStart: objectStart) }
        return (from, to, summary)
    }

    /// An item update: `{"from": [s, i], "to": [s, i], "summary": …, "reload": true}`; `summary`
    /// and `reload` are optional (`reload`, an extension of the format, is `false` when absent).
    private mutating func itemUpdate(depth: Int) throws(ReadFailure) -> Changes.ItemUpdate {
        var reload = false
        var reloadSeen = false
        let (from, to, summary) = try move(depth: depth, paths: true, summary: true) {
            (reader, key) throws(ReadFailure) in
            guard reader.matches(key, "reload") else { return false }
            guard !reloadSeen else { throw reader.duplicateKey(key) }
            reloadSeen = true
            reload = try reader.booleanValue()
            return true
        }
        return Changes.ItemUpdate(
            from: ItemPath(section: from[0], item: from[1]), to: ItemPath(section: to[0], item: to[1]),
            summary: summary, kind: reload ? .reload : .reconfigure)
    }

    /// `true` or `false`.
    private mutating func booleanValue() throws(ReadFailure) -> Bool {
        let start = position
        switch try peek(expecting: "a value") {
        case UInt8(ascii: "t") where literalFollows("true") && atScalarEnd: return true
        case UInt8(ascii: "f") where literalFollows("false") && atScalarEnd: return false
        default:
            position = start
            throw try mistyped(expected: "a boolean")
        }
    }

    /// A section insertion: `{"index": …, "title": …, "summary": …, "items": […]}`, `summary`
    /// optional.
    private mutating func sectionInsertion(depth: Int) throws(ReadFailure) -> Changes.SectionInsertion {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var index: Int?
        var title: String?
        var summary: String?
        var summarySeen = false
        var items: [Snapshot.Item]?
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "index") {
                guard index == nil else { throw reader.duplicateKey(key) }
                index = Int(try reader.integerValue(negative: true))
            } else if reader.matches(key, "title") {
                guard title == nil else { throw reader.duplicateKey(key) }
                title = reader.text(of: try reader.stringValue()!)
            } else if reader.matches(key, "summary") {
                guard !summarySeen else { throw reader.duplicateKey(key) }
                summarySeen = true
                summary = try reader.stringValue(nullable: true).map(reader.text(of:))
            } else if reader.matches(key, "items") {
                guard items == nil else { throw reader.duplicateKey(key) }
                items = try reader.items(depth: depth + 1, base: [])
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let index else { throw missingField("index", objectStart: objectStart) }
        guard let title else { throw missingField("title", objectStart: objectStart) }
        guard let items else { throw missingField("items", objectStart: objectStart) }
        return Changes.SectionInsertion(
            index: index, section: Snapshot.Section(title: title, summary: summary, items: items))
    }

    /// An item insertion: `{"at": [s, i], "id": …, "summary": …}`.
    private mutating func itemInsertion(depth: Int) throws(ReadFailure) -> Changes.ItemInsertion {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var at: ItemPath?
        var id: String?
        var summary: String?
        var summarySeen = false
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "at") {
                guard at == nil else { throw reader.duplicateKey(key) }
                at = try reader.path(depth: depth + 1)
            } else if reader.matches(key, "id") {
                guard id == nil else { throw reader.duplicateKey(key) }
                id = reader.text(of: try reader.stringValue()!)
            } else if reader.matches(key, "summary") {
                guard !summarySeen else { throw reader.duplicateKey(key) }
                summarySeen = true
                summary = try reader.stringValue(nullable: true).map(reader.text(of:))
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let at else { throw missingField("at", objectStart: objectStart) }
        guard let id else { throw missingField("id", objectStart: objectStart) }
        return Changes.ItemInsertion(at: at, id: id, summary: summary)
    }
}
