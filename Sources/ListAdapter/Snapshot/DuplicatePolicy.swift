/// What to do with a list whose contents repeat a section title or an item identifier.
///
/// Titles identify sections and identifiers identify items, so a list that repeats one has no
/// snapshot as it stands. ``refuse`` treats it as a mistake of whoever made the list;
/// ``keepFirst`` keeps the list going, as IGListKit does with a feed that repeats an object.
public enum DuplicatePolicy: Hashable, Sendable {
    /// A repeated title or identifier is an error: ``ListAdapter`` reports it to its observers
    /// (``ListAdapterError/Code/duplicateIdentifier``) and keeps its last good snapshot.
    case refuse
    /// The first occurrence of each title and identifier is kept and the later ones are dropped,
    /// each reported as a ``DroppedDuplicate`` with its position; the snapshot is built, and
    /// diffed, from what remains.
    ///
    /// The rule, in the order the contents are given:
    /// - a section whose title an earlier section has is dropped with all of its items (its items
    ///   are not merged into the earlier section, and are not looked at: they are not reported
    ///   one by one, and they do not make a later item a repeat);
    /// - in the sections that remain, an item whose identifier an earlier item has is dropped,
    ///   whichever sections the two are in.
    ///
    /// Titles, and identifiers that are strings, compare code point by code point, as
    /// ``ListSnapshot`` compares them.
    case keepFirst
}
