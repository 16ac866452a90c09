import ChangeLog

/// A storage engine the conformance suite (``EngineConformance``) runs on: how to place and
/// open a log on it, and what it does not support, each with the reason. Adding an engine to
/// the suite is adding one of these to the list in Tests/EngineConformanceTests.
package struct EngineUnderTest: Sendable, CustomStringConvertible {
    /// Whether the engine supports a guarantee; when not, why, which the suite states instead
    /// of skipping silently.
    package enum Capability: Sendable {
        /// The engine provides it: the suite checks it.
        case supported
        /// The engine does not, for the reason given.
        case unsupported(because: String)

        /// Whether the engine provides it.
        package var isSupported: Bool {
            if case .supported = self { return true }
            return false
        }
    }

    /// The engine's name, as test results show it.
    package var name: String
    /// Where a new log goes inside `directory`, a fresh empty directory of its own.
    package var location: @Sendable (_ directory: String) -> String
    /// Opens the log at a location from ``location`` with `options`.
    package var open: @Sendable (_ location: String, _ options: ChangeLog.Options) throws -> ChangeLog
    /// The `--engine` argument with which `ChangeLogWorker` opens the log in another process.
    package var workerEngine: String
    /// Whether several processes may write to one log at once (and so race with
    /// `expectedLatest`).
    package var racingProcesses: Capability
    /// Whether ``ChangeLog/dropRevisions(before:)`` is supported.
    package var retention: Capability

    /// Describes an engine.
    package init(
        name: String, location: @escaping @Sendable (String) -> String,
        open: @escaping @Sendable (String, ChangeLog.Options) throws -> ChangeLog, workerEngine: String = "",
        racingProcesses: Capability = .supported, retention: Capability = .supported
    ) {
        self.name = name
        self.location = location
        self.open = open
        self.workerEngine = workerEngine
        self.racingProcesses = racingProcesses
        self.retention = retention
    }

    /// The engine's name.
    package var description: String { name }
}

/// A guarantee the engine under test broke, with what was seen.
package struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was expected and what was seen.
    package var description: String

    /// A failure described by `description`.
    package init(description: String) {
        self.description = description
    }
}

/// Throws a ``ConformanceFailure`` with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () throws -> String) throws {
    guard condition else { throw ConformanceFailure(description: try message()) }
}
