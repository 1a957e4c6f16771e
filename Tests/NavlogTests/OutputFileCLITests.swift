import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension NavlogRun {
    /// Runs navlog through `/bin/sh` after `setup` (such as `ulimit -f 20` or `umask 0`), which
    /// then applies to navlog alone, started as from a shell (see ``spawnAsFromAShell``); a signal
    /// that ends it gives a status of 1000 and its number, unlike any exit status.
    init(shell setup: String, _ arguments: [String]) throws {
        let capture = NSTemporaryDirectory() + "navlog-run-" + UUID().uuidString
        defer { unlink(capture + ".out"); unlink(capture + ".err") }
        let pid = try spawnAsFromAShell("/bin/sh", ["-c", setup + "; exec \"$0\" \"$@\"", Self.binary.path] + arguments,
                                        output: capture + ".out", errors: capture + ".err")
        var wait: Int32 = 0
        while waitpid(pid, &wait, 0) < 0 && errno == EINTR {}
        status = wait & 0x7F != 0 ? 1000 + (wait & 0x7F) : (wait >> 8) & 0xFF
        stdout = String(decoding: FileManager.default.contents(atPath: capture + ".out") ?? Data(), as: UTF8.self)
        stderr = String(decoding: FileManager.default.contents(atPath: capture + ".err") ?? Data(), as: UTF8.self)
    }
}

/// Starts `executable` as a shell would: no signal blocked or ignored. A test runner's threads
/// block some signals, and a child started with `Process` inherits that mask: SIGXFSZ blocked
/// turns the signal into EFBIG, and SIGTERM blocked never ends the child. Standard input is
/// /dev/null; standard output and error go to the files named (created, or truncated).
func spawnAsFromAShell(_ executable: String, _ arguments: [String], output: String = "/dev/null", errors: String = "/dev/null",
                       environment extra: [String: String] = [:]) throws -> pid_t {
    #if canImport(Darwin)
    var attributes: posix_spawnattr_t?
    var actions: posix_spawn_file_actions_t?
    #else
    var attributes = posix_spawnattr_t()
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawnattr_init(&attributes)
    posix_spawn_file_actions_init(&actions)
    defer {
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
    }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY, 0o600)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let variables = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var pid = pid_t()
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
    guard result == 0 else { throw NavigationHistoryError(code: .io, message: "cannot start \(executable)", errno: result) }
    return pid
}

/// A scratch directory for one test, removed when the test ends.
/// Writes `events` (each the members of a line but `v`, `seq`, `ts` and `session`) as a `.jsonl`
/// log of `session` at `path`, one `apart` after another from 2026-11-29T10:00:00Z, without `crc`:
/// a log as another writer makes it.
func writeJSONLines(_ events: [[String: Any]], session: String, apart step: Duration, to path: String) throws {
    var text = ""
    let start = Timestamp("2026-11-29T10:00:00.000Z")!.millisecondsSince1970
    for (k, event) in events.enumerated() {
        var line = event
        line["v"] = 1
        line["seq"] = k + 1
        line["ts"] = Timestamp(millisecondsSince1970: start + Int64(k) * step.components.seconds * 1000).description
        line["session"] = session
        text += String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self) + "\n"
    }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
}

extension ScratchDirectory {
    /// A small generated log, one file.
    func log(_ name: String = "log.jsonl", events: Int = 1500) throws -> String {
        var generator = LogGenerator(seed: 5)
        try generator.writeLog(to: path + "/" + name, events: events)
        return path + "/" + name
    }

    /// The names of temporary files left in the directory.
    func temporaries() throws -> [String] { try names().filter { $0.contains(".tmp") } }
}

/// `-o` of report, export and generate: a file is replaced whole or not at all, a device, a FIFO
/// or standard output is written straight, a directory is refused, and a file navlog writes is
/// private unless asked otherwise.
@Suite(.serialized) struct OutputFileCLITests {
    static func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    static func permissions(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o7777
    }

    /// A character device of our own, a twin of `device` (/dev/null, /dev/full), so that a navlog
    /// that replaced its output by a file would harm nothing; nil where creating device nodes is
    /// not allowed.
    static func twin(of device: String, in directory: String) -> String? {
        var original = stat()
        let path = directory + "/" + (device as NSString).lastPathComponent + "-twin"
        guard stat(device, &original) == 0, mknod(path, S_IFCHR | 0o666, original.st_rdev) == 0 else { return nil }
        return path
    }

    @Test(arguments: ["export", "report"])
    func aCharacterDeviceIsWrittenThroughAndStaysADevice(command: String) throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let device = try #require(Self.twin(of: "/dev/null", in: scratch.path) ?? (geteuid() != 0 ? "/dev/null" : nil),
                                  "a device to write to that no test may destroy")
        let arguments = command == "export" ? ["export", log, "--table", "screen_views", "-o", device] : ["report", log, "-o", device]
        let run = try NavlogRun(arguments, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.fileType(device) == S_IFCHR, "the device is still a device")
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test func aFIFOIsWrittenStraightIntoThePipe() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = scratch.path + "/received"
        #expect(FileManager.default.createFile(atPath: received, contents: nil))
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        reader.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: received))
        try reader.run()
        let run = try NavlogRun("export", log, "--table", "transitions", "-o", fifo)
        for _ in 0..<500 where reader.isRunning { usleep(10_000) }
        if reader.isRunning { kill(reader.processIdentifier, SIGKILL) }   // nothing came through the FIFO
        reader.waitUntilExit()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: received))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO is still a FIFO")
        let expected = try NavlogRun("export", log, "--table", "transitions")
        #expect(String(decoding: bytes, as: UTF8.self) == expected.stdout)
        #expect(!bytes.isEmpty)
    }

    @Test func aSymbolicLinkToAFileReplacesThatFileAndStaysALink() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        try FileManager.default.createDirectory(atPath: scratch.path + "/reports", withIntermediateDirectories: true)
        let target = scratch.path + "/reports/2026.html"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        let link = scratch.path + "/latest.html"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "reports/2026.html")
        let run = try NavlogRun("report", log, "-o", link)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.fileType(link) == S_IFLNK, "the link is still a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "reports/2026.html")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<!doctype html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/reports") == ["2026.html"], "no temporary file left")
    }

    @Test func aDanglingLinkADirectoryAndAMissingDirectoryAreRefusedAndLeftAsTheyWere() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let dangling = scratch.path + "/dangling.csv"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere/file.csv")
        let directory = scratch.path + "/folder"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (output, message) in [(dangling, "symbolic link to nothing"), (directory, "is a directory"),
                                  (scratch.path + "/missing/out.csv", "No such file or directory")] {
            let run = try NavlogRun("export", log, "--table", "screen_views", "-o", output)
            #expect(run.status == 74, "\(output): \(run.stderr)")
            #expect(run.stderr.hasPrefix("navlog export: error: \(output): ") && run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(Self.fileType(dangling) == S_IFLNK && Self.fileType(directory) == S_IFDIR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test func aDashIsStandardOutput() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let dash = try NavlogRun("export", log, "--table", "screen_views", "-o", "-")
        #expect(dash.status == 0 && !dash.stdout.isEmpty)
        #expect(dash.stdout == (try NavlogRun("export", log, "--table", "screen_views")).stdout)
        let report = try NavlogRun("report", log, "-o", "-")
        #expect(report.status == 0 && report.stdout.hasPrefix("<!doctype html>"), "the page alone on standard output")
        #expect(report.stderr.hasPrefix("navlog report: -: ") && report.stderr.contains("KiB"), "the summary on standard error")
        #expect(try scratch.names() == ["log.jsonl"], "no file named -")
    }

    @Test(arguments: ["export", "report"])
    func aFileNavlogWritesIsPrivateWhateverTheUmaskUnlessAFileModeIsGiven(command: String) throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let output = scratch.path + "/out"
        func write(_ extra: [String] = []) throws -> NavlogRun {
            let arguments = command == "export" ? ["export", log, "--table", "screen_views", "-o", output] : ["report", log, "-o", output]
            return try NavlogRun(shell: "umask 000", arguments + extra)
        }
        #expect(try write().status == 0)
        #expect(Self.permissions(output) == 0o600, "a new file")
        #expect(chmod(output, 0o666) == 0)
        #expect(try write().status == 0)
        #expect(Self.permissions(output) == 0o600, "a file replaced gets its mode anew")
        #expect(try write(["--file-mode", "644"]).status == 0)
        #expect(Self.permissions(output) == 0o644)
        for bad in ["rw", "1777", "9", ""] {
            #expect(try write(["--file-mode", bad]).status == 64, "\(bad)")
        }
        #expect(Self.permissions(output) == 0o644, "a usage error leaves the file alone")
        #expect(try NavlogRun([command, log, "-o", "-", "--file-mode", "644"] + (command == "export" ? ["--table", "screen_views"] : []),
                              stdin: nil).status == 64, "no mode for standard output")
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test func aFullDeviceFailsWithThePathAndTheReasonAndExit74() throws {
        let scratch = try ScratchDirectory()
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }   // Linux only
        let full = try #require(Self.twin(of: "/dev/full", in: scratch.path) ?? (geteuid() != 0 ? "/dev/full" : nil),
                                "a full device to write to that no test may destroy")
        let log = try scratch.log()
        for arguments in [["export", log, "--table", "screen_views", "-o", full], ["report", log, "-o", full],
                          ["generate", "--events", "20000", "-o", full]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 74, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr == "navlog \(arguments[0]): error: \(full): cannot write the output: No space left on device\n", "\(arguments[0])")
            #expect(Self.fileType(full) == S_IFCHR)
        }
    }

    @Test func theNameOfAnOpenDescriptorIsWrittenThroughNotReplaced() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let kept = scratch.path + "/all.txt"
        #expect(FileManager.default.createFile(atPath: kept, contents: Data("kept\n".utf8), attributes: [.posixPermissions: 0o644]))
        for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] where name.hasPrefix("/dev") || FileManager.default.fileExists(atPath: "/proc/self/fd") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" export \"$1\" --table transitions -o \"$2\" >> \"$3\"", NavlogRun.binary.path, log, name, kept]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(name)")
        }
        let text = try String(contentsOfFile: kept, encoding: .utf8)
        #expect(text.hasPrefix("kept\n"), "appended to, as >> asks, not replaced")
        #expect(text.split(separator: "\n").count > 3)
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int == 0o644)
    }

    @Test func aSignalWhileAPipedLogIsCopiedRemovesBothTheCopyAndTheOutputsTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        let copies = scratch.path + "/tmp"
        try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: false)
        let fifo = scratch.path + "/in.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let pid = try spawnAsFromAShell(NavlogRun.binary.path, ["export", fifo, "--table", "screen_views", "-o", scratch.path + "/out.ndjson"],
                                        environment: ["TMPDIR": copies])
        // Opening the FIFO waits for navlog to open it; the writer stays open, so the copy goes on.
        let writer = open(fifo, O_WRONLY)
        #expect(writer >= 0)
        defer { close(writer) }
        let line = Array("{\"v\":1}\n".utf8)
        #expect(write(writer, line, line.count) == line.count)
        var copying = false, writing = false
        for _ in 0..<500 where !(copying && writing) {
            usleep(10_000)
            copying = try !FileManager.default.contentsOfDirectory(atPath: copies).isEmpty
            writing = try !scratch.temporaries().isEmpty
        }
        #expect(copying && writing, "the copy and the output's temporary file are both there")
        kill(pid, SIGTERM)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7F == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copies).isEmpty, "the copy is removed")
        #expect(try scratch.temporaries().isEmpty, "the output's temporary file is removed")
    }

    @Test func aSignalWhileTheOutputIsWrittenRemovesTheTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        // Reading a log from a FIFO waits for a writer: the export has made its temporary file and
        // waits there until the signal comes.
        let fifo = scratch.path + "/log-pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = scratch.path + "/views.ndjson"
        let pid = try spawnAsFromAShell(NavlogRun.binary.path, ["export", fifo, "--table", "screen_views", "-o", output])
        var temporaries: [String] = []
        for _ in 0..<500 where temporaries.isEmpty {
            usleep(10_000)
            temporaries = try scratch.temporaries()
        }
        #expect(temporaries.count == 1 && temporaries.first?.hasPrefix(".views.ndjson.tmp-") == true, "\(temporaries)")
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var waited = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            waited += 1
            if waited == 500 { kill(pid, SIGKILL) }   // never hang the suite
            usleep(10_000)
        }
        #expect(waited < 500, "SIGTERM ended navlog")
        #expect(status & 0x7F == SIGTERM, "ended by the signal, as it would have been without the handler")
        #expect(try scratch.names() == ["log-pipe"], "neither the output nor its temporary file")
    }

    @Test func generateRefusesANonEmptyFileOrLogUnlessForcedAndThenReplacesTheWholeLog() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/one.jsonl"
        #expect(try NavlogRun("generate", "--events", "500", "-o", file).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let refused = try NavlogRun("generate", "--events", "100", "--seed", "2", "-o", file)
        #expect(refused.status == 64 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(try NavlogRun("generate", "--events", "100", "--seed", "2", "-o", file, "--force").status == 0)
        #expect(try NavlogRun("verify", file).stdout.contains("ok: 100 events"))

        let directory = scratch.path + "/log"
        #expect(try NavlogRun("generate", "--events", "3000", "--segment-size", "65536", "-o", directory).status == 0)
        #expect(try NavlogRun("state", directory).status == 0, "builds index.navidx")
        let segments = try LogFiles.resolve(directory).files
        #expect(segments.count > 3)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let again = try NavlogRun("generate", "--events", "200", "-o", directory)
        #expect(again.status == 64 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == listing)
        let forced = try NavlogRun("generate", "--events", "200", "-o", directory, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try LogFiles.resolve(directory).files.count == 1, "no segment of the old log is left behind")
        #expect(!FileManager.default.fileExists(atPath: directory + "/index.navidx"))
        #expect(try NavlogRun("verify", directory).stdout.contains("ok: 200 events"))

        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("mine".utf8)))
        let strangers = try NavlogRun("generate", "--events", "200", "-o", directory, "--force")
        #expect(strangers.status == 74 && strangers.stderr.contains("notes.txt"), "\(strangers.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/notes.txt"))
    }

    @Test func generateForcedOntoALogAWriterHoldsIsRefusedAndTheLogKept() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path + "/held"
        #expect(try NavlogRun("generate", "--events", "300", "-o", directory).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/00000001.jsonl"))
        let writer = try EventLog(directory: directory)
        let run = try NavlogRun("generate", "--events", "100", "-o", directory, "--force")
        #expect(run.status == 75, "\(run.stderr)")
        try writer.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/00000001.jsonl")).starts(with: before))
    }

    @Test func generateWritesOneFileToStandardOutput() throws {
        let scratch = try ScratchDirectory()
        let run = try NavlogRun("generate", "--events", "300", "-o", "-")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 300)
        let file = scratch.path + "/same.jsonl"
        #expect(try NavlogRun("generate", "--events", "300", "-o", file).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == run.stdout)
        #expect(try scratch.names() == ["same.jsonl"], "no directory named -")
    }
}
