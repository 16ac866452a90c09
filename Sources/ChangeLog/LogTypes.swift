import ListAdapter

/// The snapshots a ``ChangeLog`` stores: identifiers, section titles and summaries as strings,
/// exactly as the interchange format writes them.
public typealias LogSnapshot = ListSnapshot<String, String, String>

/// The changes a ``ChangeLog`` stores between two ``LogSnapshot``s.
public typealias LogChanges = ListChanges<String, String, String>
