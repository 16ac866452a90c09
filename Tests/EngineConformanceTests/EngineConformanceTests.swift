import ChangeLogTestSupport
import Foundation
import Testing

/// The engine conformance suite (``EngineConformance``) on every engine of ``engines``: each
/// guarantee once per engine, in a fresh temporary directory.
@Suite struct EngineConformanceTests {
    @Test("revisions are numbered from 1 without gaps and read back as appended", arguments: engines)
    func revisionsFromOne(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.revisionsFromOneWithoutGaps(engine, in: $0) }
    }

    @Test("of two appends racing with one expectedLatest in a process, one wins, one conflicts", arguments: engines)
    func conflictInProcess(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.conflictInProcess(engine, in: $0) }
    }

    // Engines whose logs one process writes at a time are left out, each for the reason its
    // EngineUnderTest gives (`racingProcesses`).
    @Test(
        "of two processes racing with one expectedLatest, one wins, one conflicts",
        arguments: engines.filter { $0.racingProcesses.isSupported })
    func conflictAcrossProcesses(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.conflictAcrossProcesses(engine, in: $0) }
    }

    @Test("a batch with one invalid entry stores nothing", arguments: engines)
    func batchIsAllOrNothing(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.batchIsAllOrNothing(engine, in: $0) }
    }

    @Test("concurrent appenders share transactions, each getting its own revision", arguments: engines)
    func groupCommit(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.groupCommit(engine, in: $0) }
    }

    @Test("subscriptions from any revision catch up, then follow, with no gap and no duplicate", arguments: engines)
    func subscriptions(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.subscriptions(engine, in: $0) }
    }

    @Test("retention keeps the rest readable, or is refused clearly where unsupported", arguments: engines)
    func retention(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.retention(engine, in: $0) }
    }

    @Test("a log opened read-only refuses writes and reads", arguments: engines)
    func readOnly(_ engine: EngineUnderTest) async throws {
        try await inDirectory { try await EngineConformance.readOnlyRefusesWrites(engine, in: $0) }
    }

    /// Runs `body` with a fresh directory, removed afterwards.
    private func inDirectory(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("EngineConformance-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }
}
