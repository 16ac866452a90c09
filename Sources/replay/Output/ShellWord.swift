/// `text` as one word for a POSIX shell: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside written `'\''`). The commands the tool
/// prints for the user to run (the demo's next steps, the rest of an interrupted import) quote
/// their paths with it.
func shellQuoted(_ text: String) -> String {
    let plain =
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0)) }
    return plain ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
}
