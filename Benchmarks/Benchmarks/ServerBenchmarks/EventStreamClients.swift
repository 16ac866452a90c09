import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// When each revision reached each of `expected` receivers, handed to the benchmark that waits
/// for a revision to reach them all.
final class Receipts: Sendable {
    private struct State {
        /// For each revision, the times (``monotonicNanoseconds()``) it reached a receiver.
        var times: [UInt64: [Int]] = [:]
        var waiter: (revision: UInt64, continuation: CheckedContinuation<[Int], Never>)?
    }

    private let state = Mutex(State())
    private let expected: Int

    init(expected: Int) {
        self.expected = expected
    }

    /// Notes that `revision` reached one receiver at `time`.
    func received(_ revision: UInt64, at time: Int) {
        let resume = state.withLock { state -> (CheckedContinuation<[Int], Never>, [Int])? in
            state.times[revision, default: []].append(time)
            guard let waiter = state.waiter, waiter.revision == revision,
                let times = state.times[revision], times.count == expected
            else { return nil }
            state.waiter = nil
            state.times[revision] = nil
            return (waiter.continuation, times)
        }
        if let (continuation, times) = resume { continuation.resume(returning: times) }
    }

    /// The times `revision` reached each receiver, once it reached all of them. One waiter at a time.
    func all(of revision: UInt64) async -> [Int] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Int]? in
                if let times = state.times[revision], times.count == expected {
                    state.times[revision] = nil
                    return times
                }
                state.waiter = (revision, continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// HTTP clients on loopback sockets, read by one thread with `poll`, that note when each
/// Server-Sent Event's `id:` line arrives: the subscribers of the server benchmarks. Blocking
/// calls run on that thread, never on the Swift concurrency pool the server shares.
final class EventStreamClients: Sendable {
    /// When each revision reached each client.
    let receipts: Receipts
    private let stopped = Atomic<Bool>(false)

    /// Opens `count` connections to 127.0.0.1:`port`, each sending `GET target`, and starts reading.
    init(port: Int, target: String, count: Int) throws {
        receipts = Receipts(expected: count)
        var descriptors: [Int32] = []
        for _ in 0..<count {
            descriptors.append(try Self.open(port: port, target: target))
        }
        let opened = descriptors
        Thread.detachNewThread { [self] in read(opened) }
    }

    /// Stops reading and closes every connection.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private static let marker = Array("\nid: ".utf8)

    private func read(_ descriptors: [Int32]) {
        // The last bytes of each connection, so that a marker split between two reads is found.
        var tails = [[UInt8]](repeating: [], count: descriptors.count)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while !stopped.load(ordering: .relaxed) {
            if poll(&entries, nfds_t(entries.count), 100) <= 0 { continue }
            let now = monotonicNanoseconds()
            for index in entries.indices where entries[index].revents != 0 {
                entries[index].revents = 0
                let count = chunk.withUnsafeMutableBytes { recv(entries[index].fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    entries[index].events = 0
                    continue
                }
                let bytes = tails[index] + chunk[0..<count]
                var position = 0
                while let found = Self.find(Self.marker, in: bytes, from: position) {
                    var digits = found + Self.marker.count
                    var revision: UInt64 = 0
                    while digits < bytes.count, bytes[digits] >= 48, bytes[digits] <= 57 {
                        revision = revision * 10 + UInt64(bytes[digits] - 48)
                        digits += 1
                    }
                    guard digits < bytes.count else { break }  // The number may go on in the next read.
                    receipts.received(revision, at: now)
                    position = digits
                }
                tails[index] = Array(bytes[max(position, bytes.count - 32)...])
            }
        }
        for descriptor in descriptors { close(descriptor) }
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0] && bytes[index..<(index + marker.count)].elementsEqual(marker) { return index }
            index += 1
        }
        return nil
    }

    /// A connected socket that has sent `GET target`.
    static func open(port: Int, target: String) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SetupFailure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw SetupFailure(description: "connect: errno \(errno)")
        }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard
            request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
                == request.count
        else {
            close(descriptor)
            throw SetupFailure(description: "send: errno \(errno)")
        }
        return descriptor
    }

    /// Sends `GET target` and reads the response: to its end, or, with `marker`, to the end of
    /// the chunk that holds `marker` (an event stream sends each event as one chunk). Returns how
    /// many bytes arrived.
    static func read(port: Int, target: String, until marker: String? = nil) async throws -> Int {
        let descriptor = try open(port: port, target: target)
        let markerBytes = marker.map { Array($0.utf8) }
        let chunkEnd = Array("\n\n\r\n".utf8)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var total = 0
                var tail: [UInt8] = []
                var markerSeen = false
                var chunk = [UInt8](repeating: 0, count: 1 << 20)
                while true {
                    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    total += count
                    guard let markerBytes else { continue }
                    let window = tail + chunk[0..<count]
                    if !markerSeen { markerSeen = find(markerBytes, in: window, from: 0) != nil }
                    if markerSeen && window.suffix(chunkEnd.count).elementsEqual(chunkEnd) { break }
                    tail = Array(window.suffix(markerBytes.count))
                }
                close(descriptor)
                continuation.resume(returning: total)
            }
        }
    }
}
