/// The compact form in which a history index stores a subject's events: everything about each
/// event except its time and annotations, which the revision's record holds (RecordFormat.md,
/// "The history index"). It depends on no storage engine: every engine stores such blocks.
///
/// A block is its events one after the other, revisions ascending. Each event is:
/// - its revision, as a varint: the difference from the previous event's, or for the first from
///   the block's base revision;
/// - a byte: bits 0–3 the kinds (inserted, deleted, moved, updated), bits 4–5 how an item went
///   with its section (0 not, 1 deleted, 2 inserted), bit 6 whether it has a place before, bit 7
///   whether it has one after;
/// - a byte: bit 0 the section title before is written (else it is the title after of the
///   previous event), bit 1 the title after is written (else it is the title before, or without
///   a place before the previous event's title after), bits 2–3 the summary before (0 none, 1
///   the previous event's summary after, 2 written), bits 4–5 the summary after (0 none, 1 the
///   summary before, 2 written), bit 6 the places hold an item's offset (an item's history);
/// - the place before, then after: the section's offset, then the item's (varints);
/// - the strings written: title before, title after, summary before, summary after (each its
///   UTF-8 length as a varint, then its bytes).
///
/// The first event of a block writes what it cannot take from a previous one, so each block
/// reads alone.
enum HistoryEventCoding {
    /// What the next event may take from the previous one.
    private struct Context {
        var title: String?
        var summary: String?
    }

    /// `events` (revisions ascending, none below `base`) as a block. Their time and annotations
    /// are not stored.
    static func encode(_ events: some Sequence<HistoryEvent>, base: UInt64) -> [UInt8] {
        var writer = RecordWriter(capacity: 256)
        var context = Context()
        var previous = base
        for event in events {
            encode(event, after: previous, context: &context, into: &writer)
            previous = event.revision
        }
        return writer.takeBytes()
    }

    private static func encode(
        _ event: HistoryEvent, after previous: UInt64, context: inout Context, into writer: inout RecordWriter
    ) {
        writer.writeVarint(event.revision - previous)
        var kinds: UInt8 = 0
        for kind in event.kinds {
            kinds |= 1 << UInt8(HistoryEvent.Kind.allCases.firstIndex(of: kind)!)
        }
        let fate: UInt8 =
            switch event.withSection {
            case nil: 0
            case .deleted: 1
            case .inserted: 2
            }
        writer.writeByte(
            kinds | fate << 4 | (event.before != nil ? 0x40 : 0) | (event.after != nil ? 0x80 : 0))
        var strings: [String] = []
        var flags: UInt8 = 0
        if let before = event.before, !same(before.section, context.title) {
            flags |= 0x01
            strings.append(before.section)
        }
        if let after = event.after, !same(after.section, event.before?.section ?? context.title) {
            flags |= 0x02
            strings.append(after.section)
        }
        if let summary = event.summaryBefore {
            if same(summary, context.summary) {
                flags |= 1 << 2
            } else {
                flags |= 2 << 2
                strings.append(summary)
            }
        }
        if let summary = event.summaryAfter {
            if same(summary, event.summaryBefore) {
                flags |= 1 << 4
            } else {
                flags |= 2 << 4
                strings.append(summary)
            }
        }
        let hasItemIndex = (event.before ?? event.after)?.itemIndex != nil
        if hasItemIndex { flags |= 0x40 }
        writer.writeByte(flags)
        for place in [event.before, event.after].compactMap({ $0 }) {
            writer.writeVarint(UInt64(place.sectionIndex))
            if hasItemIndex { writer.writeVarint(UInt64(place.itemIndex ?? 0)) }
        }
        for string in strings { writer.writeString(string) }
        context.title = event.after?.section ?? context.title
        context.summary = event.summaryAfter
    }

    /// The events of a block written by ``encode(_:base:)`` with `base`, with no time (0) and no
    /// annotations.
    ///
    /// - Throws: ``RecordDecodingError`` for bytes no block holds, at the offset found wrong.
    static func decode(_ bytes: UnsafeRawBufferPointer, base: UInt64) throws(RecordDecodingError)
        -> [HistoryEvent]
    {
        var reader = RecordReader(bytes)
        var context = Context()
        var events: [HistoryEvent] = []
        var revision = base
        while !reader.isAtEnd {
            let delta = try reader.readVarint()
            guard delta <= UInt64.max - revision else { throw reader.failure("revision beyond 2^64") }
            revision += delta
            events.append(try decodeEvent(revision: revision, context: &context, from: &reader))
        }
        return events
    }

    /// One event encoded alone (a block of one) with `base`, read from `reader`, which then
    /// stands after it.
    static func decodeOne(from reader: inout RecordReader, base: UInt64) throws(RecordDecodingError)
        -> HistoryEvent
    {
        let delta = try reader.readVarint()
        guard delta <= UInt64.max - base else { throw reader.failure("revision beyond 2^64") }
        var context = Context()
        return try decodeEvent(revision: base + delta, context: &context, from: &reader)
    }

    private static func decodeEvent(revision: UInt64, context: inout Context, from reader: inout RecordReader)
        throws(RecordDecodingError) -> HistoryEvent
    {
        let head = try reader.readByte()
        let flags = try reader.readByte()
        let kinds = HistoryEvent.Kind.allCases.enumerated().filter { head & (1 << UInt8($0.offset)) != 0 }.map(
            \.element)
        guard !kinds.isEmpty, flags & 0x80 == 0, (flags >> 2) & 3 != 3, (flags >> 4) & 3 != 3, (head >> 4) & 3 != 3
        else { throw reader.failure("an event of the history index has flags \(head), \(flags)") }
        let fate: HistoryEvent.SectionFate? = [nil, .deleted, .inserted][Int((head >> 4) & 3)]
        let hasItemIndex = flags & 0x40 != 0
        func readPlace() throws(RecordDecodingError) -> (Int, Int?) {
            let section = Int(clamping: try reader.readVarint())
            return (section, hasItemIndex ? Int(clamping: try reader.readVarint()) : nil)
        }
        let before = head & 0x40 != 0 ? try readPlace() : nil
        let after = head & 0x80 != 0 ? try readPlace() : nil
        func taken(_ value: String?) throws(RecordDecodingError) -> String {
            guard let value else { throw reader.failure("an event of the history index refers to no previous one") }
            return value
        }
        var titleBefore: String?
        if before != nil {
            titleBefore = flags & 0x01 != 0 ? try reader.readString() : try taken(context.title)
        }
        var titleAfter: String?
        if after != nil {
            titleAfter = flags & 0x02 != 0 ? try reader.readString() : try taken(titleBefore ?? context.title)
        }
        let summaryBefore: String? =
            switch (flags >> 2) & 3 {
            case 1: try taken(context.summary)
            case 2: try reader.readString()
            default: nil
            }
        let summaryAfter: String? =
            switch (flags >> 4) & 3 {
            case 1: try taken(summaryBefore)
            case 2: try reader.readString()
            default: nil
            }
        context.title = titleAfter ?? context.title
        context.summary = summaryAfter
        return HistoryEvent(
            revision: revision, millisecondsSince1970: 0, meta: [:], kinds: kinds, withSection: fate,
            before: before.map { HistoryEvent.Place(section: titleBefore!, sectionIndex: $0.0, itemIndex: $0.1) },
            after: after.map { HistoryEvent.Place(section: titleAfter!, sectionIndex: $0.0, itemIndex: $0.1) },
            summaryBefore: summaryBefore, summaryAfter: summaryAfter)
    }

    /// Whether two strings hold the same Unicode scalars (not merely canonically equivalent ones,
    /// which would change what is shown).
    private static func same(_ text: String, _ other: String?) -> Bool {
        guard let other else { return false }
        return text.unicodeScalars.elementsEqual(other.unicodeScalars)
    }
}
