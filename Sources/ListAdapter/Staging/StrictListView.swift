/// A renderer that behaves like `UITableView` and refuses, with an error, every batch that
/// `UITableView` would refuse with `NSInternalInconsistencyException`: the strict validator.
///
/// The view holds what it shows (sections, rows and their identifiers). ``reloadData(_:)``
/// replaces it. ``performBatchUpdates(_:resultingIn:)`` checks the batch as UIKit does, against
/// the counts it shows before the update and the counts of `snapshot`, which plays the part of
/// the data source after the update; then applies the batch to what it shows (with
/// ``ListSnapshot/applying(_:)``) and, as a last check beyond UIKit, requires that the sections
/// and identifiers it now shows are the snapshot's. A refused batch throws ``BatchUpdateError``
/// and leaves the view unchanged.
///
/// Like a table view, the view shows the summaries it was given: an item whose summary changed
/// but that the batch did not update keeps its old summary, so comparing ``snapshot`` with the
/// data source's snapshot reveals a missed update.
///
/// ## Updates of moved items
///
/// UIKit refuses to reload a row, or a section, that moves in the same batch, and mis-applies
/// the reload of a row whose section moves. In the default ``Strictness-swift.enum/uiKit`` mode
/// the view refuses such a batch too (``ListRuleViolationCode/updatedItemMoved``,
/// ``ListRuleViolationCode/updatedItemInMovedSection``,
/// ``ListRuleViolationCode/updatedSectionMoved``), so a test learns that a real table view would
/// crash or show stale content. A renderer that drives UIKit delivers those updates after the
/// batch: ``ListChanges/stagedForUIKit()`` stages the changes, and
/// ``performBatchUpdatesDeferringReconfigures(_:resultingIn:)`` applies each stage's batch, then
/// its reconfigures and section header updates, as such a renderer does. The article
/// <doc:UIKitStaging> lists the rules and their sources. In ``Strictness-swift.enum/format`` mode
/// the view checks the interchange format's rules only and accepts updates of moved items and
/// sections in the batch.
///
/// Every item update inside a batch counts as a reload (``reloadedItemCount``), every entry of
/// ``reconfigureItems(_:)`` as a reconfigure (``reconfiguredItemCount``), every entry of
/// ``reloadSections(_:)`` as a section header update (``updatedSectionCount``).
public struct StrictListView<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: ListRenderer, Sendable {
    /// Which rules the view enforces.
    public enum Strictness: Hashable, Sendable {
        /// UIKit's rules: the interchange format's, and no reload of an item or a section that
        /// moves in the same batch.
        case uiKit
        /// The interchange format's validity rules only.
        case format
    }

    /// Which rules the view enforces.
    public let strictness: Strictness
    /// What the view shows.
    public private(set) var snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    /// The number of batches the view accepted.
    public private(set) var batchCount = 0
    /// The number of times ``reloadData(_:)`` was called.
    public private(set) var reloadCount = 0
    /// The number of item updates accepted inside batches (`reloadRows(at:with:)`).
    public private(set) var reloadedItemCount = 0
    /// The number of items reconfigured after batches (``reconfigureItems(_:)``).
    public private(set) var reconfiguredItemCount = 0
    /// The number of section headers updated after batches (``reloadSections(_:)``).
    public private(set) var updatedSectionCount = 0

    /// Creates a view that enforces `strictness` and shows `snapshot`.
    /// - Complexity: O(1).
    public init(
        strictness: Strictness = .uiKit, showing snapshot: ListSnapshot<ItemID, Summary, SectionSummary> = .init()
    ) {
        self.strictness = strictness
        self.snapshot = snapshot
    }

    /// The number of sections shown.
    /// - Complexity: O(1).
    public var numberOfSections: Int { snapshot.sectionCount }

    /// The number of rows shown in `section`, which must be a section the view shows.
    /// - Complexity: O(1).
    public func numberOfRows(inSection section: Int) -> Int {
        guard let count = snapshot.itemCount(inSection: section) else {
            preconditionFailure("section \(section) is outside the \(numberOfSections) sections shown")
        }
        return count
    }

    /// Shows `snapshot` instead of what was shown; a reload is never refused.
    /// - Complexity: O(1).
    public mutating func reloadData(_ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>) {
        self.snapshot = snapshot
        reloadCount += 1
    }

    /// Checks the batch `changes` as `UITableView` does and applies it to what the view shows.
    ///
    /// - Parameters:
    ///   - changes: the batch, in the interchange format's batch-update semantics.
    ///   - snapshot: what the data source reports after the update.
    /// - Throws: ``BatchUpdateError`` in UIKit's words, for the first broken rule; the view is
    ///   then unchanged.
    /// - Complexity: O(*n* + *c*) expected, where *n* counts the items shown and in `snapshot`,
    ///   and *c* the operations.
    @_specialize(exported:true,where ItemID == String, Summary == String, SectionSummary == String)
    public mutating func performBatchUpdates(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>,
        resultingIn snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    ) throws(BatchUpdateError) {
        let violation = changes.violation(
            oldItemCounts: self.snapshot.itemCounts, newItemCounts: snapshot.itemCounts,
            refusingUpdatesOfMovedItems: strictness == .uiKit)
        if let violation { throw BatchUpdateError(violation) }
        let shown: ListSnapshot<ItemID, Summary, SectionSummary>
        do {
            // Checked above, with the old counts and more.
            shown = try self.snapshot.applying(checkedChanges: changes)
        } catch {
            throw BatchUpdateError(applying: error)
        }
        if let difference = Self.firstDifference(shown: shown, reported: snapshot) { throw difference }
        self.snapshot = Self.sharingEqualSections(of: shown, with: snapshot)
        batchCount += 1
        reloadedItemCount += changes.updatedItems.count
    }

    /// Reconfigures rows after a batch (`reconfigureRows(at:)`): sets the summaries of shown items.
    ///
    /// Each reconfigure names a shown item by its path, as both `from` and `to`, and carries its
    /// new summary, as ``ListChanges/stagedForUIKit()`` returns them. Reconfigures are not a batch:
    /// ``batchCount`` does not change.
    ///
    /// - Throws: ``BatchUpdateError`` for a path outside what is shown, one reconfigured twice, or
    ///   a `from` and a `to` that name different items; the view is then unchanged.
    /// - Complexity: O(*n* + *r*) expected, where *n* counts the items shown and *r* the reconfigures.
    public mutating func reconfigureItems(
        _ reconfigures: [ListChanges<ItemID, Summary, SectionSummary>.ItemUpdate]
    ) throws(BatchUpdateError) {
        guard !reconfigures.isEmpty else { return }
        try applyOutsideBatch(ListChanges(updatedItems: reconfigures))
        reconfiguredItemCount += reconfigures.count
    }

    /// Reloads section headers after a batch (`reloadSections(_:)`): sets the summaries of shown
    /// sections.
    ///
    /// Each reload names a shown section by its offset, as both `from` and `to`, and carries its
    /// new section summary, as ``ListChanges/UIKitStage/sectionUpdates`` and
    /// ``ListChanges/splitForUIKit()`` return them. Reloads are not a batch: ``batchCount`` does
    /// not change.
    ///
    /// - Throws: ``BatchUpdateError`` for an offset outside what is shown, one reloaded twice, or
    ///   a `from` and a `to` that name sections of different titles; the view is then unchanged.
    /// - Complexity: O(*n* + *r*) expected, where *n* counts the items shown and *r* the reloads.
    public mutating func reloadSections(
        _ reloads: [ListChanges<ItemID, Summary, SectionSummary>.SectionUpdate]
    ) throws(BatchUpdateError) {
        guard !reloads.isEmpty else { return }
        try applyOutsideBatch(ListChanges(updatedSections: reloads))
        updatedSectionCount += reloads.count
    }

    /// Applies `changes` that only update what is shown (no section or item comes, goes or
    /// moves), outside a batch: checked against the shown counts, then applied. The view is
    /// unchanged when either step throws.
    private mutating func applyOutsideBatch(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>
    ) throws(BatchUpdateError) {
        let counts = snapshot.itemCounts
        if let violation = changes.violation(oldItemCounts: counts, newItemCounts: counts) {
            throw BatchUpdateError(violation)
        }
        do {
            snapshot = try snapshot.applying(checkedChanges: changes)
        } catch {
            throw BatchUpdateError(applying: error)
        }
    }

    /// Applies `changes` as a renderer that drives UIKit must: the stages of
    /// ``ListChanges/stagedForUIKit()`` in order, each stage's batch, then its reconfigures, then
    /// its section header updates.
    ///
    /// Accepted in both strictness modes for valid changes; each stage counts as one batch
    /// (one for most changes, two when a reload must wait for the moves).
    ///
    /// - Throws: ``BatchUpdateError`` for the first broken rule; the view is then unchanged.
    /// - Complexity: O(*n* + *c*) expected per stage, as ``performBatchUpdates(_:resultingIn:)``.
    public mutating func performBatchUpdatesDeferringReconfigures(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>,
        resultingIn snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    ) throws(BatchUpdateError) {
        // A generic caller in another module (`ChangeLog.replay` into any renderer) runs this
        // method unspecialised, where each section and row costs metadata lookups and witness
        // calls: a list of strings, the log's, takes the code specialised for it instead.
        guard Self.self == StringListView.self else {
            try applyDeferringReconfigures(changes, resultingIn: snapshot)
            return
        }
        var strings = self as! StringListView
        try strings.applyDeferringReconfigures(
            changes as! ListChanges<String, String, String>,
            resultingIn: snapshot as! ListSnapshot<String, String, String>)
        self = strings as! Self
    }

    /// A view of string identifiers, summaries and section summaries: a log's lists.
    private typealias StringListView = StrictListView<String, String, String>

    /// ``performBatchUpdatesDeferringReconfigures(_:resultingIn:)``'s work.
    private mutating func applyDeferringReconfigures(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>,
        resultingIn snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    ) throws(BatchUpdateError) {
        var view = self
        for stage in changes.stagedForUIKit() {
            try view.performBatchUpdates(stage.batch, resultingIn: snapshot)
            try view.reconfigureItems(stage.reconfigures)
            try view.reloadSections(stage.sectionUpdates)
        }
        view.snapshot = Self.sharingEqualSections(of: view.snapshot, with: snapshot)
        self = view
    }

    /// The first section title, row count or identifier that differs between what the view
    /// would show and what the data source reports (whose section count already matches).
    private static func firstDifference(
        shown: ListSnapshot<ItemID, Summary, SectionSummary>, reported: ListSnapshot<ItemID, Summary, SectionSummary>
    ) -> BatchUpdateError? {
        for (section, (shownSection, reportedSection)) in zip(shown.sections, reported.sections).enumerated() {
            if !literallyEqualStrings(shownSection.title, reportedSection.title) {
                let (shownTitle, reportedTitle) = quotedApart(shownSection.title, reportedSection.title)
                return .identifiersDiffer(
                    position: [section],
                    difference: "section \(section) is \(shownTitle) in the table view "
                        + "but \(reportedTitle) in the data source")
            }
            if shownSection.items.count != reportedSection.items.count {
                return .identifiersDiffer(
                    position: [section],
                    difference: "section \(section) has \(shownSection.items.count) rows in the table view "
                        + "but \(reportedSection.items.count) in the data source")
            }
            // Rows held in the same storage are the same rows: what a section neither side
            // changed since the last batch holds (see `sharingEqualSections(of:with:)`).
            if isSameStorage(shownSection.items, reportedSection.items) { continue }
            for (row, (shownItem, reportedItem)) in zip(shownSection.items, reportedSection.items).enumerated()
            where !literallyEqual(shownItem.id, reportedItem.id) {
                let (shownID, reportedID) = quotedApart(
                    String(describing: shownItem.id), String(describing: reportedItem.id))
                return .identifiersDiffer(
                    position: [section, row],
                    difference: "row \(row) in section \(section) is \(shownID) in the table view but \(reportedID) "
                        + "in the data source")
            }
        }
        return nil
    }

    /// `shown` with each section equal to `reported`'s section at the same offset (title,
    /// summary, identifiers and summaries, compared literally) replaced by that section as
    /// `reported` holds it: the same value, in `reported`'s storage. Consecutive revisions read
    /// from a log share their unchanged sections' storage, so the next batch's comparison
    /// (``firstDifference(shown:reported:)``) finds those sections the same at once instead of
    /// comparing every row. The index stays valid: equal sections hold the same identifiers at
    /// the same paths.
    /// - Complexity: O(*s*) for *s* sections, plus O(*k*) for each section of *k* items that is not
    ///   already in `reported`'s storage.
    private static func sharingEqualSections(
        of shown: ListSnapshot<ItemID, Summary, SectionSummary>,
        with reported: ListSnapshot<ItemID, Summary, SectionSummary>
    ) -> ListSnapshot<ItemID, Summary, SectionSummary> {
        var result = shown
        for (offset, section) in zip(shown.sections.indices, reported.sections)
        where !isSameStorage(shown.sections[offset].items, section.items) && shown.sections[offset] == section {
            result.storedSections[offset] = section
        }
        return result
    }
}

/// Whether `first` and `second` are one array's storage (so equal without reading an element).
/// The buffers' addresses are compared inside the closures and never kept.
/// - Complexity: O(1).
private func isSameStorage<Element>(_ first: [Element], _ second: [Element]) -> Bool {
    first.count == second.count
        && first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
        }
}
