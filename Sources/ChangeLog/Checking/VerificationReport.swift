/// What ``ChangeLog/verify(_:progress:)`` found: the revisions it checked and, when one fails,
/// the first failing revision and what differs.
///
/// A damaged or inconsistent log is reported here, not thrown: ``isValid`` is `false` and
/// ``failure`` names the revision.
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// The revisions verified, or `nil` when the whole log was asked for and it is empty.
    public var range: ClosedRange<UInt64>?
    /// How many revisions of ``range`` passed every check: all of them when the log is valid,
    /// the ones before ``failure``'s revision otherwise.
    public var revisionsChecked: Int
    /// The first failure, or `nil` when every revision of the range passed.
    public var failure: VerificationFailure?

    /// Creates a report.
    public init(range: ClosedRange<UInt64>?, revisionsChecked: Int, failure: VerificationFailure?) {
        self.range = range
        self.revisionsChecked = revisionsChecked
        self.failure = failure
    }

    /// Whether every revision of the range passed.
    public var isValid: Bool { failure == nil }

    /// The failure's description when a revision failed (`revision 7: ...`); otherwise which
    /// revisions were verified, for example `revisions 1 to 200 verified`.
    public var description: String {
        if let failure {
            return failure.description
        }
        guard let range else { return "the log is empty: nothing to verify" }
        if range.lowerBound == range.upperBound {
            return "revision \(range.lowerBound) verified"
        }
        return "revisions \(range.lowerBound) to \(range.upperBound) verified"
    }
}

/// The first revision that fails verification, and why, readably.
///
/// ``description`` names the revision and shows what differs, for example:
///
/// ```
/// revision 7: applying its changes to revision 6 does not give the stored snapshot: section 1
/// "Today": item [1, 3] expected "msg-12" (summary "hi") but found "msg-14"; section count expected 3 found 4
/// ```
///
/// "Expected" is the revision's stored snapshot; "found" is what applying its changes to the
/// previous snapshot gives.
public struct VerificationFailure: Error, Sendable, CustomStringConvertible {
    /// Why a revision fails verification.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The revision's changes break the interchange format's validity rules for the previous
        /// snapshot (the rules `UITableView` enforces), or do not apply to it.
        public static let invalidChanges = Code("invalidChanges")
        /// The changes apply, but the result is not the revision's stored snapshot.
        public static let snapshotMismatch = Code("snapshotMismatch")
        /// The revision's record or one of its snapshot's chunks fails its checksum or does not
        /// decode: the file was changed behind the log's back or damaged.
        public static let unreadable = Code("unreadable")

        /// The code's stable name.
        public var description: String { name }
    }

    /// The revision that fails. For ``Code-swift.struct/unreadable`` this can be the revision
    /// just before the range verified, whose snapshot the range's first revision needs.
    public var revision: UInt64
    /// Why it fails.
    public var code: Code
    /// What is wrong, one line each, at most ten: for ``Code-swift.struct/snapshotMismatch`` the
    /// sections and items that differ (offset and title, path and identifier, expected and
    /// found), then the section count when it differs; for the other codes, the one message of
    /// the broken rule or of the damage.
    public var differences: [String]
    /// How many more differences there are beyond ``differences``.
    public var omittedDifferences: Int
    /// The underlying error: the ``ChangeLogError`` of an unreadable record, or the
    /// `ListChangesError` of invalid changes.
    public var cause: (any Error & Sendable)?

    /// Creates a failure.
    public init(
        revision: UInt64, code: Code, differences: [String], omittedDifferences: Int = 0,
        cause: (any Error & Sendable)? = nil
    ) {
        self.revision = revision
        self.code = code
        self.differences = differences
        self.omittedDifferences = omittedDifferences
        self.cause = cause
    }

    /// The failing revision, what went wrong and what differs, on one line.
    public var description: String {
        let previous = revision <= 1 ? "the empty snapshot" : "revision \(revision - 1)"
        var details = differences.joined(separator: "; ")
        if omittedDifferences > 0 {
            details += "; and \(omittedDifferences) more difference\(omittedDifferences == 1 ? "" : "s")"
        }
        switch code {
        case .invalidChanges:
            return "revision \(revision): its changes are not valid for \(previous): \(details)"
        case .snapshotMismatch:
            return "revision \(revision): applying its changes to \(previous) does not give the stored snapshot: "
                + details
        case .unreadable:
            return "revision \(revision) cannot be read: \(details)"
        default:
            return "revision \(revision): \(code): \(details)"
        }
    }
}
