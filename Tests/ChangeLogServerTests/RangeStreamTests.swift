import ChangeLog
import ChangeLogTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

@testable import ChangeLogServer

/// What a range stream did: the records its source handed out, the chunks it wrote, whether it
/// finished the body, and how far the source ever ran ahead of the lines written.
final class StreamProbe: Sendable {
    struct State {
        var pulled = 0
        var chunks: [[UInt8]] = []
        var linesWritten = 0
        var finished = false
        var mostAhead = 0
    }

    let state = Mutex(State())
    /// The write after which the writer fails, as a client that went away makes it fail.
    let failingWrite: Int?
    /// How many times the writer yields in each write, as a slow client holds the writer back.
    let yieldsPerWrite: Int

    init(failingWrite: Int? = nil, yieldsPerWrite: Int = 0) {
        self.failingWrite = failingWrite
        self.yieldsPerWrite = yieldsPerWrite
    }

    var value: State { state.withLock { $0 } }
    var text: String { String(decoding: value.chunks.joined(), as: UTF8.self) }
}

struct ClientGone: Error {}
struct ReadFailure: Error, Equatable {}

/// A response body writer that keeps what it is given.
struct CollectingWriter: ResponseBodyWriter {
    let probe: StreamProbe

    mutating func write(_ buffer: ByteBuffer) async throws {
        let count = probe.state.withLock { state in
            state.chunks.append(Array(buffer.readableBytesView))
            state.linesWritten += buffer.readableBytesView.count { $0 == UInt8(ascii: "\n") }
            return state.chunks.count
        }
        for _ in 0..<probe.yieldsPerWrite { await Task.yield() }
        if count == probe.failingWrite { throw ClientGone() }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        probe.state.withLock { $0.finished = true }
    }
}

/// Records handed out one by one, counted by the probe; it fails after `failingAfter` of them
/// when that is set.
struct ProbedRecords: AsyncSequence, Sendable {
    let records: [RevisionRecord]
    let probe: StreamProbe
    var failingAfter: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: ProbedRecords
        var offset = 0

        mutating func next() async throws -> RevisionRecord? {
            if offset == source.failingAfter { throw ReadFailure() }
            guard offset < source.records.count else { return nil }
            defer { offset += 1 }
            source.probe.state.withLock { state in
                state.pulled += 1
                state.mostAhead = Swift.max(state.mostAhead, state.pulled - state.linesWritten)
            }
            return source.records[offset]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

@Suite struct RangeStreamTests {
    /// The records of a log of `count` revisions whose snapshots hold `itemsPerSection` items in
    /// their first section.
    static func records(_ count: Int, itemsPerSection: Int = 3) async throws -> [RevisionRecord] {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...count, to: log, itemsPerSection: itemsPerSection)
            var records: [RevisionRecord] = []
            for try await record in log.records(in: 1...UInt64(count)) { records.append(record) }
            return records
        }
    }

    static func stream(
        _ source: ProbedRecords, changesOnly: Bool = false, queueCapacity: Int, chunkBytes: Int
    ) async throws {
        var writer: any ResponseBodyWriter = CollectingWriter(probe: source.probe)
        try await RevisionRangeStream.write(
            source, changesOnly: changesOnly, queueCapacity: queueCapacity, chunkBytes: chunkBytes, to: &writer)
    }

    @Test(
        "lines are written whole, in order, exactly, across chunk and queue boundaries",
        arguments: [(1, 1, 1), (1, 64, 65_536), (40, 1, 1), (40, 3, 900), (40, 64, 65_536), (40, 7, 2_000)])
    func exactLinesAcrossChunks(count: Int, queueCapacity: Int, chunkBytes: Int) async throws {
        let records = try await Self.records(count, itemsPerSection: 20)
        for changesOnly in [false, true] {
            let probe = StreamProbe()
            try await Self.stream(
                ProbedRecords(records: records, probe: probe), changesOnly: changesOnly,
                queueCapacity: queueCapacity, chunkBytes: chunkBytes)
            let lines = records.map { changesOnly ? RevisionLines.changesOnlyLine($0) : $0.jsonLine() }
            #expect(probe.text == lines.map { $0 + "\n" }.joined())
            #expect(probe.value.finished)
            let longest = lines.map(\.utf8.count).max()! + 1
            for chunk in probe.value.chunks {
                #expect(chunk.last == UInt8(ascii: "\n"))
                #expect(chunk.count < chunkBytes + longest)
            }
            // Lines gather until a chunk reaches `chunkBytes`, then go out together.
            var sizes: [Int] = []
            var pending = 0
            for line in lines {
                pending += line.utf8.count + 1
                if pending >= chunkBytes {
                    sizes.append(pending)
                    pending = 0
                }
            }
            if pending > 0 { sizes.append(pending) }
            #expect(probe.value.chunks.map(\.count) == sizes)
        }
    }

    @Test("a read error ends the stream after the lines before it, unfinished, with that error")
    func readErrorAfterTheLinesBeforeIt() async throws {
        let records = try await Self.records(30)
        for failingAfter in [0, 1, 17] {
            let probe = StreamProbe()
            await #expect(throws: ReadFailure.self) {
                try await Self.stream(
                    ProbedRecords(records: records, probe: probe, failingAfter: failingAfter), queueCapacity: 4,
                    chunkBytes: 1_000)
            }
            #expect(probe.text == records.prefix(failingAfter).map { $0.jsonLine() + "\n" }.joined())
            #expect(!probe.value.finished)
        }
    }

    @Test("a client that goes away mid-stream stops the reading", arguments: [1, 4])
    func clientGoneStopsTheProducer(queueCapacity: Int) async throws {
        let records = try await Self.records(300)
        let probe = StreamProbe(failingWrite: 3)
        await #expect(throws: ClientGone.self) {
            try await Self.stream(
                ProbedRecords(records: records, probe: probe), queueCapacity: queueCapacity, chunkBytes: 1)
        }
        // The stream returned, so its producer ended; it read no further than the lines written
        // plus what the queue, the writer's batch and its own hand hold.
        let state = probe.value
        #expect(state.chunks.count == 3 && !state.finished)
        #expect(state.pulled <= state.linesWritten + 2 * queueCapacity + 1)
    }

    @Test("a slow client holds the reading back: it runs at most a bounded number of records ahead")
    func slowClientBoundsTheProducer() async throws {
        let records = try await Self.records(400)
        let queueCapacity = 5
        let probe = StreamProbe(yieldsPerWrite: 50)
        try await Self.stream(
            ProbedRecords(records: records, probe: probe), queueCapacity: queueCapacity, chunkBytes: 1)
        #expect(probe.value.linesWritten == 400)
        // Records taken but not yet written: one batch being written, a full queue, one being pushed.
        #expect(probe.value.mostAhead <= 2 * queueCapacity + 2)
    }

    @Test("a long range with large lines streams over a real connection, coalesced, byte for byte")
    func largeLinesOverARealConnection() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...60, to: log, itemsPerSection: 400)
            let expected = try (1...60).map { try log.record(at: $0).jsonLine() + "\n" }.joined()
            let server = LogServer(log: log, configuration: ServerConfiguration(batchSize: 7))
            try await ServerFixtures.withRunningServer(server) { port in
                let response = try await LoopbackHTTP.get(port: port, target: "/api/revisions?from=1&to=60")
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == "application/x-ndjson")
                #expect(response.body == expected)
                let one = try await LoopbackHTTP.get(port: port, target: "/api/revisions/60")
                #expect(one.body == expected.split(separator: "\n").last.map { $0 + "\n" })
            }
        }
    }
}
