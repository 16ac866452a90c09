import ChangeLog
import ListAdapter

/// A renderer that checks each revision's changes as one `performBatchUpdates` batch under
/// UIKit's rules (`StrictListView` in its `uiKit` mode), the way an app that applies recorded
/// changes directly delivers them, and goes on after a refusal: `replay play --into strict
/// --one-batch`.
///
/// `UIKitStrictRenderer` answers another question: whether the changes, staged as
/// `ListChanges.stagedForUIKit()` stages them (what the library's own view path applies), are
/// accepted. A batch that moves and reloads one item passes there and is refused here.
///
/// A refused batch is recorded in ``refusals`` and the view then shows the revision's snapshot,
/// so that every later revision is checked too. A class, so that the replay's `willApply` can
/// set ``revision`` while the replay holds the renderer.
public final class OneBatchChecker: ListRenderer {
    /// A revision refused as one batch.
    public struct Refusal: Hashable, Sendable, CustomStringConvertible {
        /// The revision.
        public var revision: UInt64
        /// Whether the batch passes the interchange format's rules and breaks only UIKit's rule
        /// against updating what moves in the same batch: staged, it would be accepted.
        public var needsStaging: Bool
        /// The rule the batch breaks, and UIKit's words for it.
        public var error: BatchUpdateError

        /// `revision 5 needs staging: updatedItemMoved: ...`, or `revision 7 is refused: ...`
        /// for a batch that no staging saves.
        public var description: String {
            "revision \(revision) " + (needsStaging ? "needs staging" : "is refused") + ": \(error.code): \(error)"
        }
    }

    private var view = StrictListView<String, String, String>(strictness: .uiKit)
    /// The revision of the next batch, which the replay sets before each one.
    public var revision: UInt64 = 0
    /// The batches refused, in revision order.
    public private(set) var refusals: [Refusal] = []
    /// The batches accepted as one batch.
    public private(set) var acceptedBatches = 0

    /// Creates a checker showing the empty list.
    public init() {}

    /// Shows `snapshot`.
    public func reloadData(_ snapshot: LogSnapshot) {
        view.reloadData(snapshot)
    }

    /// Checks `changes` as one batch; a refusal is recorded, never thrown.
    /// - Complexity: O(*n* + *c*) expected, as `StrictListView.performBatchUpdates(_:resultingIn:)`.
    public func performBatchUpdates(_ changes: LogChanges, resultingIn snapshot: LogSnapshot) {
        do {
            try view.performBatchUpdates(changes, resultingIn: snapshot)
            acceptedBatches += 1
        } catch {
            var formatOnly = StrictListView<String, String, String>(strictness: .format, showing: view.snapshot)
            let needsStaging = (try? formatOnly.performBatchUpdates(changes, resultingIn: snapshot)) != nil
            refusals.append(Refusal(revision: revision, needsStaging: needsStaging, error: error))
            view.reloadData(snapshot)
        }
    }
}
