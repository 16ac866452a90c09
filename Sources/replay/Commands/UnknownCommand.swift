/// A command line that names a command the tool does not have (`replay verfy`, `replay help
/// foo`, `replay foo --help`): named, with the command meant when it is a letter or two away.
extension Replay {
    /// The names of the subcommands, in the order of the help.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The names of the subcommands the tool's help shows, in its order.
    static var shownCommandNames: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName }
    }

    /// The argument naming a command that does not exist, where `arguments` (the command line
    /// after the program's name) start with one, or with `help` and one; `nil` otherwise.
    static func unknownCommand(in arguments: ArraySlice<String>) -> String? {
        var arguments = arguments
        if arguments.first == "help" {
            arguments = arguments.dropFirst()
        }
        guard let name = arguments.first, !name.hasPrefix("-"), !commandNames.contains(name) else { return nil }
        return name
    }

    /// What to say about the command `name` that does not exist: the commands there are, and
    /// the one meant when `name` is a letter or two away from it.
    static func unknownCommandMessage(_ name: String) -> String {
        let close = shownCommandNames.first { editDistance($0, name) <= min(2, $0.count / 2) }
        return "unknown command '\(name)'" + (close.map { " (did you mean '\($0)'?)" } ?? "")
            + "; the commands are " + shownCommandNames.joined(separator: ", ") + " (see 'replay --help')"
    }

    /// The number of characters to insert, delete or replace to turn `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
