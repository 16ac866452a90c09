import ListAdapter

extension InterchangeFormat {
    /// The `meta` key under which an import line read with
    /// `DuplicatePolicy.keepFirst` records what it dropped (`replay import
    /// --drop-duplicates`): `dropped-duplicates`.
    ///
    /// Its value is compact JSON text: an array, in the line's order, of one object per dropped
    /// section or item, positions counted in the line as given (0-based):
    ///
    /// ```json
    /// [{"title":"Today","at":[2],"first":[0],"items":3},{"id":"b","at":[0,3],"first":[0,1]}]
    /// ```
    ///
    /// - a section whose title an earlier section has: `title`, `at` (`[section]`), `first` (the
    ///   kept section's `[section]`), `items` (how many items were dropped with it);
    /// - an item whose id an earlier item has: `id`, `at` (`[section, item]`), `first` (the kept
    ///   item's path).
    ///
    /// The key is written only on lines that drop something.
    public static let droppedDuplicatesKey = "dropped-duplicates"

    /// The snapshot of a line's content under `DuplicatePolicy.keepFirst`, its
    /// `meta` recording what was dropped under ``droppedDuplicatesKey``.
    static func keepingFirstOccurrences(_ content: FormatReader.LineContent, reader: FormatReader)
        throws(ReadFailure) -> AnnotatedSnapshot<String, String, String>
    {
        let (snapshot, dropped) = ListSnapshot.keepingFirstOccurrences(in: content.sections)
        guard let first = dropped.first else {
            return AnnotatedSnapshot(meta: content.meta, snapshot: snapshot, recorded: content.recorded)
        }
        guard content.meta[droppedDuplicatesKey] == nil else {
            let path: [PathStep] = [.key("meta"), .key(droppedDuplicatesKey)]
            var failure = reader.schema(
                "the line repeats a title or an id (\(first)), and its meta already has this key, where what is "
                    + "dropped would be recorded; rename the key, or import without dropping duplicates",
                at: reader.offset(of: path))
            failure.reversedPath = path.reversed()
            throw failure
        }
        var meta = content.meta
        meta[droppedDuplicatesKey] = droppedDuplicatesValue(dropped)
        return AnnotatedSnapshot(meta: meta, snapshot: snapshot)
    }

    /// The value recorded under ``droppedDuplicatesKey`` for `dropped`.
    package static func droppedDuplicatesValue(_ dropped: [DroppedDuplicate<String>]) -> String {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, duplicate) in dropped.enumerated() {
            writer.separator(index)
            writer.raw("{")
            switch duplicate.kind {
            case .section(let title, _):
                writer.key("title")
                writer.string(title)
            case .item(let id):
                writer.key("id")
                writer.string(id)
            }
            writer.raw(",")
            writer.key("at")
            writer.integers(duplicate.position)
            writer.raw(",")
            writer.key("first")
            writer.integers(duplicate.firstPosition)
            if case .section(_, let itemCount) = duplicate.kind {
                writer.raw(",")
                writer.key("items")
                writer.integer(itemCount)
            }
            writer.raw("}")
        }
        writer.raw("]")
        return writer.string
    }
}

extension JSONWriter {
    /// Appends `[a,b,…]`.
    mutating func integers(_ values: [Int]) {
        raw("[")
        for (index, value) in values.enumerated() {
            separator(index)
            integer(value)
        }
        raw("]")
    }
}
