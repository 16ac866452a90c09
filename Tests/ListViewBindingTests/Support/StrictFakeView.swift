import Foundation

/// What a cell or a header shows: what the data source said when it was last configured.
struct Shown: Hashable, CustomStringConvertible {
    var id: String
    var summary: String?
    var description: String { summary.map { "\(id)=\($0)" } ?? id }
}

/// The questions a view asks its data source, answered by the binding under test.
@MainActor
struct FakeDataSource {
    var numberOfSections: () -> Int
    var numberOfRows: (Int) -> Int
    var cell: (IndexPath) -> Shown
    var header: (Int) -> Shown
}

/// A stand-in for `UITableView` and `UICollectionView` that keeps what it shows (its cells and
/// headers, as configured from the data source) and enforces UIKit's batch rules: every rule
/// broken is recorded in ``violations`` (where UIKit raises `NSInternalInconsistencyException`),
/// and the view then reloads from the data source.
///
/// Like UIKit, it asks the data source for counts lazily: after `reloadData()` nothing is asked
/// until ``layout()`` or the next batch starts, and then the answers are taken as the state
/// *before* the batch. After the batch's updates it asks again and checks each section's count
/// against the counts before, plus or minus the rows inserted, deleted and moved in or out.
@MainActor
final class StrictFakeView {
    var dataSource: FakeDataSource?
    /// What the view shows; `nil` until it first asks the data source after a reload.
    private(set) var cells: [[Shown]]?
    private(set) var headers: [Shown] = []
    private(set) var violations: [String] = []
    private(set) var batchCount = 0
    private(set) var reloadCount = 0
    private(set) var reconfiguredCount = 0
    private(set) var reloadedRowCount = 0
    private var batch: Batch?

    /// The operations of the batch being built, in the terms UIKit checks.
    struct Batch {
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        var reloadedSections: [Int] = []
        var movedSections: [(from: Int, to: Int)] = []
        var deletedRows: [IndexPath] = []
        var insertedRows: [IndexPath] = []
        var reloadedRows: [IndexPath] = []
        var movedRows: [(from: IndexPath, to: IndexPath)] = []
    }

    /// The view lays itself out: it asks the data source for what it does not know yet.
    func layout() { loadIfNeeded() }

    func reloadData() {
        if batch != nil { violations.append("reloadData() inside performBatchUpdates") }
        reloadCount += 1
        cells = nil
    }

    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        if batch != nil { violations.append("performBatchUpdates inside another batch") }
        loadIfNeeded()
        batch = Batch()
        updates?()
        let ops = batch ?? Batch()
        batch = nil
        batchCount += 1
        end(ops)
        completion?(true)
    }

    func record(_ operation: String, _ change: (inout Batch) -> Void) {
        guard batch != nil else {
            violations.append("\(operation) outside performBatchUpdates")
            return
        }
        change(&batch!)
    }

    /// `reloadSections` outside a batch is a batch of its own, as in UIKit.
    func reloadSections(_ sections: IndexSet) {
        if batch != nil {
            batch!.reloadedSections += sections
        } else {
            performBatchUpdates({ self.batch!.reloadedSections += sections }, completion: nil)
        }
    }

    /// Reconfigures keep each cell and configure it again; a cell now showing another item means
    /// the data source and the view disagree.
    func reconfigure(_ paths: [IndexPath]) {
        if batch != nil { violations.append("reconfigure inside performBatchUpdates") }
        loadIfNeeded()
        guard let dataSource, var shown = cells else { return }
        for path in paths {
            guard path.count == 2, shown.indices.contains(path[0]), shown[path[0]].indices.contains(path[1]) else {
                violations.append("reconfigure of \(Array(path)), which the view does not show")
                continue
            }
            let now = dataSource.cell(path)
            if now.id != shown[path[0]][path[1]].id {
                violations.append(
                    "reconfigure of \(Array(path)) shows \(shown[path[0]][path[1]].id), the data source says \(now.id)")
            }
            shown[path[0]][path[1]] = now
            reconfiguredCount += 1
        }
        cells = shown
    }

    private func loadIfNeeded() {
        guard cells == nil, let dataSource else { return }
        let count = dataSource.numberOfSections()
        cells = (0..<count).map { section in
            (0..<dataSource.numberOfRows(section)).map { dataSource.cell(IndexPath(indexes: [section, $0])) }
        }
        headers = (0..<count).map { dataSource.header($0) }
    }

    private func fail(_ message: String) {
        violations.append(message)
        cells = nil
        loadIfNeeded()
    }

    /// Checks the batch against the counts before it and the data source's after it, then moves
    /// the cells as UIKit does.
    private func end(_ ops: Batch) {
        guard let dataSource, let before = cells else { return }
        let oldCount = before.count
        let newCount = dataSource.numberOfSections()
        let newRows = (0..<newCount).map { dataSource.numberOfRows($0) }
        if newCount != oldCount - ops.deletedSections.count + ops.insertedSections.count {
            return fail(
                "invalid number of sections: \(newCount) after the update, \(oldCount) before, "
                    + "\(ops.insertedSections.count) inserted, \(ops.deletedSections.count) deleted")
        }
        let oldSections = ops.deletedSections + ops.movedSections.map(\.from) + ops.reloadedSections
        let newSections = ops.insertedSections + ops.movedSections.map(\.to)
        if let bad = oldSections.first(where: { !(0..<oldCount).contains($0) }) {
            return fail("section \(bad) does not exist before the update")
        }
        if let bad = newSections.first(where: { !(0..<newCount).contains($0) }) {
            return fail("section \(bad) does not exist after the update")
        }
        if Set(oldSections).count != oldSections.count || Set(newSections).count != newSections.count {
            return fail("a section is named twice in one batch: \(ops)")
        }
        // Where each old section goes: moved, kept in order, or gone.
        var sourceOf = [Int?](repeating: nil, count: newCount)
        var destinationOf = [Int?](repeating: nil, count: oldCount)
        for move in ops.movedSections {
            sourceOf[move.to] = move.from
            destinationOf[move.from] = move.to
        }
        let deleted = Set(ops.deletedSections)
        let inserted = Set(ops.insertedSections)
        var kept = (0..<oldCount).filter { !deleted.contains($0) && destinationOf[$0] == nil }.makeIterator()
        for section in 0..<newCount where sourceOf[section] == nil && !inserted.contains(section) {
            guard let old = kept.next() else { return fail("sections do not add up: \(ops)") }
            sourceOf[section] = old
            destinationOf[old] = section
        }
        let movedSections = Set(ops.movedSections.map(\.from))
        if let bad = ops.reloadedSections.first(where: movedSections.contains) {
            return fail("section \(bad) is reloaded and moved in one batch")
        }
        // Rows: old paths must exist before, new ones after, none twice, none in a section the
        // batch deletes or inserts, no reload of a moved row or of a row whose section moves.
        func exists(_ path: IndexPath, in rows: [Int]) -> Bool {
            path.count == 2 && rows.indices.contains(path[0]) && (0..<rows[path[0]]).contains(path[1])
        }
        let oldRows = before.map(\.count)
        let oldPaths = ops.deletedRows + ops.reloadedRows + ops.movedRows.map(\.from)
        let newPaths = ops.insertedRows + ops.movedRows.map(\.to)
        if let bad = oldPaths.first(where: { !exists($0, in: oldRows) }) {
            return fail("row \(Array(bad)) does not exist before the update")
        }
        if let bad = newPaths.first(where: { !exists($0, in: newRows) }) {
            return fail("row \(Array(bad)) does not exist after the update")
        }
        if Set(oldPaths).count != oldPaths.count || Set(newPaths).count != newPaths.count {
            return fail("a row is named twice in one batch")
        }
        if let bad = (ops.deletedRows + ops.reloadedRows).first(where: { deleted.contains($0[0]) }) {
            return fail("row \(Array(bad)) is in a section the batch deletes")
        }
        if let bad = newPaths.first(where: { inserted.contains($0[0]) }) {
            return fail("row \(Array(bad)) is in a section the batch inserts")
        }
        let movedFrom = Set(ops.movedRows.map(\.from))
        if let bad = ops.reloadedRows.first(where: { movedFrom.contains($0) || movedSections.contains($0[0]) }) {
            return fail("row \(Array(bad)) is reloaded and moves in one batch")
        }
        // Each surviving section's count: before, minus deleted and moved out, plus inserted and
        // moved in (UIKit's "invalid number of rows in section").
        for section in 0..<newCount {
            guard let old = sourceOf[section] else { continue }
            let out = ops.deletedRows.filter { $0[0] == old }.count + ops.movedRows.filter { $0.from[0] == old }.count
            let into =
                ops.insertedRows.filter { $0[0] == section }.count + ops.movedRows.filter { $0.to[0] == section }.count
            if newRows[section] != oldRows[old] - out + into {
                return fail(
                    "invalid number of rows in section \(section): \(newRows[section]) after the update, "
                        + "\(oldRows[old]) before, \(into) inserted or moved in, \(out) deleted or moved out")
            }
        }
        // Move the cells: survivors keep their order around what is inserted and moved in.
        var moving: [IndexPath: Shown] = [:]
        for move in ops.movedRows { moving[move.to] = before[move.from[0]][move.from[1]] }
        let gone = Set(ops.deletedRows + ops.movedRows.map(\.from))
        let reloaded = Set(ops.reloadedRows)
        var after: [[Shown]] = []
        var newHeaders: [Shown] = []
        for section in 0..<newCount {
            guard let old = sourceOf[section] else {
                after.append((0..<newRows[section]).map { dataSource.cell(IndexPath(indexes: [section, $0])) })
                newHeaders.append(dataSource.header(section))
                continue
            }
            var survivors = before[old].indices.filter { !gone.contains(IndexPath(indexes: [old, $0])) }.makeIterator()
            var rows: [Shown] = []
            for row in 0..<newRows[section] {
                let path = IndexPath(indexes: [section, row])
                if let cell = moving[path] {
                    rows.append(cell)
                } else if ops.insertedRows.contains(path) {
                    rows.append(dataSource.cell(path))
                } else if let oldRow = survivors.next() {
                    if reloaded.contains(IndexPath(indexes: [old, oldRow])) || ops.reloadedSections.contains(old) {
                        reloadedRowCount += 1
                        rows.append(dataSource.cell(path))
                    } else {
                        rows.append(before[old][oldRow])
                    }
                }
            }
            after.append(rows)
            newHeaders.append(ops.reloadedSections.contains(old) ? dataSource.header(section) : headers[old])
        }
        cells = after
        headers = newHeaders
    }
}

extension StrictFakeView {
    /// A header updated in place after a batch (what an app's `reconfigureSectionHeader` does).
    func reconfigureHeader(_ section: Int) {
        if batch != nil { violations.append("header reconfigure inside performBatchUpdates") }
        loadIfNeeded()
        guard let dataSource, headers.indices.contains(section) else {
            return violations.append("header reconfigure of section \(section), which the view does not show")
        }
        headers[section] = dataSource.header(section)
    }
}
