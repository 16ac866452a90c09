/// Indents compact JSON by two spaces per level, keeping key order (Foundation's pretty
/// printer would reorder keys). Arrays of numbers, such as paths, stay on one line.
package enum PrettyJSON {
    /// The indented form of the compact JSON `json`.
    package static func indent(_ json: String) -> String {
        let bytes = Array(json.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        func isFlatArray(from start: Int) -> Bool {
            var cursor = start + 1
            while cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "]"): return true
                case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""): return false
                default: cursor += 1
                }
            }
            return false
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if index + 1 < bytes.count, bytes[index + 1] == closing {
                    output.append(byte)
                    output.append(closing)
                    index += 1
                } else if byte == UInt8(ascii: "["), isFlatArray(from: index) {
                    while bytes[index] != UInt8(ascii: "]") {
                        output.append(bytes[index])
                        if bytes[index] == UInt8(ascii: ",") { output.append(UInt8(ascii: " ")) }
                        index += 1
                    }
                    output.append(UInt8(ascii: "]"))
                } else {
                    output.append(byte)
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
