import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered standard output: results go here.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { if errno == EINTR { continue }; exit(ExitCode.ioError) }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Diagnostics go to standard error as `navlog: message` or `path:line: error: message`.
enum Diagnostics {
    static func print(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func error(_ error: NavigationHistoryError) {
        if let defect = error.defect {
            print("\(LogInput.shown(defect.file)):\(defect.line): error: \(error.message)")
        } else if let path = error.path {
            print("\(LogInput.shown(path)): error: \(error.message)")
        } else {
            print("navlog: error: \(error.message)")
        }
    }

    static func warning(_ defect: LogDefect) {
        print("\(LogInput.shown(defect.file)):\(defect.line): warning: \(defect.kind): \(defect.detail)")
    }
}

/// The exit codes of navlog (sysexits.h where one fits).
enum ExitCode {
    static let success: Int32 = 0
    static let problemsFound: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let ioError: Int32 = 74
    static let temporaryFailure: Int32 = 75

    static func of(_ error: NavigationHistoryError) -> Int32 {
        switch error.code {
        case .noInput: noInput
        case .io, .readOnly: ioError
        case .locked: temporaryFailure
        default: dataError
        }
    }
}
