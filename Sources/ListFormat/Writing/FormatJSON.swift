import ListAdapter

// The interchange format's exact output (version 2): keys in the format's order, every changes key
// present (`sections.updated` too, empty where nothing changed), a missing summary (of an item or
// a section) omitted, no spaces. Identifiers and summaries are written as JSON strings through
// their `description` (for `String`, the string itself).

extension ListSnapshot
where ItemID: LosslessStringConvertible, Summary: LosslessStringConvertible, SectionSummary: LosslessStringConvertible {
    /// The snapshot as the interchange format's JSON on one line:
    /// `{"sections":[{"title":...,"summary":...,"items":[...]}]}`, a section's `summary` omitted
    /// when it has none.
    ///
    /// The format's identifiers and summaries are strings: each is written as the JSON string
    /// of its `description`, whatever its type. For `String` that is the value itself; a
    /// snapshot of `Int` identifiers reads back as `ListSnapshot<String, …>` (its `Codable`
    /// conformance, by contrast, writes the values as their own types encode them).
    /// - Complexity: O(*n*) in the size of the output.
    public func formatJSON() -> String {
        var writer = JSONWriter()
        write(into: &writer)
        return writer.string
    }

    /// Writes the snapshot object into `writer`.
    package func write(into writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("sections")
        Self.write(sections: sections, into: &writer)
        writer.raw("}")
    }

    /// Writes a list of sections as a JSON array.
    package static func write(sections: [Section], into writer: inout JSONWriter) {
        writer.raw("[")
        for index in sections.indices {
            writer.separator(index)
            write(section: sections[index], into: &writer)
        }
        writer.raw("]")
    }

    /// Writes one section object: `{"title":…,"summary":…,"items":[…]}`, `summary` omitted when
    /// it has none.
    package static func write(section: Section, into writer: inout JSONWriter) {
        writer.raw(#"{"title":""#)
        writer.stringContents(section.title)
        if let summary = section.summary {
            writer.raw(#"","summary":""#)
            writer.stringContents(summary.description)
        }
        writer.raw(#"","items":"#)
        write(items: section.items, into: &writer)
        writer.raw("}")
    }

    /// Writes a list of items as a JSON array.
    package static func write(items: [Item], into writer: inout JSONWriter) {
        writer.raw("[")
        for index in items.indices {
            // The punctuation between the strings goes in one append: `{"id":"…","summary":"…"}`.
            writer.raw(index == 0 ? #"{"id":""# : #",{"id":""#)
            writer.stringContents(items[index].id.description)
            if let summary = items[index].summary {
                writer.raw(#"","summary":""#)
                writer.stringContents(summary.description)
            }
            writer.raw(#""}"#)
        }
        writer.raw("]")
    }
}

extension AnnotatedSnapshot
where ItemID: LosslessStringConvertible, Summary: LosslessStringConvertible, SectionSummary: LosslessStringConvertible {
    /// The annotated snapshot as one line of a `replay import` file:
    /// `{"meta":{...},"sections":[...]}`, `meta` omitted when empty, its keys sorted.
    /// - Complexity: O(*n*) in the size of the output.
    public func formatJSON() -> String {
        var writer = JSONWriter()
        writer.raw("{")
        if !meta.isEmpty {
            writer.key("meta")
            writer.stringMap(meta)
            writer.raw(",")
        }
        writer.key("sections")
        ListSnapshot<ItemID, Summary, SectionSummary>.write(sections: snapshot.sections, into: &writer)
        writer.raw("}")
        return writer.string
    }
}

extension ListChanges
where ItemID: LosslessStringConvertible, Summary: LosslessStringConvertible, SectionSummary: LosslessStringConvertible {
    /// The changes as the interchange format's JSON on one line, every key present, in the format's order.
    ///
    /// Identifiers and summaries are written as the JSON strings of their `description`, as
    /// ``ListSnapshot/formatJSON()`` writes them.
    /// - Complexity: O(*n*) in the size of the output.
    public func formatJSON() -> String {
        var writer = JSONWriter()
        write(into: &writer)
        return writer.string
    }

    /// Writes the changes object into `writer`.
    package func write(into writer: inout JSONWriter) {
        writer.raw(#"{"sections":{"deleted":["#)
        for (index, offset) in deletedSections.enumerated() {
            writer.separator(index)
            writer.integer(offset)
        }
        writer.raw(#"],"inserted":["#)
        for (index, insertion) in insertedSections.enumerated() {
            writer.separator(index)
            writer.raw(#"{"index":"#)
            writer.integer(insertion.index)
            writer.raw(#","title":"#)
            writer.string(insertion.section.title)
            if let summary = insertion.section.summary {
                writer.raw(#","summary":"#)
                writer.string(summary.description)
            }
            writer.raw(#","items":"#)
            ListSnapshot<ItemID, Summary, SectionSummary>.write(items: insertion.section.items, into: &writer)
            writer.raw("}")
        }
        writer.raw(#"],"moved":["#)
        for (index, move) in movedSections.enumerated() {
            writer.separator(index)
            writer.raw(#"{"from":"#)
            writer.integer(move.from)
            writer.raw(#","to":"#)
            writer.integer(move.to)
            writer.raw("}")
        }
        writer.raw(#"],"updated":["#)
        for (index, update) in updatedSections.enumerated() {
            writer.separator(index)
            writer.raw(#"{"from":"#)
            writer.integer(update.from)
            writer.raw(#","to":"#)
            writer.integer(update.to)
            if let summary = update.summary {
                writer.raw(#","summary":"#)
                writer.string(summary.description)
            }
            writer.raw("}")
        }
        writer.raw(#"]},"items":{"deleted":["#)
        for (index, path) in deletedItems.enumerated() {
            writer.separator(index)
            writer.path(path)
        }
        writer.raw(#"],"inserted":["#)
        for (index, insertion) in insertedItems.enumerated() {
            writer.separator(index)
            writer.raw(#"{"at":"#)
            writer.path(insertion.at)
            writer.raw(#","id":"#)
            writer.string(insertion.id.description)
            if let summary = insertion.summary {
                writer.raw(#","summary":"#)
                writer.string(summary.description)
            }
            writer.raw("}")
        }
        writer.raw(#"],"moved":["#)
        for (index, move) in movedItems.enumerated() {
            writer.separator(index)
            writer.raw(#"{"from":"#)
            writer.path(move.from)
            writer.raw(#","to":"#)
            writer.path(move.to)
            writer.raw("}")
        }
        writer.raw(#"],"updated":["#)
        for (index, update) in updatedItems.enumerated() {
            writer.separator(index)
            writer.raw(#"{"from":"#)
            writer.path(update.from)
            writer.raw(#","to":"#)
            writer.path(update.to)
            if let summary = update.summary {
                writer.raw(#","summary":"#)
                writer.string(summary.description)
            }
            if update.kind == .reload {
                writer.raw(#","reload":true"#)
            }
            writer.raw("}")
        }
        writer.raw("]}}")
    }
}
