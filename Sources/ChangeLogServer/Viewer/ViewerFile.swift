/// One file of the viewer as the server answers it: its path, its media type, its bytes (built
/// into the binary from `Viewer/Files`) and an entity tag computed from them.
struct ViewerFile: Sendable {
    /// The request path that answers the file, `/` for the page.
    let path: String
    /// The `Content-Type` header's value.
    let contentType: String
    /// The file's bytes.
    let bytes: [UInt8]
    /// A strong validator: the quoted FNV-1a hash of ``bytes``, so that a browser revalidates a
    /// cached copy and gets `304 Not Modified` until the binary serves other bytes.
    let entityTag: String

    init(path: String, contentType: String, bytes: [UInt8]) {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        entityTag = "\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
    }

    /// The file's text (every file of the viewer is UTF-8).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether an `If-None-Match` value names this file's bytes: `*`, or a list of entity tags
    /// one of which is ``entityTag`` (compared weakly, as RFC 9110 says for this header).
    func isMatched(byIfNoneMatch value: String) -> Bool {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return value.split(separator: ",").contains { candidate in
            guard let first = candidate.firstIndex(where: { !blank($0) }),
                let last = candidate.lastIndex(where: { !blank($0) })
            else { return false }
            let tag = candidate[first...last]
            return tag == "*" || tag == entityTag[...] || tag == "W/" + entityTag
        }
    }
}
