extension LogReader {
    /// Whether readers made from now on read files through memory mappings (``mapsFiles``): off
    /// unless a command-line tool turns it on at start-up. Never turn it on in an app.
    ///
    /// A mapping spares the kernel a copy of every byte, which a tool reading gigabytes feels;
    /// an app reads its own log, a few megabytes at most, where the copy costs little. And mapping
    /// changes the whole process: a read of a mapped page past a file's end raises SIGBUS, which
    /// kills the process, and a log can be cut while it is read (by `navlog repair`, or a store's
    /// recovery in another process). So the first mapping installs a SIGBUS handler for the whole
    /// process, kept until it exits: it turns a read past the end of a mapped file into zeros, the
    /// reading then ending with an `io` error, and passes every other SIGBUS on to the handler
    /// installed before it. A tool owns its process and can take that on; an app's process belongs
    /// to the app, its crash reporter and its other libraries, so readers there copy.
    ///
    /// ```swift
    /// @main enum Tool {
    ///     static func main() throws {
    ///         LogReader.mapsFilesByDefault = true
    ///         try LogReader(path: CommandLine.arguments[1]).read { print($0.seq) }
    ///     }
    /// }
    /// ```
    ///
    /// Turning it off again leaves the handler installed, once a reading has mapped a file.
    public static var mapsFilesByDefault: Bool {
        get { mapping.withLock { $0 } }
        set { mapping.withLock { $0 = newValue } }
    }

    private static let mapping = Locked(false)
}
