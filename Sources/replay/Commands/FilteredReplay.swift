import ChangeLog
import ListAdapter

/// `replay play --where`: feeds a renderer only the revisions whose metadata satisfy every
/// condition. The first one arrives as its whole list (`reloadData`); each later one as the
/// changes that take the list last played to its list (the changes `diff --log` prints for the
/// two revisions) and its snapshot, so the renderer stays consistent and a strict renderer still
/// checks every batch.
struct FilteredReplay {
    /// What a filtered replay did.
    struct Outcome {
        /// The batches applied and the refusal, as an unfiltered replay reports them.
        var report: ReplayReport
        /// The revisions that satisfied the conditions and were played (a refused one counts).
        var played: Int
    }

    let log: ChangeLog
    let range: ClosedRange<UInt64>
    let filters: [MetaFilter]

    /// Plays the matching revisions of the range into `renderer`. `willApply` is called with each
    /// matching revision before the renderer gets it, `progress` with every revision read.
    ///
    /// Only the revisions' changes and annotations are read to find the matching ones; a matching
    /// revision's snapshot is read when it is played.
    func replay<R: ListRenderer>(
        into renderer: inout R, willApply: (UInt64) -> Void, progress: (UInt64) -> Void
    ) async throws -> Outcome where R.ItemID == String, R.Summary == String, R.SectionSummary == String {
        var shown: LogSnapshot?
        var batches = 0
        var played = 0
        for try await revision in log.changes(in: range) {
            defer { progress(revision.revision) }
            guard MetaFilter.all(filters, match: revision.meta) else { continue }
            let snapshot = try log.snapshot(at: revision.revision)
            played += 1
            willApply(revision.revision)
            guard let previous = shown else {
                renderer.reloadData(snapshot)
                shown = snapshot
                continue
            }
            let changes = previous.changes(to: snapshot)
            do {
                try renderer.performBatchUpdates(changes, resultingIn: snapshot)
            } catch {
                let refusal = ReplayRefusal(
                    revision: revision.revision, message: String(describing: error), changes: changes)
                return Outcome(
                    report: ReplayReport(range: range, batchesApplied: batches, refusal: refusal), played: played)
            }
            batches += 1
            shown = snapshot
        }
        guard played > 0 else {
            throw InputError(
                "no revision of \(ExportInput.name(ofLogAt: log.path)) from \(range.lowerBound) to "
                    + "\(range.upperBound) satisfies "
                    + filters.map { "--where " + shellQuoted($0.description) }.joined(separator: " "))
        }
        return Outcome(report: ReplayReport(range: range, batchesApplied: batches, refusal: nil), played: played)
    }
}
