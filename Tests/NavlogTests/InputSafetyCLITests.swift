import Dispatch
import Foundation
import Testing
@testable import NavigationHistory
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What navlog does with input that is not a regular file, with files it creates under any umask,
/// with a lock someone else holds, and with inputs far larger than any line: end to end, through
/// the built binary.
@Suite(.serialized) final class InputSafetyCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    func generated(_ name: String, events: Int = 2000) throws -> String {
        let path = dir + "/" + name
        let run = try NavlogRun("generate", "--events", String(events), "--seed", "5", "-o", path)
        #expect(run.status == 0)
        return path
    }

    static let readingCommands: [[String]] = [
        ["verify"], ["verify", "--format", "json"], ["dump"], ["state"], ["state", "--at", "500"], ["diff", "@", "100", "900"],
        ["sessions"], ["replay", "--from", "40", "--to", "90"], ["restore"], ["screens"], ["transitions"], ["paths"], ["funnel", "--steps", "home,recipe"],
        ["exits"], ["bounces"], ["tabs"], ["depth"], ["deeplinks"], ["export", "--table", "screen_views"],
    ]

    @Test(arguments: readingCommands)
    func everyReadingCommandAnswersTheSameForAPipeAsForTheFile(_ command: [String]) throws {
        let file = try generated("log.jsonl")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        func arguments(_ path: String) -> [String] {
            command.contains("@") ? command.map { $0 == "@" ? path : $0 } : command + [path]
        }
        let direct = try NavlogRun(arguments(file), stdin: nil)
        #expect(direct.status == 0)
        for name in ["-", "/dev/stdin"] {
            let piped = try NavlogRun(arguments(name), stdin: text)
            let shown = name == "-" ? "stdin" : name
            #expect(piped.status == direct.status)
            #expect(piped.stdout.replacingOccurrences(of: shown, with: file) == direct.stdout, "\(command) \(name)")
            #expect(piped.stderr.replacingOccurrences(of: shown, with: file) == direct.stderr)
        }
    }

    @Test func defectsOfAPipedLogNameStandardInputAndTheCopyIsRemoved() throws {
        let file = try generated("log.jsonl", events: 50)
        let text = try String(contentsOfFile: file, encoding: .utf8) + "{\"v\":1,\"seq\":51"
        let copiesBefore = try copies()
        let run = try NavlogRun(["verify", "--mode", "absolute", "-"], stdin: text)
        #expect(run.status == 1)
        #expect(run.stdout.contains("stdin:51: tornLine"))
        #expect(try copies() == copiesBefore)
    }

    func copies() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("navlog-input.") })
    }

    @Test func theCopyIsRemovedWhenAFailedWriteEndsNavlog() throws {
        ignoreBrokenPipes
        let file = try generated("log.jsonl", events: 3000)
        let temporary = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let process = Process()
        process.executableURL = NavlogRun.binary
        process.arguments = ["dump", "-"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        // Its output goes nowhere: the first write it makes after the copy fails (EPIPE, as this
        // process, and so the child, ignores SIGPIPE), and navlog exits without its usual return.
        try out.fileHandleForReading.close()
        try input.fileHandleForWriting.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: file)))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 74)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }

    #if os(Linux)
    @Test func theCopyIsRemovedWhenNavlogIsTerminatedWhileCopying() throws {
        let temporary = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // Started as a shell starts it, with no signal blocked: a child of Process inherits the
        // blocked signals of the test runner's thread, and SIGTERM would never reach it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let arguments: [String] = [NavlogRun.binary.path, "dump", "-"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, NavlogRun.binary.path, &actions, &attributes, argv, environment) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let line = Array("{\"v\":1}\n".utf8)
        #expect(write(fds[1], line, line.count) == line.count)
        // Still copying, as standard input is open: the copy is there until the signal.
        let deadline = Date() + 10
        while try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        #expect(kill(pid, SIGTERM) == 0)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7f == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }
    #endif

    @Test func aFifoWithoutAWriterIsWaitedForSayingSoThenReadToItsEnd() throws {
        let file = try generated("log.jsonl", events: 300)
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = NavlogRun.binary
        process.arguments = ["verify", fifo]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
        try writer.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: file)))
        try writer.close()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stderr.contains("\(fifo): waiting for a writer to open this FIFO"))
        #expect(stdout.contains("\(fifo): ok: 300 events"))
    }

    @Test func devicesAndSocketsAreRefusedAsNoLog() throws {
        let zero = try NavlogRun("verify", "/dev/zero")
        #expect(zero.status == 66)
        #expect(zero.stderr.contains("error: /dev/zero: it is a character device"))
        let socketPath = dir + "/socket"
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (k, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[k] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        for command in ["restore", "verify", "state"] {
            let run = try NavlogRun(command, socketPath)
            #expect(run.status == 66, "\(command)")
            #expect(run.stderr.contains("it is a socket, not a log"), "\(command)")
        }
    }

    @Test func storeFilesAndDirectoriesArePrivateWhateverTheUmask() throws {
        let log = dir + "/new/log"
        let event = #"{"type":"scene.open","scene":"main"}"#
        func underUmask(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask 0277 && exec \"$0\" \"$@\"", NavlogRun.binary.path] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try underUmask(["append", log, "--session", "s", "--event", event]) == 0)
        #expect(try underUmask(["append", log, "--session", "s", "--event", event]) == 0)
        let segment = log + "/00000001.jsonl"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"v\":1,".utf8))
        try handle.close()
        #expect(try underUmask(["repair", log]) == 0)
        #expect(try underUmask(["state", log]) == 0)
        #expect(try underUmask(["generate", "--events", "100", "-o", dir + "/generated"]) == 0)
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(dir + "/new") == 0o700)
        #expect(try mode(log) == 0o700)
        #expect(try mode(dir + "/generated") == 0o700)
        for file in ["00000001.jsonl", "LOCK", "00000001.jsonl.torn", "index.navidx"] {
            #expect(try mode(log + "/" + file) == 0o600, "\(file)")
        }
    }

    @Test func aRefusedWriterNamesTheRealHolderNotAStalePidInLOCK() throws {
        let log = dir + "/held"
        let holder = try StoreChild(["hold", log])
        defer { holder.kill() }
        #expect(holder.waitFor("locked") != nil)
        try Data("999999\n".utf8).write(to: URL(fileURLWithPath: log + "/LOCK"))
        let pid = holder.process.processIdentifier
        for arguments in [["append", log, "--session", "s", "--event", #"{"type":"scene.open","scene":"main"}"#], ["repair", log]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 75)
            #if os(Linux)
            #expect(run.stderr.contains("being written by process \(pid);"), "\(arguments[0]): \(run.stderr)")
            #else
            #expect(run.stderr.contains("not by process 999999 that LOCK names (no such process runs: LOCK is stale)"))
            #endif
        }
    }

    /// Runs navlog with standard input from `input` and its address space limited to 1 GiB (as
    /// `ulimit -v` sets it), and returns its exit status and what it wrote to standard output and
    /// error. The inputs of these tests are larger than the limit, so holding one fails the run.
    func underMemoryLimit(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v 1048576 && exec \"$0\" \"$@\" < \"$NAVLOG_INPUT\" 2>&1", NavlogRun.binary.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NAVLOG_INPUT": input]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    #if os(Linux)
    /// A file of `bytes` zeros that takes no disk.
    func zeros(_ name: String, _ bytes: Int) -> String {
        let path = dir + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(bytes)) == 0)
        return path
    }

    @Test(arguments: ["repair", "append"])
    func aHugeTornTailIsCutInBoundedMemoryKeepingABoundedPrefix(_ command: String) throws {
        let log = dir + "/torn-\(command)"
        let event = #"{"type":"scene.open","scene":"main"}"#
        #expect(try NavlogRun("append", log, "--session", "s", "--event", event).status == 0)
        let segment = log + "/00000001.jsonl"
        let size = try #require(FileSystem.status(segment)).size
        #expect(truncate(segment, off_t(size + (2 << 30))) == 0)   // 2 GiB of zeros after the last line
        let arguments = command == "repair" ? ["repair", log] : ["append", log, "--session", "s", "--event", event]
        let run = try underMemoryLimit(arguments, input: "/dev/null")
        #expect(run.status == 0, "\(run.output)")
        #expect(try #require(FileSystem.status(segment + ".torn")).size <= 1 << 20)
    }

    @Test func appendFromAnEndlessLineStopsAtTheLineLimitInBoundedMemory() throws {
        let log = dir + "/endless"
        let run = try underMemoryLimit(["append", log, "--stdin", "--session", "s"], input: zeros("zeros", 2 << 30))
        #expect(run.status == 65)
        #expect(run.output.contains("stdin:1: the line is longer than the 64 KiB limit"))
    }

    @Test func appendFromStandardInputHoldsABoundedPartOfItsEvents() throws {
        // Events of 8 KB that leave the state as it was, 48 MB of them; and a few, for the baseline.
        let push = #"{"type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"42","params":{"note":""#
            + String(repeating: "x", count: 8000) + "\"}}}\n"
        let pop = #"{"type":"pop","scene":"main","stack":"home"}"# + "\n"
        let open = #"{"type":"scene.open","scene":"main"}"# + "\n"
        let many = dir + "/many.jsonl", few = dir + "/few.jsonl"
        #expect(FileManager.default.createFile(atPath: many, contents: Data((open + String(repeating: push + pop, count: 6000)).utf8)))
        #expect(FileManager.default.createFile(atPath: few, contents: Data((open + push + pop).utf8)))
        let baseline = try residentPeak(["append", dir + "/few", "--stdin", "--session", "s"], input: few)
        let run = try residentPeak(["append", dir + "/many", "--stdin", "--session", "s"], input: many)
        #expect(baseline.status == 0 && run.status == 0)
        #expect(run.peakBytes - baseline.peakBytes < 20 << 20, "\(run.peakBytes >> 20) MiB against \(baseline.peakBytes >> 20) MiB")
        var appended = 0
        try LogReader(path: dir + "/many").read { event in if !event.isSnapshot { appended += 1 } }
        #expect(appended == 12_001)
    }

    @Test func standardInputOfOneEndlessLineIsCopiedInBoundedMemory() throws {
        let run = try underMemoryLimit(["verify", "-"], input: zeros("zeros", 2 << 30))
        #expect(run.status == 0)
        #expect(run.output.contains("stdin:1: warning: tornLine: torn tail dropped: an over-long line of \(2 << 30) bytes"))
    }
    #endif
}

/// Runs navlog with standard input from `input` and returns its exit status and the most
/// memory it held (its resident peak), as the kernel accounts it for a waited child: Python's
/// `resource` reads it for the one child it runs. Sampling /proc while navlog ran missed the
/// peak of a run shorter than the sampling period.
func residentPeak(_ arguments: [String], input: String) throws -> (status: Int32, peakBytes: Int) {
    let script = """
        import resource, subprocess, sys
        with open(sys.argv[1]) as stdin:
            status = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, input, NavlogRun.binary.path] + arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let output = readAll(out.fileHandleForReading.fileDescriptor)
    process.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard fields.count == 2 else { return (-1, 0) }
    return (Int32(fields[0]), fields[1])
}
