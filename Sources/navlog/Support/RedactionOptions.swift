import NavigationHistory

/// `--redact ids|params|urls ... [--salt SALT]`, as `export` and `ship` take them.
enum RedactionOptions {
    /// The options, for a command's option table.
    static let options: [CommandOption] = [.choice("--redact", Redaction.self), .option("--salt", "SALT")]

    /// What `parsed` asks to redact and the salt of the hashes.
    ///
    /// - Throws: ``UsageError`` for an empty salt, or a salt without `--redact`.
    static func parse(_ parsed: Arguments) throws -> (redactions: Set<Redaction>, salt: String?) {
        let redactions = Set(try parsed.all("--redact").map { try Arguments.choice("--redact", $0) as Redaction })
        let salt = parsed.value("--salt")
        if let salt {
            guard !salt.isEmpty else { throw UsageError("--salt must not be empty: an empty salt hides nothing") }
            guard !redactions.isEmpty else { throw UsageError("--salt salts the hashes of --redact; give --redact ids, params or urls") }
        }
        return (redactions, salt)
    }
}
