/// Why a reduction could not start or go on.
public struct ReductionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The input cannot be read as a history.
        public static let badInput = Code("badInput")
        /// The oracle does not fail on the whole history: there is nothing to reduce.
        public static let passesOnInput = Code("passesOnInput")
        /// The oracle fails on the empty history: it does not depend on the history at all.
        public static let failsOnEmpty = Code("failsOnEmpty")
        /// A predicate ran past its timeout, and the timeout was not declared to mean pass or fail.
        public static let timedOut = Code("timedOut")
        /// A predicate could not be started, or its input could not be written.
        public static let predicateNotRun = Code("predicateNotRun")

        /// The code's stable name.
        public var description: String { name }
    }

    /// What kind of problem it is.
    public let code: Code
    /// What went wrong and what to do, in one line.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// ``message``.
    public var description: String { message }
}
