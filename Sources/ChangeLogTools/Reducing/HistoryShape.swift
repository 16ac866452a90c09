/// One candidate of a reduction, described against the original history: which revisions it
/// keeps, which sections and items it removes from every snapshot, and how it rewrites summaries,
/// titles and identifiers. ``SnapshotTransform`` turns the description into snapshots.
struct HistoryShape: Hashable, Sendable {
    /// The offsets of the original revisions kept, ascending.
    var kept: [Int]
    /// Original titles of the sections removed from every snapshot.
    var removedSections: Set<String> = []
    /// Original identifiers of the items removed from every snapshot.
    var removedItems: Set<String> = []
    /// Original identifiers of the items that keep their summaries; `nil` when every item does.
    var summariesKept: Set<String>?
    /// Original titles of the sections that keep their section summaries; `nil` when every
    /// section does.
    var sectionSummariesKept: Set<String>?
    /// Whether summaries are replaced by short canonical ones (`1`, `2`, … in order of first
    /// appearance), which keeps which summaries are equal.
    var shortSummaries = false
    /// Whether section titles are renamed `s0`, `s1`, … in order of first appearance.
    var renamedTitles = false
    /// Whether item identifiers are renamed `a`, `b`, … in order of first appearance.
    var renamedIDs = false

    /// Whether the shape keeps every section, item and string of the revisions it keeps.
    var keepsStructure: Bool {
        removedSections.isEmpty && removedItems.isEmpty && summariesKept == nil && sectionSummariesKept == nil
            && !shortSummaries
            && !renamedTitles && !renamedIDs
    }
}

/// Which changes a materialized candidate carries.
enum ChangeSource: Hashable, Sendable {
    /// The stored changes where a revision keeps its recorded predecessor (projected onto the
    /// candidate's sections and items), the diff elsewhere.
    case stored
    /// The diff everywhere.
    case recomputed
}
