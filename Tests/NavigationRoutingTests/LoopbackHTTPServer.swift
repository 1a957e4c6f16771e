import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, on a port the kernel picks, for upload tests: it reads
/// each request (request line, headers, a `Content-Length` body), keeps it, and answers as
/// `answer` says for the request's number (0 for the first). One connection at a time, closed
/// after each request. Call ``stop()`` at the end: the serving thread holds it until then.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// How the server answers a request.
    enum Answer: Sendable {
        /// A response with this status and an empty body.
        case status(Int)
        /// The connection closed without a response.
        case drop
        /// No response: the connection stays open until the client gives up or the server stops.
        case silence
    }

    /// A request as it arrived.
    struct Request: Sendable {
        var method: String
        var path: String
        /// Header values by lowercased name.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// The port it listens on.
    let port: Int
    /// `http://127.0.0.1:PORT`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let answer: @Sendable (Int, Request) -> Answer
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// Listens, and serves on a thread of its own until ``stop()``.
    init(answer: @escaping @Sendable (Int, Request) -> Answer) throws {
        self.answer = answer
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        if bound == 0 { bound = listen(fd, 8) }
        var actual = sockaddr_in(), actualLength = length
        if bound == 0 {
            bound = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
            }
        }
        guard bound == 0 else {
            let error = SocketError(call: "bind, listen or getsockname", errno: errno)
            close(fd)
            throw error
        }
        listener = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
        Thread { [self] in serve() }.start()
    }

    /// The requests received so far, in order.
    var requests: [Request] { lock.withLock { received } }

    /// Stops serving, closes every socket, and returns once the serving thread is done.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Waits until `fd` is readable or the server stops; false when it stopped.
    private func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !isStopped {
            if poll(&entry, 1, 20) > 0 { return true }
        }
        return false
    }

    private func serve() {
        while readable(listener) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            handle(connection)
            close(connection)
        }
        close(listener)
        finished.signal()
    }

    /// Reads one request from `connection` and answers it.
    private func handle(_ connection: Int32) {
        var buffer: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            guard receive(connection, into: &buffer) else { return }
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<($0 + 4)]) == separator }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" { reply(connection, "HTTP/1.1 100 Continue\r\n\r\n") }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count - bodyStart < length {
            guard receive(connection, into: &buffer) else { return }
        }
        let request = Request(method: requestLine.first.map(String.init) ?? "", path: requestLine.count > 1 ? String(requestLine[1]) : "",
                              headers: headers, body: Array(buffer[bodyStart..<(bodyStart + length)]))
        let number = lock.withLock { () -> Int in
            received.append(request)
            return received.count - 1
        }
        switch answer(number, request) {
        case .status(let status):
            reply(connection, "HTTP/1.1 \(status) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        case .drop:
            return
        case .silence:
            var rest: [UInt8] = []
            while receive(connection, into: &rest) {}   // until the client closes, or the server stops
        }
    }

    /// Appends what `connection` has to `buffer`; false at its end, on an error, or once stopped.
    private func receive(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        guard readable(connection) else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(connection, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// Sends `text` on `connection`; a client gone meanwhile is not an error here (no SIGPIPE).
    private func reply(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            #endif
            guard count > 0 else { return }
            sent += count
        }
    }
}

/// A socket call that failed, with its `errno`.
struct SocketError: Error {
    var call: String
    var errno: Int32
}
