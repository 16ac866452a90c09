import ChangeLog
import Hummingbird

/// Writes revisions as JSON Lines into a response body, reading and writing at once: a producer
/// task reads the records (from the log: its read transactions, decoding) while the response's
/// task turns them into lines and writes them, so a range streams at the pace of the slower of
/// the two rather than of both one after the other.
///
/// Memory stays bounded however long the range and however slowly the client reads: the
/// producer waits while `queueCapacity` records wait for the writer (``HandoffQueue``), and the
/// writer holds at most one chunk of lines (about `chunkBytes`, plus the last line) before it
/// writes them to the client, whose own pace holds the writer back. Lines are coalesced into
/// chunks so that a client receives a few large writes rather than one per revision; the bytes
/// and their order are exactly those of the lines one after the other.
enum RevisionRangeStream {
    /// The size past which the lines gathered are written to the client.
    static let defaultChunkBytes = 64 << 10

    /// Writes each record of `records` as a revision line (or, with `changesOnly`, its line
    /// without the snapshot) followed by a line feed, then finishes the body.
    ///
    /// - Throws: the error `records` throws, after writing every line before it (the response
    ///   then ends without its final chunk, so the client sees it cut short); or the writer's
    ///   error when the client went away, after stopping the producer.
    static func write<Records: AsyncSequence & Sendable>(
        _ records: Records, changesOnly: Bool, queueCapacity: Int, chunkBytes: Int = defaultChunkBytes,
        to writer: inout any ResponseBodyWriter
    ) async throws where Records.Element == RevisionRecord {
        try await write(
            records, lines: RevisionLines.Encoder(changesOnly: changesOnly), queueCapacity: queueCapacity,
            chunkBytes: chunkBytes, to: &writer)
    }

    /// Writes each element of `records` as the line `lines` makes of it, followed by a line
    /// feed, then finishes the body; throws as ``write(_:changesOnly:queueCapacity:chunkBytes:to:)``.
    static func write<Records: AsyncSequence & Sendable, Lines: RevisionLineWriting>(
        _ records: Records, lines: Lines, queueCapacity: Int, chunkBytes: Int = defaultChunkBytes,
        to writer: inout any ResponseBodyWriter
    ) async throws where Records.Element == Lines.Element {
        var lines = lines
        let queue = HandoffQueue<Lines.Element>(capacity: queueCapacity)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await produce(records, into: queue) }
            // Whichever way the writing ends, the producer stops at its next push.
            defer { queue.close() }
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunkBytes)
            while let taken = await queue.next() {
                switch taken {
                case .elements(let batch):
                    for record in batch {
                        lines.append(record, to: &chunk)
                        chunk.append(UInt8(ascii: "\n"))
                        if chunk.count >= chunkBytes {
                            try await writer.write(ByteBuffer(bytes: chunk))
                            chunk.removeAll(keepingCapacity: true)
                        }
                    }
                case .failed(let error):
                    if !chunk.isEmpty { try await writer.write(ByteBuffer(bytes: chunk)) }
                    throw error
                }
            }
            if !chunk.isEmpty { try await writer.write(ByteBuffer(bytes: chunk)) }
        }
        try await writer.finish(nil)
    }

    /// Pushes each record of `records` into `queue` until the sequence ends, fails, or the
    /// queue is closed; then finishes the queue (with the failure, if any).
    static func produce<Records: AsyncSequence>(_ records: Records, into queue: HandoffQueue<Records.Element>) async
    where Records.Element: Sendable {
        do {
            for try await record in records {
                guard await queue.push(record) else { break }
                try Task.checkCancellation()
            }
            queue.finish()
        } catch {
            queue.finish(throwing: error)
        }
    }
}
