import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import Testing

/// One PostgreSQL log shared by processes as if on two hosts: two writers racing appends with
/// `expectedLatest`, two subscribers following from the start throughout. Each process has its
/// own connections and its own `LISTEN` connection, as a process on another machine would.
@Suite struct TwoHostsTests {
    @Test func racingWritersAndFollowingSubscribersInOtherProcessesAgreeOnEveryRevision() async throws {
        guard let url = TestServer.url else { return }
        let logURL = TestServer.freshLogURL(url)
        let perWriter: UInt64 = 40
        let total = 2 * perWriter
        let log = try await offThePool { try ChangeLog(url: logURL) }
        let subscribers = try (0..<2).map { _ in
            try WorkerProcess([
                "follow", "--log", logURL, "--engine", "postgres", "--until", "\(total)", "--poll-ms", "200",
                "--read-only", "yes",
            ])
        }
        for subscriber in subscribers { _ = try await subscriber.waitForLine { $0 == "following" } }
        // Each writer reads the latest revision and appends after it with expectedLatest, until
        // it has won `perWriter` times; every loss is printed as `conflict L`.
        let writers = try ["A", "B"].map { name in
            try WorkerProcess([
                "write", "--log", logURL, "--engine", "postgres", "--content-seed", "31", "--items", "40",
                "--transactions", "\(perWriter)", "--writer", name, "--report-conflicts", "yes",
            ])
        }
        for writer in writers {
            let status = try await writer.waitForExit()
            #expect(status == 0, "\(writer.errors)")
        }
        for subscriber in subscribers {
            let status = try await subscriber.waitForExit()
            #expect(status == 0, "\(subscriber.errors)")
        }

        // Revisions 1...total, each stored by the writer that reported winning it.
        #expect(try await offThePool { try log.latestRevision } == total)
        #expect(try await log.verify().isValid)
        let writerOf = try await offThePool {
            try (1...total).map { revision in try log.record(at: revision).meta["writer"] ?? "" }
        }
        let won = writers.map(\.committedRevisions)
        #expect(won.map(\.count) == [Int(perWriter), Int(perWriter)])
        #expect((won[0] + won[1]).sorted() == Array(1...total))
        for (index, name) in ["A", "B"].enumerated() {
            #expect(won[index].allSatisfy { writerOf[Int($0) - 1] == name }, "writer \(name)")
            // A conflict after L means the other writer appended L + 1.
            for expected in writers[index].conflicts {
                #expect(expected < total && writerOf[Int(expected)] != name, "writer \(name): conflict \(expected)")
            }
            // Every attempt printed its outcome, and nothing else was printed.
            let other = writers[index].lines.map(\.text).filter {
                !$0.hasPrefix("ready ") && !$0.hasPrefix("committed ") && !$0.hasPrefix("conflict ")
            }
            #expect(other.isEmpty, "writer \(name) printed \(other)")
        }
        let conflicts = writers.map(\.conflicts.count)
        print("TwoHostsTests: \(total) revisions won, conflicts reported: \(conflicts)")

        // Each subscriber received every revision once, in order, with the stored content.
        let digests = try await storedDigests(of: log, through: total)
        for (index, subscriber) in subscribers.enumerated() {
            let followed = subscriber.followed
            #expect(followed.map(\.revision) == Array(1...total), "subscriber \(index)")
            #expect(followed.map(\.digest) == digests, "subscriber \(index)")
            #expect(subscriber.lines.last?.text == "done")
        }
    }
}
