import NavigationHistory

/// `navlog repair PATH`
enum RepairCommand: Subcommand {
    static let name = "repair"
    static let summary = "Cut a torn last line off a log, keeping the bytes removed."
    static let help = """
        Usage: navlog repair PATH

        Reads the whole log, then cuts off a torn tail — a last line that a crash left incomplete or
        that fails its crc — so that new events are never appended behind garbage. The bytes removed
        (the first 1 MiB of a longer tail) are kept beside the file as FILE.torn (FILE.torn.2, ...
        when one exists). For a log directory
        it also removes what a crash left of a segment being created, takes the writer's lock while it
        works, and refuses to run while a writer has the log open. The store does the same by itself
        when it opens a log; this command is for logs you want clean before copying or reading them.

        Damage anywhere but at the tail is refused: cutting there would lose the good events after it.
        `navlog verify --mode salvage PATH` lists such defects and reads around them.

        Exit status: 0 when the log was repaired or needed nothing, 64 on a usage error, 65 when the
        damage is not at the tail, 66 when PATH does not exist, 74 on an I/O error, 75 when a writer
        has the log open.

        Examples:
          navlog repair app.jsonl
        """

    static let options: [CommandOption] = []

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let path = try parsed.path()
        let done = try EventLog.repair(path)
        var out = StandardOutput()
        for file in done.removedFiles { out.line("removed \(file)") }
        if let torn = done.tornTail, let savedTo = done.savedTo {
            out.line("cut \(torn.file) at byte \(torn.offset) (line \(torn.line)): removed \(counted(done.removedBytes, "byte"))"
                     + " (\(torn.kind): \(torn.detail)); kept "
                     + (done.keptBytes < done.removedBytes ? "the first \(done.keptBytes) of them" : "them") + " in \(savedTo)")
        }
        if done.isClean { out.line("\(path): nothing to repair: the log ends with a complete line") }
        try out.flush()
        return
    }
}
