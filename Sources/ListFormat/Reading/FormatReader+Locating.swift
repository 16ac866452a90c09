extension FormatReader {
    /// The offset of the value at `path` in a text read without a problem up to it, found by
    /// walking the text again (for a problem found after the value was read, such as a
    /// duplicate id); the text's start when there is no such value.
    func offset(of path: [PathStep]) -> Int {
        var walker = FormatReader(bytes)
        for step in path {
            walker.skipWhitespace()
            guard walker.position < bytes.count else { return 0 }
            switch step {
            case .index(let index):
                guard bytes[walker.position] == UInt8(ascii: "["), walker.enterElement(index) else { return 0 }
            case .key(let name):
                guard bytes[walker.position] == UInt8(ascii: "{"), walker.enterMember(name) else { return 0 }
            }
        }
        walker.skipWhitespace()
        return walker.position
    }

    /// From an array's `[`, moves to its element at `index`.
    private mutating func enterElement(_ index: Int) -> Bool {
        position += 1
        for _ in 0..<index {
            guard (try? skipValue(depth: 1)) != nil else { return false }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return false }
            position += 1
        }
        return true
    }

    /// From an object's `{`, moves to the value of its last member named `name`.
    private mutating func enterMember(_ name: String) -> Bool {
        position += 1
        var found: Int?
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = try? string() else { break }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            skipWhitespace()
            if text(of: key) == name { found = position }
            guard (try? skipValue(depth: 1)) != nil else { return false }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { break }
            position += 1
        }
        guard let found else { return false }
        position = found
        return true
    }
}
