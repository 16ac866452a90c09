/// Why a ``ListAdapter`` could not read its data source or fetch an item.
///
/// When an invalidation fails the adapter keeps its last good snapshot and reports this error to
/// its observers (``ListAdapterObserver/listAdapter(_:didFail:)``); the next invalidation tries
/// again. ``message`` says what went wrong and what to do; ``underlying`` is the cause.
public struct ListAdapterError: Error, CustomStringConvertible {
    /// What kind of failure this is. Codes are compared by ``name``; new ones may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String

        /// The data source's ``ListSource/contents()`` (or ``ListDataSource/identifiers()``) threw;
        /// ``underlying`` is its error.
        public static let identifiersFailed = Code(name: "identifiersFailed")
        /// The data source returned an identifier or a section title twice, and the adapter
        /// refuses duplicates (``DuplicatePolicy/refuse``); ``underlying`` is the
        /// ``ListSnapshotError`` that names it and both of its positions.
        public static let duplicateIdentifier = Code(name: "duplicateIdentifier")
        /// The data source's ``ListSource/item(for:)`` threw; ``underlying`` is its error.
        public static let itemFetchFailed = Code(name: "itemFetchFailed")

        /// The code's stable name.
        /// - Complexity: O(1).
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    /// - Complexity: O(1).
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The snapshot error naming the duplicate identifier or title, for ``Code/duplicateIdentifier``.
    /// - Complexity: O(1).
    public var snapshotError: ListSnapshotError? { underlying as? ListSnapshotError }

    /// The message, followed by the underlying error when there is one.
    /// - Complexity: O(*m*), where *m* is the length of the message and of the underlying error's description.
    public var description: String {
        guard let underlying else { return message }
        return "\(message) (\(underlying))"
    }

    /// The data source's `identifiers()` threw `error`.
    static func identifiersFailed(_ error: any Error) -> Self {
        Self(
            code: .identifiersFailed,
            message: "The data source failed to list its identifiers; the adapter keeps its last snapshot. "
                + "Fix the data source's identifiers() and invalidate again",
            underlying: error)
    }

    /// The data source returned an identifier or a section title twice.
    static func duplicateIdentifier(_ error: ListSnapshotError) -> Self {
        guard error.code == .duplicateSectionTitle else {
            return Self(
                code: .duplicateIdentifier,
                message: "The data source returned the identifier \(quotedExcerpt(error.duplicate)) twice "
                    + "(\(error.firstPosition) and \(error.secondPosition) once grouped into sections); "
                    + "the adapter keeps its last snapshot. Make identifiers() return each identifier once, "
                    + "or create the adapter with duplicatePolicy .keepFirst",
                underlying: error)
        }
        return Self(
            code: .duplicateIdentifier,
            message: "The data source returned the section title \(quotedExcerpt(error.duplicate)) twice "
                + "(sections \(error.firstPosition[0]) and \(error.secondPosition[0])); the adapter keeps its last "
                + "snapshot. Make contents() return each section once, or create the adapter with duplicatePolicy "
                + ".keepFirst",
            underlying: error)
    }

    /// Fetching the item identified by `id` threw `error`.
    static func itemFetchFailed(_ id: some Hashable, _ error: any Error) -> Self {
        Self(
            code: .itemFetchFailed,
            message: "The data source failed to fetch the item \(quotedExcerpt(String(describing: id))). "
                + "Check the data source's item(for:) and ask again",
            underlying: error)
    }
}
