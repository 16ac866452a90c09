import ChangeLog
import ListAdapter

/// The rewriting of one ``HistoryShape`` applied to the snapshots it keeps: sections and items
/// removed, summaries (of items and sections) dropped or shortened, titles and identifiers renamed. The same rewriting is
/// applied to every snapshot of a candidate and to the changes between them, so that equal
/// strings stay equal and distinct ones distinct.
struct SnapshotTransform: Sendable {
    let shape: HistoryShape
    private var titleNames: [String: String] = [:]
    private var idNames: [String: String] = [:]
    private var summaryNames: [String: String] = [:]

    /// Builds the rewriting of `shape` over `snapshots` (the kept ones, in order): canonical
    /// names go to titles, identifiers and summaries in the order they first appear.
    /// - Complexity: O(*n*) expected over the kept snapshots' items, when anything is renamed.
    init(shape: HistoryShape, snapshots: [LogSnapshot]) {
        self.shape = shape
        guard shape.renamedTitles || shape.renamedIDs || shape.shortSummaries else { return }
        for snapshot in snapshots {
            for section in snapshot.sections where !shape.removedSections.contains(section.title) {
                if shape.renamedTitles, titleNames[section.title] == nil {
                    titleNames[section.title] = "s\(titleNames.count)"
                }
                if shape.shortSummaries, let summary = keptSummary(section), summaryNames[summary] == nil {
                    summaryNames[summary] = String(summaryNames.count + 1)
                }
                for item in section.items where !shape.removedItems.contains(item.id) {
                    if shape.renamedIDs, idNames[item.id] == nil {
                        idNames[item.id] = Self.letterName(idNames.count)
                    }
                    if shape.shortSummaries, let summary = keptSummary(item), summaryNames[summary] == nil {
                        summaryNames[summary] = String(summaryNames.count + 1)
                    }
                }
            }
        }
    }

    /// `a` … `z`, then `aa`, `ab`, …: the `offset`th short identifier.
    static func letterName(_ offset: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var name = ""
        var rest = offset
        repeat {
            name = String(letters[rest % 26]) + name
            rest = rest / 26 - 1
        } while rest >= 0
        return name
    }

    /// Whether the section titled `title` (original) is removed.
    func removesSection(_ title: String) -> Bool { shape.removedSections.contains(title) }

    /// Whether the item `id` (original) is removed.
    func removesItem(_ id: String) -> Bool { shape.removedItems.contains(id) }

    /// The new title of the original `title`.
    func title(_ title: String) -> String { titleNames[title] ?? title }

    /// The new identifier of the original `id`.
    func id(_ id: String) -> String { idNames[id] ?? id }

    private func keptSummary(_ item: LogSnapshot.Item) -> String? {
        guard let kept = shape.summariesKept else { return item.summary }
        return kept.contains(item.id) ? item.summary : nil
    }

    private func keptSummary(_ section: LogSnapshot.Section) -> String? {
        guard let kept = shape.sectionSummariesKept else { return section.summary }
        return kept.contains(section.title) ? section.summary : nil
    }

    /// The new section summary of the original section titled `title` whose original section
    /// summary is `summary`.
    func sectionSummary(of title: String, _ summary: String?) -> String? {
        guard let summary = keptSummary(LogSnapshot.Section(title: title, summary: summary)) else { return nil }
        return summaryNames[summary] ?? summary
    }

    /// The new summary of the original item `id` whose original summary is `summary`.
    func summary(of id: String, _ summary: String?) -> String? {
        guard let summary = keptSummary(LogSnapshot.Item(id: id, summary: summary)) else { return nil }
        return summaryNames[summary] ?? summary
    }

    /// The new form of an original item.
    func item(_ item: LogSnapshot.Item) -> LogSnapshot.Item {
        LogSnapshot.Item(id: id(item.id), summary: summary(of: item.id, item.summary))
    }

    /// The new form of an original section (its items rewritten, removed ones left out).
    func section(_ section: LogSnapshot.Section) -> LogSnapshot.Section {
        var items: [LogSnapshot.Item] = []
        items.reserveCapacity(section.items.count)
        for item in section.items where !removesItem(item.id) {
            items.append(self.item(item))
        }
        return LogSnapshot.Section(
            title: title(section.title), summary: sectionSummary(of: section.title, section.summary), items: items)
    }

    /// The new form of an original snapshot: the snapshot itself when the shape keeps its
    /// structure.
    /// - Complexity: O(1) when the structure is kept, O(*n*) expected otherwise.
    func snapshot(_ snapshot: LogSnapshot) -> LogSnapshot {
        guard !shape.keepsStructure else { return snapshot }
        let sections = snapshot.sections.filter { !removesSection($0.title) }.map(section)
        // Renaming is one to one and removal keeps uniqueness: building cannot fail.
        guard let result = try? LogSnapshot(sections: sections) else {
            preconditionFailure("a rewritten snapshot lost the uniqueness of its titles or identifiers")
        }
        return result
    }
}
