/// A step of the path to a value inside a document: an object's key or an array's index.
enum PathStep: Hashable, Sendable {
    /// The value of an object's member of this key (escapes decoded).
    case key(String)
    /// An array's element at this 0-based index.
    case index(Int)
}

/// Why the reader stopped, while it unwinds: the byte where the problem is, what it is, and the
/// path to it, collected step by step as each container the problem lies in hands it on.
struct ReadFailure: Error {
    /// What kind of problem, which decides how ``FormatError`` words it.
    enum Kind {
        /// The text is not JSON: the message quotes the text from ``ReadFailure/offset`` on.
        case syntax
        /// The text is JSON that the format does not accept.
        case schema
    }

    /// The 0-based byte offset of the problem in the text read.
    var offset: Int
    /// What is wrong, without the place.
    var reason: String
    var kind: Kind
    /// The path to the problem, innermost step first (steps are added while unwinding).
    var reversedPath: [PathStep] = []
    /// Set by a member's reader for a problem of the object itself (a key named twice), so that
    /// the object leaves the member's key out of the path.
    var belongsToObject = false

    /// `self` inside the container step `step`: the step joins the path, unless the problem
    /// belongs to the object whose member `step` is.
    func inside(_ step: PathStep) -> ReadFailure {
        var failure = self
        if failure.belongsToObject, case .key = step {
            failure.belongsToObject = false
        } else {
            failure.reversedPath.append(step)
        }
        return failure
    }
}
