import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Many Server-Sent Event streams from 127.0.0.1 read at once by one thread with `poll`, each
/// until it holds a marker or the server closes it.
package final class EventStreams: Sendable {
    private let reading: Task<[[UInt8]], Never>

    /// Opens `count` connections, each sending `GET target` with `headers`, and starts reading
    /// them; a stream is done at the end of the chunk that holds `marker` (the server
    /// sends each event as one chunk), or when the server closes it.
    package init(port: Int, target: String, headers: [String: String] = [:], count: Int, until marker: String)
        throws(LoopbackHTTP.Failure)
    {
        var descriptors: [Int32] = []
        do {
            for _ in 0..<count {
                descriptors.append(try LoopbackHTTP.open(port: port, target: target, headers: headers))
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
        let opened = descriptors
        let markerBytes = Array(marker.utf8)
        reading = Task { await LoopbackHTTP.onThread { Self.readAll(opened, until: markerBytes) } }
    }

    /// The raw bytes of every stream (HTTP head and body), once each is done.
    package func responses() async -> [String] {
        await reading.value.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func readAll(_ descriptors: [Int32], until marker: [UInt8]) -> [[UInt8]] {
        var received = [[UInt8]](repeating: [], count: descriptors.count)
        var open = Set(descriptors.indices)
        var markerSeen = Set<Int>()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var polled = open.sorted().map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), 1000)
            if ready <= 0 { continue }
            for entry in polled where entry.revents != 0 {
                guard let index = descriptors.firstIndex(of: entry.fd) else { continue }
                let count = chunk.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    let searchStart = max(0, received[index].count - marker.count)
                    received[index] += chunk[0..<count]
                    if !markerSeen.contains(index) && containsMarker(received[index][searchStart...], marker) {
                        markerSeen.insert(index)
                    }
                    // Done at the end of the chunk that holds the marker: each event is one chunk.
                    if !markerSeen.contains(index) || !received[index].ends(with: messageEnd) { continue }
                }
                close(entry.fd)
                open.remove(index)
            }
        }
        return received
    }

    /// The end of an event (a blank line) and of the chunk that carries it.
    static let messageEnd = Array("\n\n\r\n".utf8)

    private static func containsMarker(_ bytes: ArraySlice<UInt8>, _ marker: [UInt8]) -> Bool {
        guard !marker.isEmpty, bytes.count >= marker.count else { return false }
        var start = bytes.startIndex
        while start + marker.count <= bytes.endIndex {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
            start += 1
        }
        return false
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}

/// One message of a Server-Sent Events stream: an event (its `id`, `event`, `data` fields),
/// a `retry` field, or a comment.
package struct EventStreamMessage: Equatable, Sendable {
    package var id: String?
    package var event: String?
    package var data: String?
    package var retry: String?
    package var comment: String?

    /// A message with the given fields.
    package init(
        id: String? = nil, event: String? = nil, data: String? = nil, retry: String? = nil, comment: String? = nil
    ) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        self.comment = comment
    }

    /// The messages of a raw response (head and chunked body); an incomplete last one is dropped.
    package static func parse(rawResponse: String) throws -> [EventStreamMessage] {
        let response = try LoopbackHTTP.parse(Array(rawResponse.utf8))
        return parse(body: response.body)
    }

    /// The messages of an event stream's text, each ended by a blank line.
    package static func parse(body: String) -> [EventStreamMessage] {
        var blocks = body.components(separatedBy: "\n\n")
        blocks.removeLast()  // After the last blank line: empty, or an incomplete message.
        return blocks.map { block in
            var message = EventStreamMessage()
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    message.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                    continue
                }
                let parts = line.split(separator: ":", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1].hasPrefix(" ") ? parts[1].dropFirst() : parts[1]) : ""
                switch parts.first {
                case "id": message.id = value
                case "event": message.event = value
                case "data": message.data = value
                case "retry": message.retry = value
                default: break
                }
            }
            return message
        }
    }
}
