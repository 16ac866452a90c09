/// The position of an item: a section offset and an item offset inside that section, both 0-based.
///
/// In the interchange format's JSON a path is the two-element array `[section, item]`.
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 0-based offset of the section.
    public var section: Int
    /// The 0-based offset of the item inside its section.
    public var item: Int

    /// Creates the path of the item at `item` in the section at `section`.
    /// - Complexity: O(1).
    @inlinable
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders paths by section, then by item: the order of the interchange format's ascending path lists.
    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// The path as the interchange format writes it: `[section, item]`.
    /// - Complexity: O(1).
    public var description: String { "[\(section), \(item)]" }
}

extension ItemPath: Codable {
    /// Decodes the two-element array `[section, item]`.
    /// - Complexity: O(1).
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let section = try container.decode(Int.self)
        let item = try container.decode(Int.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A path has exactly two numbers: [section, item].")
        }
        self.init(section: section, item: item)
    }

    /// Encodes the path as the two-element array `[section, item]`.
    /// - Complexity: O(1).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(section)
        try container.encode(item)
    }
}
