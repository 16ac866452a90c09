import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// The PostgreSQL server restarted under a log's subscribers: a subscriber following live and
/// one still catching up both go on after the restart from where they were, with no gap and no
/// duplicate, the second having retried its reads while the server was down.
@Suite struct ServerRestartTests {
    private static let seed: UInt64 = 31

    private static func snapshot(_ revision: UInt64) throws -> LogSnapshot {
        try CrashContent.snapshot(seed: seed, revision: revision, items: 20)
    }

    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func subscribersRideOutARestartWithNoGapAndNoDuplicate() async throws {
        _ = try await PrivateServer.with { server in
            let url = server.logURL("restart")
            let writer = try await offThePool { try ChangeLog(url: url) }
            for revision in UInt64(1)...30 { _ = try await writer.append(try Self.snapshot(revision)) }
            let reader = try await offThePool {
                try ChangeLog(url: url, options: .init(subscriptionPollInterval: .seconds(1)))
            }

            // One subscriber follows live, in the log's feed; the other has read only 1...8.
            var live = reader.subscribe(from: 1).makeAsyncIterator()
            #expect(try await Self.revisions(from: &live, through: 30) == Array(1...30))
            #expect(try await live.next() == .caughtUp(latest: 30))
            var behind = reader.subscribe(from: 1, batchSize: 4).makeAsyncIterator()
            #expect(try await Self.revisions(from: &behind, through: 8) == Array(1...8))

            let retriesBefore = ReadRetry.retryCount
            try await server.stop()
            let rest = Task { [behind] in
                var behind = behind
                return try await Self.revisions(from: &behind, through: 40)
            }
            // The subscriber catching up reads while the server is down: its reads fail and are
            // tried again (retries by other tests of the process only make this wait shorter).
            while ReadRetry.retryCount < retriesBefore + 2 {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await server.start()

            let writerAfter = try await offThePool { try ChangeLog(url: url) }
            for revision in UInt64(31)...40 { _ = try await writerAfter.append(try Self.snapshot(revision)) }
            #expect(try await Self.revisions(from: &live, through: 40) == Array(31...40))
            #expect(try await rest.value == Array(9...40))
            let report = try await reader.verify()
            #expect(report.isValid && report.revisionsChecked == 40)
        }
    }

    /// The revisions `iterator` delivers up to `last`, each checked against what was appended;
    /// a caught-up marker on the way is skipped, the end of the subscription is an issue.
    private static func revisions(
        from iterator: inout LogSubscription.Iterator, through last: UInt64
    ) async throws -> [UInt64] {
        var revisions: [UInt64] = []
        while revisions.last ?? 0 < last {
            switch try await iterator.next() {
            case .revision(let record)?:
                #expect(record.snapshot == (try snapshot(record.revision)), "revision \(record.revision)")
                revisions.append(record.revision)
            case .caughtUp?:
                continue
            case nil:
                Issue.record("the subscription ended after \(revisions)")
                return revisions
            }
        }
        return revisions
    }
}
