import ChangeLog
import ListAdapter
import ListFormat

/// How revisions read as text in `log`, `show` and `tail`.
enum RevisionText {
    /// `12  2026-11-20T10:00:00.000Z  commit=3f2a9c  sections +0 -0 ~0 *0  items +1 -0 ~2 *1`
    static func oneLine(_ record: RevisionRecord) -> String {
        oneLine(RevisionChanges(record))
    }

    /// The same line, from the revision's changes alone (no snapshot read).
    static func oneLine(_ revision: RevisionChanges) -> String {
        var line = "\(revision.revision)  \(revision.timeString)"
        if !revision.meta.isEmpty { line += "  " + meta(revision.meta) }
        return line + "  " + revision.changes.counts.description
    }

    /// `key=value` pairs, sorted by key; keys and values are quoted (and control characters
    /// escaped) when they hold spaces, quotes, `=` or control characters.
    static func meta(_ meta: [String: String]) -> String {
        meta.keys.sorted().map { key in
            "\(printable(key, quotingSpaces: true))=\(printable(meta[key]!, quotingSpaces: true))"
        }.joined(separator: " ")
    }

    /// The snapshot as an indented outline: sections with their summaries, items and summaries;
    /// the sections at `markedSections` (updated) end with ` *`.
    static func outline(
        _ snapshot: LogSnapshot, marking marked: Set<ItemPath> = [], markingSections markedSections: Set<Int> = []
    ) -> [String] {
        var lines: [String] = []
        for (sectionOffset, section) in snapshot.sections.enumerated() {
            let title = section.title.isEmpty ? "(untitled)" : printable(section.title)
            var line = "[\(sectionOffset)] \(title) (\(section.items.count) items)"
            if let summary = section.summary { line += "  \(printable(summary))" }
            if markedSections.contains(sectionOffset) { line += " *" }
            lines.append(line)
            for (itemOffset, item) in section.items.enumerated() {
                let mark = marked.contains(ItemPath(section: sectionOffset, item: itemOffset)) ? "*" : " "
                var line = "  \(mark) \(itemOffset): \(printable(item.id))"
                if let summary = item.summary { line += "  \(printable(summary))" }
                lines.append(line)
            }
        }
        return lines
    }
}
