import Foundation
import Testing

/// Every ```swift example of README.md, of the DocC articles and of the analytics' doc comments
/// is one of the examples this target compiles: editing one without the other fails here.
@Suite struct SnippetsMatchTheirSources {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```swift blocks of `text`, each without its `import` lines, every line trimmed.
    static func blocks(in text: String, docComment: Bool = false) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if docComment {
                guard line.hasPrefix("///") else { continue }
                line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if line == "```swift" { current = [] } else if line == "```", let block = current {
                blocks.append(block.filter { !$0.isEmpty && !$0.hasPrefix("import ") })
                current = nil
            } else if current != nil { current!.append(line) }
        }
        return blocks
    }

    /// The lines of this target's examples, of the recipe app's SwiftUI code (compiled where
    /// SwiftUI is) and of its uploader, trimmed.
    static func compiled() throws -> [String] {
        try ["Tests/DocumentationSnippetTests/ReadmeExamples.swift", "Tests/DocumentationSnippetTests/DocCommentExamples.swift",
             "Examples/RecipeApp/RecipeAppViews.swift", "Examples/RecipeApp/SegmentUploader.swift"].flatMap { name in
            try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// Every `$router[...]` binding of the README's examples.
    static func bindings(in text: String) -> [String] {
        blocks(in: text).joined().flatMap { line in
            line.ranges(of: "$router[").map { start in
                String(line[start.upperBound...].prefix { $0 != "]" })
            }
        }
    }

    @Test func everySwiftUIBindingOfTheREADMEIsAKeyPathCompiledOnEveryPlatform() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let keyPaths = try String(contentsOf: Self.root.appendingPathComponent("Tests/DocumentationSnippetTests/SwiftUIBindings.swift"),
                                  encoding: .utf8)
        let bindings = Self.bindings(in: readme)
        #expect(bindings.count >= 6)
        for binding in bindings {
            // `visibility` is the README's own mapping to SwiftUI's type, of `columnVisibility`.
            let member = binding.hasPrefix("visibility:") ? "column" + binding.prefix(1).uppercased() + binding.dropFirst() : binding
            #expect(keyPaths.contains("\\.[\(member)]"), "$router[\(binding)] of the README is not among the key paths compiled here")
        }
        #expect(readme.contains("self[columnVisibility: scene]"))
    }

    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= lines.count else { return block.isEmpty }
        return (0...(lines.count - block.count)).contains { Array(lines[$0..<($0 + block.count)]) == block }
    }

    static let documents = ["README.md"]
        + ["NavigationHistory", "NavigationRouting", "NavigationAnalytics"].flatMap { module in
            let catalog = "Sources/\(module)/Documentation.docc"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }

    @Test(arguments: documents)
    func everyExampleOfADocumentIsCompiledVerbatim(_ document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let compiled = try Self.compiled()
        for block in Self.blocks(in: text) {
            let found = Self.contains(compiled, block)
            #expect(found, "\(document): an example not in DocumentationSnippetTests:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test func everyExampleOfTheAnalyticsDocCommentsIsCompiledVerbatim() throws {
        let sources = Self.root.appendingPathComponent("Sources/NavigationAnalytics")
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let compiled = try Self.compiled()
        var examples = 0
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for block in Self.blocks(in: text, docComment: true) {
                examples += 1
                let found = Self.contains(compiled, block)
                #expect(found, "\(file): an example not in DocumentationSnippetTests:\n\(block.joined(separator: "\n"))")
            }
        }
        #expect(examples >= 5)
    }

    @Test func anEditedExampleIsNoLongerFound() throws {
        let block = Self.blocks(in: "```swift\nimport NavigationAnalytics\nvar screens = ScreensQuery()\nprint(screens)\n```")
        #expect(block == [["var screens = ScreensQuery()", "print(screens)"]])
        #expect(!Self.contains(try Self.compiled(), block[0]))
    }
}
