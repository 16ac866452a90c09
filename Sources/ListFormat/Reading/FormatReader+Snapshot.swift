import ListAdapter

/// The schema of a snapshot line (`sections`, `meta`) and of what an import takes from a
/// revision line (`snapshot.sections`, `meta`).
///
/// Given the line before's snapshot, the reader shares its strings: an item whose id and
/// summary have the same bytes as the item at the corresponding place of the line before gets
/// that item's strings, not copies. Consecutive lines differ in few items, so most strings are
/// not allocated again, and the log's writer, which compares a snapshot with the one before,
/// recognises the unchanged items by their bits instead of their bytes.
extension FormatReader {
    typealias Snapshot = ListSnapshot<String, String, String>

    /// What a line holds: its sections, from `sections` or from a revision line's `snapshot`,
    /// and where they start; its `meta`.
    struct LineContent {
        var sections: [Snapshot.Section]
        /// Where the sections' array starts, and its path: where a duplicate title or id is
        /// looked for.
        var sectionsPath: [PathStep]
        var meta: [String: String]
        /// Whether the sections came from a revision line's `snapshot`.
        var fromRevision: Bool
        /// A revision line's `changes`, `revision` and `time`, when the read asked for them and
        /// the line has `changes`.
        var recorded: AnnotatedSnapshot<String, String, String>.Recorded? = nil
    }

    /// A snapshot line or a revision line, and nothing but whitespace after it.
    ///
    /// - Parameters:
    ///   - previous: the line before's snapshot, whose strings the result shares.
    ///   - recorded: whether to read a revision line's `changes`, `revision` and `time` (a
    ///     snapshot line's keys of those names stay unknown keys, ignored).
    mutating func line(previous: Snapshot?, recorded readsRecorded: Bool = false) throws(ReadFailure) -> LineContent {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var sections: [Snapshot.Section]?
        var meta: [String: String]?
        var metaSeen = false
        var snapshot: [Snapshot.Section]?
        // Where the values of a revision line's recorded keys start, read once the line is known
        // to be a revision line; the first of them named twice.
        var recordedStarts: [String: Int] = [:]
        var repeatedRecordedKey: Key?
        try object(depth: 1) { (reader, key) throws(ReadFailure) in
            let recordedName =
                !readsRecorded
                ? nil
                : reader.matches(key, "changes")
                    ? "changes"
                    : reader.matches(key, "revision") ? "revision" : reader.matches(key, "time") ? "time" : nil
            if let name = recordedName {
                if recordedStarts[name] != nil, repeatedRecordedKey == nil { repeatedRecordedKey = key }
                reader.skipWhitespace()
                recordedStarts[name] = recordedStarts[name] ?? reader.position
                try reader.skipValue(depth: 2)
                return
            }
            if reader.matches(key, "sections") {
                guard sections == nil else { throw reader.duplicateKey(key) }
                guard snapshot == nil else { throw reader.bothSectionsAndSnapshot(key) }
                sections = try reader.sections(depth: 2, previous: previous)
            } else if reader.matches(key, "meta") {
                guard !metaSeen else { throw reader.duplicateKey(key) }
                metaSeen = true
                meta = try reader.meta(depth: 2)
            } else if reader.matches(key, "snapshot") {
                guard snapshot == nil else { throw reader.duplicateKey(key) }
                guard sections == nil else { throw reader.bothSectionsAndSnapshot(key) }
                snapshot = try reader.snapshot(depth: 2, previous: previous)
            } else {
                try reader.skipValue(depth: 2)
            }
        }
        try expectEnd()
        if let sections {
            return LineContent(
                sections: sections, sectionsPath: [.key("sections")], meta: meta ?? [:], fromRevision: false)
        }
        guard let snapshot else { throw missingField("sections", objectStart: objectStart) }
        if let repeatedRecordedKey { throw duplicateKey(repeatedRecordedKey) }
        var content = LineContent(
            sections: snapshot, sectionsPath: [.key("snapshot"), .key("sections")], meta: meta ?? [:],
            fromRevision: true)
        if let changesStart = recordedStarts["changes"] {
            let end = position
            var recorded = AnnotatedSnapshot<String, String, String>.Recorded(
                changes: try reread("changes", at: changesStart) { (reader) throws(ReadFailure) in
                    try reader.changes(depth: 2)
                })
            if let start = recordedStarts["revision"] {
                recorded.revision = try reread("revision", at: start) { (reader) throws(ReadFailure) in
                    UInt64(try reader.integerValue())
                }
            }
            if let start = recordedStarts["time"] {
                recorded.millisecondsSince1970 = try reread("time", at: start) { (reader) throws(ReadFailure) in
                    try reader.time()
                }
            }
            position = end
            content.recorded = recorded
        }
        return content
    }

    /// Reads the value of the line's key `key` again from `start`, where it was skipped; a
    /// failure names its path from the key.
    private mutating func reread<T>(
        _ key: String, at start: Int, _ read: (inout FormatReader) throws(ReadFailure) -> T
    ) throws(ReadFailure) -> T {
        position = start
        do {
            return try read(&self)
        } catch {
            throw error.inside(.key(key))
        }
    }

    /// An object holding both a snapshot line's `sections` and a revision line's `snapshot`: it
    /// says two things about its snapshot, and taking either one would be a guess.
    func bothSectionsAndSnapshot(_ key: Key) -> ReadFailure {
        var failure = schema(
            #"the object holds both "sections", as a snapshot line does, and "snapshot", as a revision "#
                + "line does; it may hold one of the two", at: key.range.lowerBound - 1)
        failure.belongsToObject = true
        return failure
    }

    /// A revision line's `snapshot`: its `sections`; its other keys are ignored.
    private mutating func snapshot(depth: Int, previous: Snapshot?) throws(ReadFailure) -> [Snapshot.Section] {
        let objectStart = position
        try expectContainer(UInt8(ascii: "{"))
        var sections: [Snapshot.Section]?
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            if reader.matches(key, "sections") {
                guard sections == nil else { throw reader.duplicateKey(key) }
                sections = try reader.sections(depth: depth + 1, previous: previous)
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let sections else { throw missingField("sections", objectStart: objectStart) }
        return sections
    }

    /// `meta`: an object of strings, or `null` for none. Keys compare as Swift's strings do (up
    /// to canonical equivalence), so two spellings of one key are a key named twice.
    mutating func meta(depth: Int) throws(ReadFailure) -> [String: String] {
        if try null() { return [:] }
        try expectContainer(UInt8(ascii: "{"))
        var meta: [String: String] = [:]
        try object(depth: depth) { (reader, key) throws(ReadFailure) in
            let name = reader.text(of: key)
            guard meta[name] == nil else { throw reader.duplicateKey(key) }
            let value = try reader.stringValue()!
            meta[name] = reader.text(of: value)
        }
        return meta
    }

    /// `sections`: an array of `{"title": …, "summary": …, "items": […]}`, `summary` optional (a
    /// string, or `null` for none).
    mutating func sections(depth: Int, previous: Snapshot?) throws(ReadFailure) -> [Snapshot.Section] {
        try expectContainer(UInt8(ascii: "["))
        var sections: [Snapshot.Section] = []
        try array(depth: depth) { (reader) throws(ReadFailure) in
            let objectStart = reader.position
            try reader.expectContainer(UInt8(ascii: "{"))
            var title: String?
            var summary: Key?
            var summarySeen = false
            var items: [Snapshot.Item]?
            // The line before's section of the same title, when the title comes first.
            var base: Snapshot.Section?
            try reader.object(depth: depth + 1) { (reader, key) throws(ReadFailure) in
                if reader.matches(key, "title") {
                    guard title == nil else { throw reader.duplicateKey(key) }
                    (title, base) = try reader.title(at: sections.count, previous: previous)
                } else if reader.matches(key, "summary") {
                    guard !summarySeen else { throw reader.duplicateKey(key) }
                    summarySeen = true
                    summary = try reader.stringValue(nullable: true)
                } else if reader.matches(key, "items") {
                    guard items == nil else { throw reader.duplicateKey(key) }
                    items = try reader.items(depth: depth + 2, base: base?.items ?? [])
                } else {
                    try reader.skipValue(depth: depth + 2)
                }
            }
            guard let title else { throw reader.missingField("title", objectStart: objectStart) }
            guard let items else { throw reader.missingField("items", objectStart: objectStart) }
            // The line before's section summary when it holds the same bytes, as for items.
            let sectionSummary = summary.map { key in
                if let shared = base?.summary, reader.holds(key, shared) { return shared }
                return reader.text(of: key)
            }
            sections.append(Snapshot.Section(title: title, summary: sectionSummary, items: items))
        }
        return sections
    }

    /// A section's title at `offset`, and the line before's section of that title: the title
    /// is that section's string when it has the same bytes.
    private mutating func title(at offset: Int, previous: Snapshot?) throws(ReadFailure) -> (String, Snapshot.Section?)
    {
        let key = try stringValue()!
        guard let previous else { return (text(of: key), nil) }
        if offset < previous.sections.count, holds(key, previous.sections[offset].title) {
            return (previous.sections[offset].title, previous.sections[offset])
        }
        let title = text(of: key)
        // A section equal by Swift's `==` only lends items whose bytes are the same.
        return (title, previous.sectionOffset(titled: title).map { previous.sections[$0] })
    }

    /// `items`: an array of `{"id": …, "summary": …}`, `summary` optional, sharing the strings
    /// of `base` (the line before's items of the section) that hold the same bytes.
    ///
    /// Items are matched in order: the next base item not matched yet, or one of the two after
    /// it (the items between were deleted or moved away). An item matching none of them (one
    /// inserted or moved here) gets strings of its own and leaves the next base item in place.
    mutating func items(depth: Int, base: [Snapshot.Item]) throws(ReadFailure) -> [Snapshot.Item] {
        try expectContainer(UInt8(ascii: "["))
        return try base.withUnsafeBufferPointer { (base) throws(ReadFailure) in try items(depth: depth, base: base) }
    }

    private mutating func items(depth: Int, base: UnsafeBufferPointer<Snapshot.Item>) throws(ReadFailure)
        -> [Snapshot.Item]
    {
        var items: [Snapshot.Item] = []
        items.reserveCapacity(base.count)
        var nextBase = 0
        try array(depth: depth) { (reader) throws(ReadFailure) in
            var (id, summary) = reader.compactItem()
            if id == nil {
                let objectStart = reader.position
                try reader.expectContainer(UInt8(ascii: "{"))
                var summarySeen = false
                try reader.object(depth: depth + 1) { (reader, key) throws(ReadFailure) in
                    if reader.matches(key, "id") {
                        guard id == nil else { throw reader.duplicateKey(key) }
                        id = try reader.stringValue()!
                    } else if reader.matches(key, "summary") {
                        guard !summarySeen else { throw reader.duplicateKey(key) }
                        summarySeen = true
                        summary = try reader.stringValue(nullable: true)
                    } else {
                        try reader.skipValue(depth: depth + 2)
                    }
                }
                guard id != nil else { throw reader.missingField("id", objectStart: objectStart) }
            }
            guard let id else { return }
            var candidate = nextBase
            while candidate < min(nextBase + 3, base.count), !reader.holds(id, base[candidate].id) {
                candidate += 1
            }
            guard candidate < min(nextBase + 3, base.count) else {
                items.append(Snapshot.Item(id: reader.text(of: id), summary: summary.map(reader.text(of:))))
                return
            }
            nextBase = candidate + 1
            switch (summary, base[candidate].summary) {
            case (nil, nil):
                items.append(base[candidate])
            case (let key?, let shared?) where reader.holds(key, shared):
                items.append(base[candidate])
            case (let key, _):
                items.append(Snapshot.Item(id: base[candidate].id, summary: key.map(reader.text(of:))))
            }
        }
        return items
    }

    /// An item exactly as the format's writer writes it, `{"id":"…","summary":"…"}` or
    /// `{"id":"…"}` (no whitespace, no escape): its id and summary. Otherwise
    /// `(nil, nil)`, and nothing is consumed: the item is read as any object is.
    @inline(__always)
    private mutating func compactItem() -> (id: Key?, summary: Key?) {
        let start = position
        guard literalFollows("{\"id\":\""), let id = plainStringRest() else {
            position = start
            return (nil, nil)
        }
        if literalFollows("}") { return (id, nil) }
        guard literalFollows(",\"summary\":\""), let summary = plainStringRest(), literalFollows("}") else {
            position = start
            return (nil, nil)
        }
        return (id, summary)
    }

    /// The rest of a string without escapes or control characters, after its opening quote; `nil`
    /// for any other string, which the general path reads.
    @inline(__always)
    private mutating func plainStringRest() -> Key? {
        let start = position
        skipOrdinaryWords()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return Key(range: start..<(position - 1), escaped: false)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 {
                // Not UTF-8: the general path names the problem.
                guard (try? utf8Sequence()) != nil else { return nil }
                continue
            }
            position += 1
        }
        return nil
    }
}
